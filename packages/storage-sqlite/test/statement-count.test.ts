import { createEngine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import {
  CHANGE_FEED_SQL,
  type Database,
  KyselyRepository,
  migrateToLatest,
} from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  declareWriterGeneration,
  ImmediateSqliteDialect,
  SQLITE_SCHEMA_FLAGS,
} from '../src/index.js';
import { observed } from './support/observed-database.js';

/** Counts the queries kysely builds and compiles; a statement compiled before runs without. */
class BuildCounter implements KyselyPlugin {
  builds = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.builds += 1;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * How many SQL statements an action costs, BEGIN and COMMIT aside. Each one is a round trip on
 * Postgres and a call into SQLite: the numbers may only go down.
 */
describe('statements per action', () => {
  let db: Kysely<Database>;
  let recorded: string[];
  let builds: BuildCounter;
  let engine: ReturnType<typeof createEngine>;

  beforeEach(async () => {
    recorded = [];
    builds = new BuildCounter();
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({
        database: observed(declareWriterGeneration(new BetterSqlite3(':memory:')), recorded),
      }),
      plugins: [builds],
    });
    await migrateToLatest(db, SQLITE_SCHEMA_FLAGS);
    const repository = new KyselyRepository({
      db,
      profile: {
        transactionSettings: (mode) => ({
          accessMode: mode === 'read' ? 'read only' : 'read write',
        }),
        rowLocks: false,
        isRetryable: () => false,
        isUnavailable: () => false,
        changeStampSql: 'select 0 as stamp',
        changeIdSql: CHANGE_FEED_SQL.sqliteChangeId,
        changeHorizonSql: CHANGE_FEED_SQL.sqliteHorizon,
        jsonArrayAggregate: CHANGE_FEED_SQL.sqliteJsonArrayAggregate,
        maxAttempts: 1,
        retryBaseDelayMs: 0,
      },
      // An in-memory database: no other connection commits.
      otherCommits: () => 0,
    });
    engine = createEngine({ repository, clock: new ManualClock('2026-03-01T09:00:00Z') });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          stock: [
            { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 },
            { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 100 },
          ],
          orders: [
            fixtures.salesOrder('1001', [
              { sku: 'SKU-1', qty: 2 },
              { sku: 'SKU-2', qty: 1 },
            ]),
          ],
        },
      ],
    });
  });

  afterEach(() => db.destroy());

  /** The statements `work` runs, BEGIN and COMMIT aside, each as its first word: `select`… */
  async function count(work: () => Promise<unknown>): Promise<string[]> {
    const from = recorded.length;
    await work();
    return statementsSince(from).map((text) => text.split(' ')[0] as string);
  }

  function statementsSince(from: number): string[] {
    return recorded.slice(from).filter((text) => !/^(begin|commit|rollback)\b/i.test(text));
  }

  async function acceptWhole(number: string) {
    const order = await engine.getOrder('default', number);
    return engine.accept(engine.operator('default'), {
      order: {
        order_id: number,
        items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    });
  }

  it('an accept rewrites the queue entry in place: the same row, now in the new queue', async () => {
    // A later order's entry: a deleted row and a new one would not share a rowid.
    await engine.intake('default', fixtures.salesOrder('1002', [{ sku: 'SKU-1', qty: 1 }]));
    const { id } = await engine.getOrder('default', '1001-1');
    const entryOf = () =>
      sql<{
        rowid: number;
        queue: string;
      }>`select rowid, queue from queue_entries where order_id = ${id}`
        .execute(db)
        .then((result) => result.rows);
    const [before] = await entryOf();
    await acceptWhole('1001-1');
    expect(await entryOf()).toEqual([{ rowid: before?.rowid, queue: 'pending_allocation' }]);
  });

  it('an accept sets only the item columns that changed, leaving the index on position alone', async () => {
    const from = recorded.length;
    await acceptWhole('1001-1');
    const upserts = statementsSince(from).filter((text) =>
      text.startsWith('insert into "order_items"'),
    );
    expect(upserts).toHaveLength(1);
    expect(upserts[0]).toMatch(/do update set "status" = "excluded"\."status"$/);
  });

  it('accept of a two-line order', async () => {
    const order = await engine.getOrder('default', '1001-1');
    const statements = await count(() =>
      engine.accept(engine.operator('default'), {
        order: {
          order_id: '1001-1',
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      }),
    );
    // The store; the order, its items, shipments, invoices (locked); the change clock (the change
    // id the queue entry carries, docs/polling.md); the queue entry rewritten from the queue it
    // left to the one it entered, with its document; the header; both items in one upsert (last
    // of the order's writes: on Postgres they wait to go with the audit event, deferred-writes.ts);
    // the audit event; the sales order moved in its feed (docs/polling.md), last. No stock: the
    // lines hold their reservation since intake routed them.
    expect(statements).toEqual([
      'select',
      'select',
      'select',
      'select',
      'select',
      'update',
      'update',
      'update',
      'insert',
      'insert',
      'update',
    ]);
  });

  it('an intake reads its skus’ stock once: its write transaction already excludes every other writer', async () => {
    const from = recorded.length;
    await engine.intake(
      'default',
      fixtures.salesOrder('1002', [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-2', qty: 3 },
      ]),
    );
    const stockStatements = statementsSince(from).filter((text) => /\b"?stock"?\s/i.test(text));
    // The read the routing decides on, then the reservation; no second read to confirm the units
    // promised (on Postgres, where writers run side by side, that read locks the rows).
    expect(stockStatements.map((text) => text.split(' ')[0])).toEqual(['select', 'insert']);
    const levels = await engine.listStock('default');
    expect(levels.map(({ sku, reserved }) => ({ sku, reserved }))).toEqual([
      { sku: 'SKU-1', reserved: 3 },
      { sku: 'SKU-2', reserved: 4 },
    ]);
  });

  it('a second accept builds no query: each statement is compiled once per repository', async () => {
    await engine.intake(
      'default',
      fixtures.salesOrder('1002', [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-2', qty: 3 },
      ]),
    );
    await acceptWhole('1001-1');
    const order = await engine.getOrder('default', '1002-1');
    const before = builds.builds;
    await engine.accept(engine.operator('default'), {
      order: {
        order_id: '1002-1',
        items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    });
    expect(builds.builds - before).toBe(0);
  });

  it('a partial shipment leaves the untouched line and the queues still listing it alone', async () => {
    const order = await engine.getOrder('default', '1001-1');
    const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
    const operator = engine.operator('default');
    await engine.upsertStore('default', { partial_items: true });
    await engine.accept(operator, { order: { order_id: '1001-1', items } });
    await engine.allocate(operator, { allocation: { order_id: '1001-1', items } });
    const statements = await count(() =>
      engine.ship(operator, { shipment: { order_id: '1001-1', items: items.slice(0, 1) } }),
    );
    // 13 before. Now: the store; the order and its parts; the change clock; the header; the one
    // shipped line; the shipment; the two queues that list it now, one upsert (it left none); the
    // stock; the audit; the sales order moved in its feed.
    expect(statements).toHaveLength(13);
    expect(statements).not.toContain('delete');
  });

  it('a poll of a page', async () => {
    const operator = engine.operator('default');
    const first = await count(() => engine.poll(operator, 'pending_accept'));
    // The store, the page's versions with the change horizon (the page's Fulfil-Cursor), then
    // the page of documents, which this process had not read yet.
    expect(first).toEqual(['select', 'select', 'select']);
    const again = await count(() => engine.poll(operator, 'pending_accept'));
    // Every document of the page is held under the change that wrote it: no page is read.
    expect(again).toEqual(['select', 'select']);
  });

  it('a poll after one order entered the page reads that order’s document alone', async () => {
    const operator = engine.operator('default');
    await engine.poll(operator, 'pending_accept');
    await engine.intake('default', fixtures.salesOrder('1002', [{ sku: 'SKU-1', qty: 1 }]));
    const from = recorded.length;
    const page = await engine.pollPage(operator, 'pending_accept');
    const statements = statementsSince(from);
    // The store, the page's versions, then one document by its key (order, queue).
    expect(statements).toHaveLength(3);
    expect(statements[2]).toMatch(/where "queue" = \? and "order_id" in \(\?\)$/);
    expect(page.documents).toHaveLength(2);
    expect(page.documents.at(-1)).toContain('"1002-1"');
  });

  it("a partner's request for a page: the token, the page's versions, and no BEGIN", async () => {
    const { token } = await engine.createToken('default', { name: 'partner', acl: 'partner' });
    await engine.poll(engine.operator('default'), 'pending_accept');
    const from = recorded.length;
    const partner = await engine.authenticate('default', token);
    await engine.poll(partner, 'pending_accept');
    // 9 before: two transactions, BEGIN and COMMIT around the token and the store, then around
    // the store again, the horizon and the page. A token's principal knows its store, the
    // horizon comes with the page's versions, and the documents were read by the poll before.
    expect(recorded.slice(from).map((text) => text.split(' ')[0])).toEqual(['select', 'select']);
    // The next request finds the token kept (token-cache.ts), and the page as it answered it:
    // no queue entry of the store changed since (Repository.queueVersion). No statement at all.
    const next = recorded.length;
    await engine.poll(await engine.authenticate('default', token), 'pending_accept');
    expect(recorded.slice(next)).toEqual([]);
    // An order enters the queue: the page's versions, then the one document not held.
    await engine.intake('default', fixtures.salesOrder('1002', [{ sku: 'SKU-1', qty: 1 }]));
    const after = recorded.length;
    const page = await engine.pollPage(
      await engine.authenticate('default', token),
      'pending_accept',
    );
    expect(recorded.slice(after).map((text) => text.split(' ')[0])).toEqual(['select', 'select']);
    expect(page.documents.at(-1)).toContain('"1002-1"');
  });
});
