import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtures } from '@fulfil/core/testing';
import { FulfilMigrationProvider } from '@fulfil/storage-kysely';
import { afterEach, beforeEach } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

/** Every migration of the schema, in the order they apply (names alone: the flags do not matter). */
export const ALL_MIGRATIONS = Object.keys(
  await new FulfilMigrationProvider({
    autoIncrementId: 'autoincrement',
    bigint: 'integer',
    binaryCollation: false,
    tokenNotifications: false,
    writerDeclaration: 'function',
    comparisonIndexes: 'expression',
  }).getMigrations(),
).sort();

/** Collects what is written to it, as text. */
export class Capture {
  text = '';
  readonly #decoder = new TextDecoder();
  write(chunk: string | Uint8Array): boolean {
    // A character's bytes may span two writes: the decoder keeps the first part until the rest.
    this.text += typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    return true;
  }
  /** The output parsed as JSON. */
  json<T = unknown>(): T {
    return JSON.parse(this.text) as T;
  }
}

export interface CliRun {
  code: number;
  stdout: Capture;
  stderr: Capture;
}

/** Runs `fulfil <argv>` in-process, with its own streams; env and cwd as given. */
export async function runCli(argv: string[], io: Partial<CliIo> = {}): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(argv, {
    stdout,
    stderr,
    env: {},
    signals: new EventEmitter(),
    exit: () => {
      throw new Error('the CLI tried to exit the process');
    },
    ...io,
  });
  return { code, stdout, stderr };
}

/** A temporary directory, removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'fulfil-cli-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * For each test of the block that calls this: a temporary directory and the URL of a SQLite
 * file in it (read them inside the tests), removed after the test.
 */
export function tempDatabasePerTest(): { readonly dir: string; readonly db: string } {
  const current = { dir: '', db: '', remove: async () => {} };
  beforeEach(async () => {
    const { dir, remove } = await tempDir();
    Object.assign(current, { dir, db: `sqlite:${join(dir, 'fulfil.db')}`, remove });
  });
  afterEach(() => current.remove());
  return current;
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value));
  return path;
}

/** A sales order for WH-A: two units of one sku. */
export function salesOrder(number: string, sku = 'SKU-1') {
  return fixtures.salesOrder(number, [{ sku, qty: 2 }], { warehouse_code: 'WH-A' });
}

export const PARTNER_SECRET = 'partner-a-secret-0123456789abcdef0123456789';
export const ERP_SECRET = 'erp-secret-0123456789abcdef0123456789abcdef';

/** A small seed: one store, one partner warehouse, two tokens, one order. */
export function smallSeed() {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, reroute: true },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 },
          { code: 'WH-B', name: 'Partner B', fulfilled_by: 'partner', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 3 },
        ],
        tokens: [
          { name: 'partner-a', token: PARTNER_SECRET, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: ERP_SECRET, acl: 'erp' },
        ],
        orders: [salesOrder('100000001')],
      },
    ],
  };
}
