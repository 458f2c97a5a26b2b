import { parseArgs } from 'node:util';
import { DEFAULT_DATABASE_URL } from '../database-url.js';

/** A mistake in how the CLI was called: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  /** @param command the command (or group) whose help to point at, when not the one being run */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The placeholder shown in help: `--port <port>`. */
  value?: string;
  short?: string;
  description: string;
  /** Shown in help; the command applies it. */
  default?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Every command takes these. */
export const COMMON_OPTIONS: OptionSpecs = {
  store: {
    type: 'string',
    value: 'code',
    description: 'store (tenant) code',
    default: 'default',
  },
  db: {
    type: 'string',
    value: 'url',
    description:
      'sqlite:<path>, sqlite::memory: or postgres://…[?schema=<name>] (env FULFIL_DATABASE_URL)',
    default: DEFAULT_DATABASE_URL,
  },
  carriers: {
    type: 'string',
    value: 'file',
    description:
      "the installation's carrier accounts, JSON (env FULFIL_CARRIERS; docs/couriers.md)",
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

export interface ParsedArgs {
  values: Readonly<Record<string, string | boolean | undefined>>;
  positionals: string[];
}

/** Whether `--help`/`-h` appears before a `--` terminator. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Parses a command's arguments strictly: unknown options, a missing option value, and a wrong
 * number of positionals are UsageErrors.
 */
export function parseCommandArgs(
  argv: readonly string[],
  options: OptionSpecs,
  positionals: readonly string[],
): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries({ ...COMMON_OPTIONS, ...options }).map(([name, spec]) => [
          name,
          spec.short ? { type: spec.type, short: spec.short } : { type: spec.type },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // Node's messages carry a second sentence of advice about `--`; the first one says it.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split(/\.\s/)[0]?.replace(/\.$/, '') ?? message);
  }
  const given = parsed.positionals;
  if (given.length < positionals.length) {
    throw new UsageError(`missing ${positionals.slice(given.length).join(' ')}`);
  }
  if (given.length > positionals.length) {
    throw new UsageError(`unexpected argument "${given[positionals.length]}"`);
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: given };
}

/** A string option's value, if given. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** An integer option within [min, max], if given. */
export function integerOption(
  args: ParsedArgs,
  name: string,
  range: { min: number; max?: number },
): number | undefined {
  const text = stringOption(args, name);
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < range.min || value > max) {
    const bounds = range.max === undefined ? `${range.min} or more` : `${range.min} to ${max}`;
    throw new UsageError(`--${name} must be an integer from ${bounds}, not "${text}"`);
  }
  return value;
}

/** `A,B , C` → ['A', 'B', 'C']. */
export function listOption(args: ParsedArgs, name: string): string[] | undefined {
  const text = stringOption(args, name);
  if (text === undefined) return undefined;
  const list = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError(`--${name} must list at least one value`);
  return list;
}

export function optionLine(name: string, spec: OptionSpec): [string, string] {
  const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` <${spec.value}>` : ''}`;
  return [flag, spec.default ? `${spec.description} (default: ${spec.default})` : spec.description];
}

/** Two aligned columns, indented by two spaces. */
export function columns(rows: readonly (readonly [string, string])[]): string {
  const width = rows.reduce((widest, [left]) => Math.max(widest, left.length), 0);
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd()).join('\n');
}

/** The help text of one command. */
export function formatCommandHelp(command: {
  name: string;
  summary: string;
  positionals: readonly string[];
  options: OptionSpecs;
  details?: string;
}): string {
  const own = Object.entries(command.options);
  const usage = [
    `fulfil ${command.name}`,
    ...command.positionals,
    ...(own.length ? ['[options]'] : []),
    '[--store <code>] [--db <url>]',
  ].join(' ');
  const sections = [`Usage: ${usage}`, command.summary];
  if (command.details) sections.push(command.details.trimEnd());
  if (own.length) {
    sections.push(`Options:\n${columns(own.map(([name, spec]) => optionLine(name, spec)))}`);
  }
  sections.push(
    `Common options:\n${columns(Object.entries(COMMON_OPTIONS).map(([name, spec]) => optionLine(name, spec)))}`,
  );
  return `${sections.join('\n\n')}\n`;
}
