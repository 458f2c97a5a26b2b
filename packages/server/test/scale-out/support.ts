import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Repository } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openRepository } from '../../src/database-url.js';
import { expectDocumented, validatorOf } from '../http/support.js';

/**
 * Real server processes for the scale-out and crash tests: `fulfil serve` run from source with
 * tsx (the root tsconfig's `paths` send every @fulfil/* import to packages/\*\/src), so no build
 * is needed and what is tested is the code in the tree; or the built executable, which starts
 * faster, for tests that start many.
 */

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const sourceCli = join(repoRoot, 'packages/server/src/cli.ts');
/** The built `fulfil` executable, as users run it (`pnpm build` makes it; `pnpm test` builds). */
export const builtCli = join(repoRoot, 'packages/server/dist/cli.js');

export const PARTNER = 'scale-partner-secret-0123456789abcdef0123';
export const ERP = 'scale-erp-secret-000000-0123456789abcdef0123';

/** Every process started here, killed when a test file ends, however it ends. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface ServerProcess {
  url: string;
  pid: number;
  /** Everything it printed so far. */
  stdout(): string;
  stderr(): string;
  /** The JSON lines of its stdout (request and courier logs). */
  logLines(): Record<string, unknown>[];
  /** Resolves with the exit code once it has ended (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Run dist/cli.js instead of the sources (it must have been built). Default false. */
  built?: boolean;
  timeoutMs?: number;
}

/**
 * Starts `fulfil serve --host 127.0.0.1 --port 0 <args>` and resolves once it prints that it
 * listens (it prints its URL then: no sleeping, no port guessing); rejects with its output if it
 * ends or does not get there in time.
 */
export async function startServer(
  args: string[],
  { built = false, timeoutMs = 30_000 }: StartOptions = {},
): Promise<ServerProcess> {
  if (built && !existsSync(builtCli)) {
    throw new Error(`${builtCli} does not exist: run \`pnpm build\` first (\`pnpm test\` does)`);
  }
  const entry = built ? [builtCli] : ['--import', 'tsx', sourceCli];
  const child = spawn(
    process.execPath,
    [...entry, 'serve', '--host', '127.0.0.1', '--port', '0', ...args],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.json'),
        FULFIL_DATABASE_URL: undefined,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (!out.includes('Press Ctrl+C to stop.')) {
    if (ended || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `fulfil serve ${ended ? 'ended' : 'did not start in time'}:\n${out}\n${err}`.trim(),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`no URL in the output of fulfil serve:\n${out}`);
  return {
    url,
    pid: child.pid ?? 0,
    stdout: () => out,
    stderr: () => err,
    logLines: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    exited,
    async stop(signal = 'SIGTERM') {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}

/** Whether a process with this id is running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills every server still running (SIGKILL: for cleanup after a failure). */
export async function killAll(): Promise<void> {
  const running = [...children];
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(
    running.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  );
}

// ── databases ───────────────────────────────────────────────────────────────────────────────

export interface TestDatabase {
  /** The `--db` URL every server process gets. */
  url: string;
  /** A repository over the same database in the test process, to check what was stored. */
  open(): Promise<Repository>;
  /** Removes the database (the temp dir; the Postgres schema). */
  drop(): Promise<void>;
}

export async function sqliteDatabase(): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'fulfil-scale-'));
  const url = `sqlite:${join(dir, 'shared.db')}`;
  return {
    url,
    open: () => openRepository(url),
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A fresh schema of the database `base` names, given to the servers as `?schema=`. */
export function postgresDatabase(base: string): TestDatabase {
  const schema = `fulfil_scale_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
  return {
    url,
    open: () => openRepository(url),
    async drop() {
      const repository = await openPostgresRepository({
        connectionString: base,
        skipMigrations: true,
      });
      try {
        await repository.db.schema.dropSchema(schema).ifExists().cascade().execute();
      } finally {
        await repository.close();
      }
    },
  };
}

export async function writeSeed(dir: string, seed: unknown): Promise<string> {
  const file = join(dir, `seed-${randomBytes(4).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(seed));
  return file;
}

// ── HTTP ────────────────────────────────────────────────────────────────────────────────────

export interface Reply {
  status: number;
  body: unknown;
}

/**
 * One request to a server's REST surface, with a bearer token; JSON both ways. The reply is
 * checked against the OpenAPI document the server serves.
 */
export async function call(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Reply> {
  const validator = await validatorOf(baseUrl);
  const response = await fetch(`${baseUrl}/rest/default/V1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  expectDocumented(validator, {
    method,
    path: `/V1/${path}`,
    status: response.status,
    headers: response.headers,
    body: parsed,
  });
  return { status: response.status, body: parsed };
}

/** Fails with the response in the message unless it is a 200. */
export function ok(reply: Reply, what: string): unknown {
  if (reply.status !== 200) {
    throw new Error(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

// ── the seed ────────────────────────────────────────────────────────────────────────────────

/** A sales order pinned to `warehouse`: each line at 10 incl. 22 % tax, shipping 5. */
export function salesOrder(
  id: number,
  warehouse: string,
  lines: readonly (readonly [sku: string, qty: number])[],
  extra: Record<string, unknown> = {},
) {
  return fixtures.salesOrder(
    String(id),
    lines.map(([sku, qty]) => ({ sku, qty })),
    { sales_order_id: id, warehouse_code: warehouse, ...extra },
  );
}

/** The fulfillment order number intake gives the first order of a sales order. */
export const orderNumber = (salesOrderId: number): string => `${salesOrderId}-1`;

/** One store: partner warehouse WH-A, courier warehouse WH-C, a partner and an ERP token. */
export function storeSeed(
  stock: { warehouse_code: string; sku: string; qty: number }[],
  orders: unknown[],
) {
  return {
    stores: [
      {
        code: 'default',
        settings: {
          partial_items: false,
          partial_qty: false,
          reroute: false,
          // Slow enough that the two dispatchers overlap on every order.
          courier: { type: 'simulated', fail_skus: [], max_attempts: 3, delay_ms: 25 },
        },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', active: true, fulfilled_by: 'partner', priority: 10 },
          { code: 'WH-C', name: 'Courier C', active: true, fulfilled_by: 'courier', priority: 1 },
        ],
        stock,
        tokens: [
          { name: 'partner', token: PARTNER, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: ERP, acl: 'erp' },
        ],
        orders,
      },
    ],
  };
}

/** Resolves once `check` holds, polling every 50 ms; fails after `timeoutMs` with `what`. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
