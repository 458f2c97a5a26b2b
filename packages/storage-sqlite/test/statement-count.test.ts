import { createEngine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { KyselyRepository } from '@fulfil/storage-kysely';
import {
  ColumnNode,
  InsertQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRepository, type SqliteRepository } from '../src/index.js';

/** Counts the statements run through it, by kind, untouched. */
class StatementCounter implements KyselyPlugin {
  statements: string[] = [];
  nodes: RootOperationNode[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(args.node.kind);
    this.nodes.push(args.node);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * How many SQL statements an action costs, BEGIN and COMMIT aside. Each one is a round trip on
 * Postgres and a kysely compile everywhere: the numbers may only go down.
 */
describe('statements per action', () => {
  let base: SqliteRepository;
  let counter: StatementCounter;
  let engine: ReturnType<typeof createEngine>;

  beforeEach(async () => {
    base = await openSqliteRepository(':memory:');
    counter = new StatementCounter();
    const repository = new KyselyRepository({
      db: base.db.withPlugin(counter),
      profile: {
        transactionSettings: (mode) => ({
          accessMode: mode === 'read' ? 'read only' : 'read write',
        }),
        rowLocks: false,
        isRetryable: () => false,
        isUnavailable: () => false,
        maxAttempts: 1,
        retryBaseDelayMs: 0,
      },
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

  afterEach(() => base.close());

  async function count(work: () => Promise<unknown>): Promise<string[]> {
    counter.statements = [];
    counter.nodes = [];
    await work();
    return counter.statements;
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
        .execute(base.db)
        .then((result) => result.rows);
    const [before] = await entryOf();
    await acceptWhole('1001-1');
    expect(await entryOf()).toEqual([{ rowid: before?.rowid, queue: 'pending_allocation' }]);
  });

  it('an accept sets only the item columns that changed, leaving the index on position alone', async () => {
    await count(() => acceptWhole('1001-1'));
    const upserts = counter.nodes.filter(
      (node) => InsertQueryNode.is(node) && node.into?.table.identifier.name === 'order_items',
    ) as InsertQueryNode[];
    expect(upserts).toHaveLength(1);
    const updated = upserts[0]?.onConflict?.updates?.map((update) =>
      ColumnNode.is(update.column) ? update.column.column.name : '?',
    );
    expect(updated).toEqual(['status']);
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
    // 12 before writes compared with what the transaction had read, 11 before the queue entry
    // moved in place: the store; the order, its items, shipments, invoices (locked); the header;
    // both items in one upsert; the queue entry rewritten from the queue it left to the one it
    // entered, with its document; the stock; the audit event.
    expect(statements).toEqual([
      'SelectQueryNode',
      'SelectQueryNode',
      'SelectQueryNode',
      'SelectQueryNode',
      'SelectQueryNode',
      'UpdateQueryNode',
      'InsertQueryNode',
      'UpdateQueryNode',
      'InsertQueryNode',
      'InsertQueryNode',
    ]);
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
    // 13 before. Now: the store; the order and its parts; the header; the one shipped line; the
    // shipment; the two queues that list it now, one upsert (it left none); the stock; the audit.
    expect(statements).toHaveLength(11);
    expect(statements).not.toContain('DeleteQueryNode');
  });

  it('a poll of a page', async () => {
    const statements = await count(() => engine.poll(engine.operator('default'), 'pending_accept'));
    // The store, then the page of documents.
    expect(statements).toEqual(['SelectQueryNode', 'SelectQueryNode']);
  });
});
