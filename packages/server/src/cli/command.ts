import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type CarrierAccounts,
  type CourierCallEvent,
  createEngine,
  type Engine,
} from '@fulfil/core';
import { locate } from '@fulfil/geo';
import { builtInCouriers } from '../couriers/registry.js';
import {
  DEFAULT_DATABASE_URL,
  type OpenRepositoryOptions,
  openRepository,
} from '../database-url.js';
import { type OptionSpecs, type ParsedArgs, stringOption } from './args.js';
import { parseCarrierAccounts } from './carriers-file.js';
import type { CliIo } from './io.js';

/** What a command runs with: the process it talks to and the options every command shares. */
export interface CommandContext {
  io: CliIo;
  args: ParsedArgs;
  /** `--store`. */
  store: string;
  /** `--db`, else `FULFIL_DATABASE_URL`, else the default SQLite file. */
  databaseUrl: string;
  /** `--carriers`, else `FULFIL_CARRIERS`: the installation's carrier accounts (carriers-file.ts). */
  carriersFile?: string;
  /** The directory the user ran the command from: `INIT_CWD` (set by pnpm scripts), else cwd. */
  baseDir: string;
}

/** One command of the `fulfil` CLI: `serve`, `token create`, … */
export interface Command {
  /** The words that select it: `token create`. */
  name: string;
  summary: string;
  /** Required positionals, as shown in help: `<file>`. */
  positionals: readonly string[];
  options: OptionSpecs;
  /** More help text, after the summary. */
  details?: string;
  /** Resolves to the exit code; undefined means 0. */
  run(context: CommandContext): Promise<number | undefined>;
}

export function createContext(io: CliIo, args: ParsedArgs): CommandContext {
  const carriersFile = stringOption(args, 'carriers') ?? (io.env.FULFIL_CARRIERS || undefined);
  return {
    io,
    args,
    store: stringOption(args, 'store') ?? 'default',
    databaseUrl: stringOption(args, 'db') ?? io.env.FULFIL_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    ...(carriersFile === undefined ? {} : { carriersFile }),
    baseDir: io.env.INIT_CWD || io.cwd,
  };
}

/** A path as the user meant it: relative to the directory they ran the command from. */
export function resolvePath(context: CommandContext, path: string): string {
  return resolve(context.baseDir, path);
}

/** Reads and parses a JSON file named on the command line. */
export async function readJsonFile(context: CommandContext, path: string): Promise<unknown> {
  const file = resolvePath(context, path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`cannot read ${file}: ${reason}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export function printJson(context: CommandContext, value: unknown): void {
  context.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The carrier accounts of the file `--carriers` (or `FULFIL_CARRIERS`) names; none without one. */
async function readCarrierAccounts(context: CommandContext): Promise<CarrierAccounts> {
  const file = context.carriersFile;
  if (file === undefined) return {};
  return parseCarrierAccounts(await readJsonFile(context, file), resolvePath(context, file));
}

/**
 * Opens the database `--db` names (migrating it, unless `skipMigrations`: the schema must then be
 * current already) and an engine over it, with the carrier accounts `--carriers` declares.
 */
export async function openEngine(
  context: CommandContext,
  options: Pick<
    OpenRepositoryOptions,
    'skipMigrations' | 'onMigrated' | 'lockTimeoutMs' | 'tracing'
  > & {
    onCourierCall?: (event: CourierCallEvent) => void;
    /** The engine's document cache (core's `documentCacheBytes`); its default when absent. */
    documentCacheBytes?: number;
    /** How long an operator's session lasts (core's `sessionHours`); its default when absent. */
    sessionHours?: number;
  } = {},
): Promise<Engine> {
  const { onCourierCall, documentCacheBytes, sessionHours, ...repositoryOptions } = options;
  // Read first: a mistake in the file fails before the database is opened.
  const carrierAccounts = await readCarrierAccounts(context);
  const repository = await openRepository(context.databaseUrl, {
    ...repositoryOptions,
    baseDir: context.baseDir,
    skipMigrations: options.skipMigrations ?? false,
  });
  // Only `serve` authenticates tokens; their last use shows in the admin API.
  return createEngine({
    repository,
    trackTokenUse: true,
    // The `distance` rule locates addresses without coordinates offline (docs/routing.md).
    locate,
    couriers: builtInCouriers(context.io.env),
    carrierAccounts,
    ...(documentCacheBytes === undefined ? {} : { documentCacheBytes }),
    ...(sessionHours === undefined ? {} : { sessionHours }),
    ...(onCourierCall ? { onCourierCall } : {}),
    ...(options.tracing === false ? { tracing: false } : {}),
  });
}

/** Runs `work` with an engine over `--db`, and closes the database afterwards, whatever happens. */
export async function withEngine<T>(
  context: CommandContext,
  work: (engine: Engine) => Promise<T>,
): Promise<T> {
  const engine = await openEngine(context);
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}
