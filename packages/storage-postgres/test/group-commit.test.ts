import { randomBytes } from 'node:crypto';
import type { Repository } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository, type PostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

const storeCodes = (repository: Repository) =>
  repository.transaction(async (tx) => (await tx.listStores()).map((s) => s.code), 'read');

const addStore = (repository: Repository, code: string) =>
  repository.transaction((tx) => tx.upsertStore(code, fixtures.storeSettings()));

/**
 * Group commit on Postgres (docs/operations.md): the writes of one process that queue at once
 * share one transaction, each in a savepoint of its own, with one COMMIT; one that fails is
 * rolled back to its savepoint alone, whatever failed (its code, or a statement Postgres refused,
 * which aborts the transaction until the savepoint is rolled back to).
 */
describe('postgres: group commit', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  const schemas: string[] = [];
  const closing: (() => Promise<void>)[] = [];

  afterEach(async () => {
    vi.restoreAllMocks();
    for (const close of closing.splice(0)) await close();
  });

  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const schema of schemas) await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  /**
   * A repository with group commit on (one group at a time), on a schema of its own unless
   * `schema` names one.
   */
  async function open(lanes = 1, schema = newSchema()): Promise<PostgresRepository> {
    const repository = await openPostgresRepository({
      connectionString: url as string,
      schema,
      groupCommit: { lanes },
    });
    closing.push(() => repository.close());
    return repository;
  }

  function newSchema(): string {
    const schema = `fulfil_group_${process.pid}_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    return schema;
  }

  /** Every statement the driver is sent from now on. */
  function recordStatements(): string[] {
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const [config] = args as [string | { text?: string }];
      sent.push(String(typeof config === 'string' ? config : config?.text).toLowerCase());
      return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    return sent;
  }

  it('writes that queue together share one commit, each in a savepoint of its own', async () => {
    const repository = await open();
    const sent = recordStatements();
    const codes = ['a', 'b', 'c', 'd'];
    await Promise.all(codes.map((code) => addStore(repository, code)));
    expect(sent.filter((text) => text === 'commit')).toHaveLength(1);
    expect(sent.filter((text) => text.startsWith('savepoint'))).toHaveLength(4);
    vi.restoreAllMocks();
    expect(await storeCodes(repository)).toEqual(codes);
  });

  it('one member failing changes nothing, and the others of its group commit', async () => {
    const repository = await open();
    const sent = recordStatements();
    const outcomes = await Promise.allSettled([
      addStore(repository, 'a'),
      // Its own code fails after it wrote.
      repository.transaction(async (tx) => {
        await tx.upsertStore('b', fixtures.storeSettings());
        throw new RangeError('bad input');
      }),
      // Postgres refuses a statement after it wrote: a warehouse of a store that does not exist.
      repository.transaction(async (tx) => {
        await tx.upsertStore('c', fixtures.storeSettings());
        await tx.upsertWarehouse(fixtures.warehouse(2_000_000_000, 'WH-A'));
      }),
      addStore(repository, 'd'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new RangeError('bad input'));
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
    expect(sent.filter((text) => text === 'commit')).toHaveLength(1);
    expect(sent.filter((text) => text.startsWith('rollback to savepoint'))).toHaveLength(2);
    vi.restoreAllMocks();
    expect(await storeCodes(repository)).toEqual(['a', 'd']);
    const warehouses = await repository.db.selectFrom('warehouses').select('code').execute();
    expect(warehouses).toEqual([]);
  });

  it("a deadlock with another process's group rolls back one member alone; it runs again, and every write lands once", async () => {
    const schema = newSchema();
    const one = await open(1, schema);
    const other = await open(1, schema);
    const store = await addStore(one, 'a');
    const bump = (repository: Repository, number: string) =>
      repository.transaction((tx) => tx.nextFulfillmentSequence(store.id, number));
    await bump(one, 'X');
    await bump(one, 'Y');
    // Each process's group: its first member takes one row and waits until the other's has taken
    // the other row; its second member then wants the row the other group holds.
    let arrived = 0;
    let bothHold: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      bothHold = resolve;
    });
    const takeAndWait = (repository: Repository, number: string) =>
      repository.transaction(async (tx) => {
        await tx.nextFulfillmentSequence(store.id, number);
        arrived += 1;
        if (arrived === 2) bothHold();
        await holding;
      });
    let runs = 0;
    const crossOver = (repository: Repository, number: string) =>
      repository.transaction(async (tx) => {
        runs += 1;
        return tx.nextFulfillmentSequence(store.id, number);
      });
    await Promise.all([
      takeAndWait(one, 'X'),
      crossOver(one, 'Y'),
      takeAndWait(other, 'Y'),
      crossOver(other, 'X'),
    ]);
    // Postgres broke the cycle by failing one of the second members: it ran again, after the
    // other group's commit.
    expect(runs).toBe(3);
    const sequences = await one.db
      .selectFrom('sales_order_sequences')
      .select(['sales_order_number', 'last_sequence'])
      .orderBy('sales_order_number')
      .execute();
    expect(sequences).toEqual([
      { sales_order_number: 'X', last_sequence: 3 },
      { sales_order_number: 'Y', last_sequence: 3 },
    ]);
  });

  it('several groups run at once, one per lane, and every write commits once', async () => {
    const repository = await open(3);
    const codes = Array.from({ length: 40 }, (_, index) => `s${String(index).padStart(2, '0')}`);
    const sent = recordStatements();
    // Queued over several turns: later ones find lanes under way and wait for the next group.
    const writes: Promise<unknown>[] = [];
    for (const code of codes) {
      writes.push(addStore(repository, code));
      if (writes.length % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    const commits = sent.filter((text) => text === 'commit').length;
    expect(commits).toBeGreaterThan(1);
    expect(commits).toBeLessThan(codes.length);
    vi.restoreAllMocks();
    expect(await storeCodes(repository)).toEqual(codes);
  });
});
