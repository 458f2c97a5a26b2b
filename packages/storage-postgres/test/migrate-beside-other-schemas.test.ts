import { randomBytes } from 'node:crypto';
import { skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const url = process.env.FULFIL_TEST_POSTGRES_URL;
const withPostgres = skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set');

/** Opens of our current schema, and as many first opens (migrations) of fresh ones. */
const OPENS = 10;

/**
 * A database holds other schemas too (other tenants, other apps, other test runs), created and
 * dropped while a server starts. Opening Fulfil's own schema, already current, must not depend on
 * them: kysely's migrator reads every table of every schema to learn whether its bookkeeping table
 * exists, and fails with `schema "…" does not exist` when one is dropped while it reads.
 */
describe('opening a current schema while other schemas come and go', withPostgres, () => {
  const tag = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const ours = `fulfil_test_ours_${tag}`;
  const admin = new pg.Client({ connectionString: url });
  const churner = new pg.Client({ connectionString: url });

  afterAll(async () => {
    await admin.query(`drop schema if exists "${ours}" cascade`);
    await Promise.all([admin.end(), churner.end()]);
  });

  it(`opens and migrates ${OPENS} times each without a failure`, async () => {
    await Promise.all([admin.connect(), churner.connect()]);
    const first = await openPostgresRepository({ connectionString: url as string, schema: ours });
    await first.close();

    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning; round++) {
        const theirs = `fulfil_test_churn_${tag}_${round}`;
        await churner.query(`create schema "${theirs}"`);
        for (let t = 0; t < 5; t++) {
          await churner.query(`create table "${theirs}".t${t} (id serial primary key, a text)`);
        }
        await churner.query(`drop schema "${theirs}" cascade`);
      }
    })();

    const failures: string[] = [];
    try {
      for (let i = 0; i < 2 * OPENS; i++) {
        const fresh = `fulfil_test_fresh_${tag}_${i}`;
        try {
          const opened = await openPostgresRepository({
            connectionString: url as string,
            schema: i % 2 === 0 ? ours : fresh,
            pool: { max: 2 },
          });
          await opened.close();
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        } finally {
          if (i % 2 === 1) await admin.query(`drop schema if exists "${fresh}" cascade`);
        }
      }
    } finally {
      churning = false;
      await churn;
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
