import { createEngine, type Engine, type Principal } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import type { PostgresRepository } from '@fulfil/storage-postgres';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openOnOneConnection } from './one-connection.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;
const SECRET = 'shared-reads-secret-0123456789abcdef';

/**
 * Polls of one page at once share its read (shared-reads.ts), and each still gets the page as
 * of after it was asked.
 */
describe('shared poll reads on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  let schema: string;
  let repository: PostgresRepository;
  let engine: Engine;
  let partner: Principal;
  let storeId: number;

  beforeAll(async () => {
    // One connection: every statement the polls run is prepared on it, where they can be counted.
    ({ repository, schema } = await openOnOneConnection(url, 'fulfil_shared'));
    engine = createEngine({ repository });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          tokens: [{ name: 'partner', token: SECRET, acl: 'partner' }],
        },
      ],
    });
    storeId = (await engine.getStore('default')).id;
    await repository.transaction(async (tx) => {
      for (let index = 0; index < 150; index++) {
        await tx.insertOrder(fixtures.order({ store_id: storeId }));
      }
    });
    partner = await engine.authenticate('default', SECRET);
  });

  afterAll(async () => {
    await engine?.close();
    if (schema) await dropSchema(url, schema);
  });

  /** How often each statement prepared on the connection has run, by its SQL. */
  async function runsOfVersionStatements(): Promise<Map<string, number>> {
    const { rows } = await sql<{ statement: string; runs: number }>`
      select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements
      where statement like '%pg_snapshot_xmin%'`.execute(repository.db);
    return new Map(rows.map((row) => [row.statement, row.runs]));
  }

  /** How many times the page versions were read since `before` (`runsOfVersionStatements`). */
  async function versionReadsSince(before: Map<string, number>): Promise<number> {
    const after = await runsOfVersionStatements();
    return [...after].reduce(
      (sum, [statement, runs]) => sum + runs - (before.get(statement) ?? 0),
      0,
    );
  }

  const idsOf = (documents: readonly string[]) =>
    documents.map((document) => (JSON.parse(document) as { id: number }).id);
  const poll = async (page: string) =>
    idsOf((await engine.pollPage(partner, 'pending_accept', { page })).documents);

  it('reads a page polled ten times at once twice: once at once, once for the other nine', async () => {
    const first = await poll('1');
    const second = await poll('2');
    expect(first).toHaveLength(100);
    expect(second).toHaveLength(50);
    const before = await runsOfVersionStatements();

    const pages = await Promise.all(Array.from({ length: 10 }, () => poll('1')));

    expect(pages).toEqual(Array.from({ length: 10 }, () => first));
    const runs = await versionReadsSince(before);
    expect(runs).toBe(2);
  });

  it('reads different pages polled at once each for itself', async () => {
    const expected = [await poll('1'), await poll('2')];
    const before = await runsOfVersionStatements();
    const pages = await Promise.all([poll('1'), poll('2')]);
    expect(pages).toEqual(expected);
    const runs = await versionReadsSince(before);
    expect(runs).toBe(2);
  });

  it('answers a poll asked after a commit with that commit, while other polls are on their way', async () => {
    for (let round = 0; round < 20; round++) {
      const earlier = poll('2');
      const stored = await repository.transaction((tx) =>
        tx.insertOrder(fixtures.order({ store_id: storeId })),
      );
      const [later] = await Promise.all([poll('2'), earlier]);
      expect(later).toContain(stored.id);
    }
  });
});
