import { randomBytes } from 'node:crypto';
import { skipUnless } from '@fulfil/core/testing';
import { FulfilMigrationProvider } from '@fulfil/storage-kysely';
import { openPostgresRepository, type PostgresRepository } from '@fulfil/storage-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSchema } from './one-connection.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

describe('openPostgresRepository', () => {
  it('refuses a schema name it would have to quote', async () => {
    await expect(
      openPostgresRepository({ connectionString: 'postgres://nowhere/x', schema: 'Bad"Name' }),
    ).rejects.toThrow(/schema/);
  });

  if (!url) {
    it(
      'postgres open/migrate tests',
      skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'),
      () => {},
    );
    return;
  }

  const schema = `fulfil_test_open_${process.pid}_${randomBytes(4).toString('hex')}`;
  const opened: PostgresRepository[] = [];

  afterEach(async () => {
    for (const repository of opened.splice(0)) await repository.close();
    await dropSchema(url as string, schema);
  });

  it('migrates once when several processes open one new schema at once', async () => {
    const repositories = await Promise.all(
      Array.from({ length: 5 }, () =>
        openPostgresRepository({ connectionString: url, schema, pool: { max: 3 } }),
      ),
    );
    opened.push(...repositories);
    const [first] = repositories;
    if (!first) throw new Error('none opened');
    const applied = await sql<{
      name: string;
    }>`select name from ${sql.table(`${schema}.fulfil_migration`)}`.execute(first.db);
    // Every migration of the code, each applied once.
    const all = await new FulfilMigrationProvider({
      autoIncrementId: 'identity',
      bigint: 'bigint',
      binaryCollation: true,
      tokenNotifications: true,
      writerDeclaration: 'setting',
      comparisonIndexes: 'partial',
    }).getMigrations();
    expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(all));
    const tables = await sql<{ n: number }>`
      select count(*) as n from information_schema.tables where table_schema = ${schema}`.execute(
      first.db,
    );
    // count(*) is int8: this pool parses it to a number.
    // 11 tables of 0001, 3 of 0004 (operators, their sessions, the store audit), 0005's
    // courier_labels, 0006's change clock, 0009's writer generation, 0010's list of orders
    // whose totals were due, 0013's sales orders and feed entries, 0019's returns and their
    // quarantined counts, 0022's list of canceled orders still held, 0023's stock adjustments
    // and their lines, 0027's stock sets, 0029's warehouse days, kysely's 2.
    expect(tables.rows[0]?.n).toBe(29);
  });

  it('parses int8 to numbers in its own pool only, leaving pg global parsers alone', async () => {
    const repository = await openPostgresRepository({ connectionString: url, schema });
    opened.push(repository);
    const result = await sql<{ big: number }>`select 9007199254740991::int8 as big`.execute(
      repository.db,
    );
    expect(result.rows[0]?.big).toBe(Number.MAX_SAFE_INTEGER);
    await expect(sql`select 9007199254740993::int8 as big`.execute(repository.db)).rejects.toThrow(
      /does not fit/,
    );
    expect(pg.types.getTypeParser(20, 'text')('5')).toBe('5');
  });
});
