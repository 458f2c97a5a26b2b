import { isIP } from 'node:net';
import type { Engine } from '@fulfil/core';
import { appendAll } from '@fulfil/core';
import { UsageError } from './args.js';
import type { CommandContext } from './command.js';
import { cliLine, sameDatabaseArgs } from './invocation.js';

/**
 * Whether `serve` offers the admin API (docs/console.md): safe by default, it does only on a
 * loopback address unless told otherwise, so nothing an operator can do is reachable from the
 * network before someone decided it should be (behind a TLS proxy, docs/operations.md).
 */
export type AdminSwitch = 'auto' | 'on' | 'off';

export function readAdminSwitch(value: string | undefined): AdminSwitch {
  const chosen = value ?? 'auto';
  if (chosen !== 'auto' && chosen !== 'on' && chosen !== 'off') {
    throw new UsageError(`--admin must be auto, on or off, not "${chosen}"`);
  }
  return chosen;
}

/** Whether the host only ever takes connections from this machine. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '[::1]';
}

export function adminEnabled(admin: AdminSwitch, host: string): boolean {
  return admin === 'on' || (admin === 'auto' && isLoopback(host));
}

/** What the banner says of the admin API: where it is, and how to make the first admin. */
export async function adminBanner(
  context: CommandContext,
  engine: Engine,
  url: string,
  enabled: boolean,
  host: string,
): Promise<string> {
  if (!enabled) {
    return isLoopback(host)
      ? 'The admin API is off (--admin off).\n'
      : `The admin API is off: ${host} is not a loopback address. Put the server behind an https\nproxy, then give --admin on --trust-proxy (docs/console.md).\n`;
  }
  const operators = await engine.admin.listOperators();
  const admins = operators.filter((o) => o.role === 'admin' && o.revoked_at === null);
  const lines = [`The admin API is at ${url}/admin/api (console: ${url}/admin/).`];
  if (admins.length === 0) appendAll(lines, firstAdminLines(context, operators));
  return `${lines.join('\n')}\n`;
}

/** How to create the first admin: a command that runs as printed, against this database. */
function firstAdminLines(
  context: CommandContext,
  operators: readonly { name: string }[],
): string[] {
  const database = sameDatabaseArgs(context);
  if ('unreachable' in database) {
    return [
      `No admin operator exists yet, and ${database.unreachable}: serve a database file to create one with "operator create".`,
    ];
  }
  // A name no operator has, revoked ones included.
  const taken = new Set(operators.map((operator) => operator.name));
  let name = 'admin';
  for (let n = 2; taken.has(name); n++) name = `admin-${n}`;
  const command = ['operator', 'create', '--name', name, '--role', 'admin', ...database.args];
  return [
    'No admin operator exists yet. Create the first one, then log in with its name and secret:',
    `  ${cliLine(context, command)}`,
    ...(database.note ? [`  (${database.note})`] : []),
  ];
}
