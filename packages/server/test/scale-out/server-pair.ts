import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine, type Repository } from '@fulfil/core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  killAll,
  type ServerProcess,
  startServer,
  type TestDatabase,
  writeSeed,
} from './support.js';

/** Two `fulfil serve` processes on one database, and a way to read it from the test. */
export interface ServerPair {
  servers: ServerProcess[];
  /** A repository over the same database in the test process, to check what was stored. */
  repository: Repository;
  /** An engine over `repository`. */
  engine: Engine;
}

/**
 * Registers, in the describe block that calls it, two `fulfil serve … <args>` processes started
 * before its tests on a fresh database (the first seeding it with `seed`), and their end and the
 * database's removal after them. The pair's fields are set once its tests run.
 */
export function useServerPair(
  makeDatabase: () => Promise<TestDatabase>,
  seed: () => unknown,
  args: readonly string[],
): ServerPair {
  const pair = { servers: [] } as unknown as ServerPair;
  let database: TestDatabase | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-scale-seed-'));
    database = await makeDatabase();
    const seedFile = await writeSeed(dir, seed());
    // Both start at once: the second migrates while the first does (they take turns).
    pair.servers = await Promise.all([
      startServer(['--db', database.url, '--seed', seedFile, ...args]),
      startServer(['--db', database.url, ...args]),
    ]);
    pair.repository = await database.open();
    pair.engine = createEngine({ repository: pair.repository });
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await pair.engine?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  return pair;
}

/** Neither server logged an error or answered a 5xx, and both stop on SIGTERM with exit 0. */
export async function expectCleanStop(servers: readonly ServerProcess[]): Promise<void> {
  const errors = servers.flatMap((process) =>
    process.logLines().filter((line) => line.level === 'error' || (line.status as number) >= 500),
  );
  expect(errors).toEqual([]);
  expect(await Promise.all(servers.map((process) => process.stop('SIGTERM')))).toEqual(
    servers.map(() => 0),
  );
}
