import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { isDomainError } from '@fulfil/core';
import { skipUnless } from '@fulfil/core/testing';
import {
  isPostgresUnavailable,
  openPostgresRepository,
  type PostgresRepository,
} from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * A Postgres that cannot serve — refused, cut off mid-transaction, no pooled connection free in
 * time — makes the repository throw core's `unavailable` error, and never ends the process.
 */

const url = process.env.FULFIL_TEST_POSTGRES_URL;

function expectUnavailable(error: unknown): void {
  expect(isDomainError(error) && error.code, String(error)).toBe('unavailable');
}

/** A local port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('postgres: a database that cannot serve now', () => {
  const opened: PostgresRepository[] = [];
  afterEach(async () => {
    for (const repository of opened.splice(0)) await repository.close();
  });

  it('is unavailable when the connection is refused', async () => {
    const repository = await openPostgresRepository({
      connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/x`,
      skipMigrations: true,
    });
    opened.push(repository);
    const error = await repository.transaction((tx) => tx.listStores()).catch((e: unknown) => e);
    expectUnavailable(error);
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reads errors structurally, through causes and aggregates', () => {
    const sqlState = (code: string) => Object.assign(new Error('x'), { code });
    expect(isPostgresUnavailable(sqlState('57P01'))).toBe(true); // admin_shutdown
    expect(isPostgresUnavailable(sqlState('57P03'))).toBe(true); // cannot_connect_now
    expect(isPostgresUnavailable(sqlState('08006'))).toBe(true); // connection_failure
    expect(isPostgresUnavailable(sqlState('53300'))).toBe(true); // too_many_connections
    expect(isPostgresUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isPostgresUnavailable(new AggregateError([sqlState('ECONNREFUSED')], 'connect failed')),
    ).toBe(true);
    expect(isPostgresUnavailable(new Error('wrapped', { cause: sqlState('ECONNRESET') }))).toBe(
      true,
    );
    // Faults of the work itself stay what they are.
    expect(isPostgresUnavailable(sqlState('23505'))).toBe(false); // unique_violation
    expect(isPostgresUnavailable(sqlState('40001'))).toBe(false); // retried, not unavailable
    expect(isPostgresUnavailable(new Error('Connection terminated unexpectedly!'))).toBe(false);
    expect(isPostgresUnavailable('57P01')).toBe(false);
  });

  if (!url) {
    it(
      'postgres connection-fault tests',
      skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'),
      () => {},
    );
    return;
  }

  // A schema of its own, migrated once: the shared database's default schema is nobody's, and a
  // pool of one connection cannot migrate (the advisory lock holds one).
  const schema = `fulfil_unavailable_${process.pid}_${randomBytes(3).toString('hex')}`;
  beforeAll(async () => {
    await (await openPostgresRepository({ connectionString: url, schema })).close();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`drop schema if exists ${schema} cascade`);
    } finally {
      await admin.end();
    }
  });

  const open = async (pool: { max?: number; connectionTimeoutMillis?: number } = {}) => {
    const applicationName = `fulfil_unavailable_${process.pid}_${randomBytes(3).toString('hex')}`;
    const repository = await openPostgresRepository({
      connectionString: url,
      schema,
      skipMigrations: true,
      pool: { ...pool, applicationName },
    });
    opened.push(repository);
    return { repository, applicationName };
  };

  it('is unavailable when its connection is cut mid-transaction, and serves again after', async () => {
    const { repository, applicationName } = await open();
    // Only this repository's own sessions, found by their application_name.
    const cut = async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const { rows } = await admin.query(
          'select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1',
          [applicationName],
        );
        return rows[0].n as number;
      } finally {
        await admin.end();
      }
    };
    const error = await repository
      .transaction(async (tx) => {
        await tx.listStores();
        // The connection, checked out and idle in this transaction, is cut: pg reports it as an
        // 'error' event on the client, which used to be unhandled and end the process.
        expect(await cut()).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return tx.listStores();
      })
      .catch((e: unknown) => e);
    expectUnavailable(error);
    expect(await repository.transaction((tx) => tx.listStores(), 'read')).toEqual(
      expect.any(Array),
    );
  });

  it('is unavailable when no pooled connection comes free within the wait', async () => {
    const { repository } = await open({ max: 1, connectionTimeoutMillis: 200 });
    let release = () => {};
    let holding = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = repository.transaction(async (tx) => {
      await tx.listStores();
      holding();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    }, 'read');
    await held;
    const error = await repository.transaction((tx) => tx.listStores()).catch((e: unknown) => e);
    release();
    await holder;
    expectUnavailable(error);
  });
});
