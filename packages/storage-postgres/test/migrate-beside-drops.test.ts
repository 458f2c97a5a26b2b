import { randomBytes } from 'node:crypto';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

/**
 * Other installations (or test runs) in one database create and drop their schemas while this
 * one migrates; kysely's migrator reads every schema's tables, so a schema dropped under it used
 * to fail the migration with "schema … does not exist".
 */

const url = process.env.FULFIL_TEST_POSTGRES_URL;

describe('migrating beside schemas being dropped', () => {
  if (!url) {
    it.skip('skipped: FULFIL_TEST_POSTGRES_URL is not set', () => {});
    return;
  }

  it('migrates a new schema while others come and go', async () => {
    const prefix = `fulfil_churn_${process.pid}_${randomBytes(3).toString('hex')}`;
    const churner = new pg.Client({ connectionString: url });
    await churner.connect();
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const name = `${prefix}_${i % 4}`;
        await churner.query(`create schema if not exists "${name}"`);
        await churner.query(`create table if not exists "${name}".t (a int)`);
        await churner.query(`drop schema "${name}" cascade`);
      }
    })();
    const mine: string[] = [];
    try {
      for (let round = 0; round < 10; round++) {
        const schema = `${prefix}_mine_${round}`;
        mine.push(schema);
        const repository = await openPostgresRepository({ connectionString: url, schema });
        try {
          // Introspection sees this schema's tables, and only them.
          const tables = await repository.db.introspection.getTables({
            withInternalKyselyTables: true,
          });
          expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
          const stores = tables.find((table) => table.name === 'stores');
          expect(stores?.columns.map((column) => column.name)).toContain('code');
        } finally {
          await repository.close();
        }
      }
    } finally {
      churning = false;
      await churn;
      for (const schema of mine) await churner.query(`drop schema if exists "${schema}" cascade`);
      await churner.end();
    }
    expect(mine).toHaveLength(10);
  }, 60_000);
});
