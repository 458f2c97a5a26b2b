import {
  type AuditEvent,
  type ChangedEntry,
  type ChangeHorizon,
  type ChangesQuery,
  type CourierLabel,
  compareCodes,
  type FulfillmentOrder,
  type NewAuditEvent,
  type NewFulfillmentOrder,
  type NewToken,
  type PageVersions,
  type PollQuery,
  type QueueCount,
  type QueueName,
  type RepositoryTx,
  type SequenceClaim,
  type StockDelta,
  type StockLevel,
  type StockQuery,
  type Store,
  type StoreSettings,
  type Timestamp,
  type TokenRecord,
  type Track,
  type Warehouse,
} from '@fulfil/core';
import type { Compilable, Kysely } from 'kysely';
import { AdminQueries } from './admin-queries.js';
import { BulkStatements } from './bulk-statements.js';
import {
  CHANGE_FEED_SQL,
  type ChangeFeedSql,
  documentOf,
  entryChangesOf,
  horizonOf,
  pollChangedEntries,
  readChangeHorizon,
  TransactionChanges,
} from './change-feed.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import * as courierSql from './courier-persistence.js';
import type { Database } from './database.js';
import {
  insertOrders,
  loadOrders,
  loadOrdersById,
  saveOrder,
  updateShipmentTracks,
} from './order-persistence.js';
import {
  pollArgumentsOf,
  pollQueueDocuments,
  pollQueueIds,
  pollQueueVersions,
  pollShapeOf,
} from './poll-query.js';
import { type ArgumentOf, PreparedQueries } from './prepared-queries.js';
import {
  decodeAuditEvent,
  decodeStore,
  decodeWarehouse,
  encodeJson,
  encodeWarehouse,
} from './row-codec.js';
import { claimSequences } from './sequence-claims.js';
import * as tokenSql from './token-persistence.js';

export interface KyselyRepositoryTxOptions {
  /**
   * Take row locks: `FOR UPDATE` on the order header in `lockOrder`/`lockOrderById`, `FOR SHARE`
   * in `findOrder` (no writer can change the order between the reads of its header and of its
   * parts). False where the transaction already excludes every other writer (SQLite) or may not
   * lock (a read-only transaction, which reads one snapshot instead).
   */
  rowLocks: boolean;
  /** The repository's prepared queries, compiled once for all its transactions. */
  prepared?: PreparedQueries;
  /** The repository's compiled multi-row statements, kept across its transactions. */
  bulkStatements?: BulkStatements;
  /** The change feed's SQL (change-feed.ts); the SQLite statements when absent. */
  changeFeed?: ChangeFeedSql;
}

function assertQuantity(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`fulfil: ${field} must be an integer, got ${value}`);
  }
  return value;
}

const stockKey = (row: { warehouse_code: string; sku: string }): string =>
  `${row.warehouse_code}\u0000${row.sku}`;

const byWarehouseThenSku = (
  a: { warehouse_code: string; sku: string },
  b: { warehouse_code: string; sku: string },
): number => compareCodes(a.warehouse_code, b.warehouse_code) || compareCodes(a.sku, b.sku);

/**
 * The repository's operations inside one transaction, over kysely's transaction object. All SQL
 * of both adapters lives here and in the modules it imports; the only dialect difference it
 * knows is whether `FOR UPDATE` exists.
 */
export class KyselyRepositoryTx extends AdminQueries implements RepositoryTx {
  readonly #db: Kysely<Database>;
  readonly #rowLocks: boolean;
  readonly #bulk: BulkStatements;
  /**
   * The orders this transaction has read or written, as they now stand in it: `saveOrder`
   * writes only what differs from them, without reading them again.
   */
  readonly #held = new Map<number, FulfillmentOrder>();
  readonly #prepared: PreparedQueries;
  readonly #changeFeed: ChangeFeedSql;
  /** The change this transaction writes, and the stores it changes (docs/polling.md). */
  readonly changes: TransactionChanges;

  constructor(db: Kysely<Database>, options: KyselyRepositoryTxOptions) {
    super(db);
    this.#db = db;
    this.#rowLocks = options.rowLocks;
    this.#prepared = options.prepared ?? new PreparedQueries();
    this.#bulk = options.bulkStatements ?? new BulkStatements();
    this.#changeFeed = options.changeFeed ?? {
      changeIdSql: CHANGE_FEED_SQL.sqliteChangeId,
      changeHorizonSql: CHANGE_FEED_SQL.sqliteHorizon,
      jsonArrayAggregate: CHANGE_FEED_SQL.sqliteJsonArrayAggregate,
    };
    this.changes = new TransactionChanges(db, this.#changeFeed);
  }

  // ── stores ───────────────────────────────────────────────────────────────────────────────

  async findStore(code: string): Promise<Store | null> {
    const { rows } = await this.#prepared.run(this.#db, 'store by code', [code], (db, argument) =>
      db.selectFrom('stores').selectAll().where('code', '=', argument<string>(0)),
    );
    return rows[0] ? decodeStore(rows[0]) : null;
  }

  async findStoreById(id: number): Promise<Store | null> {
    const row = await this.#db
      .selectFrom('stores')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? decodeStore(row) : null;
  }

  async upsertStore(code: string, settings: StoreSettings): Promise<Store> {
    const row = await this.#db
      .insertInto('stores')
      .values({ code, settings: encodeJson(settings) })
      .onConflict((oc) =>
        oc.column('code').doUpdateSet((eb) => ({ settings: eb.ref('excluded.settings') })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return decodeStore(row);
  }

  async listStores(): Promise<Store[]> {
    const rows = await this.#db.selectFrom('stores').selectAll().orderBy('code').execute();
    return rows.map(decodeStore);
  }

  // ── warehouses ───────────────────────────────────────────────────────────────────────────

  async listWarehouses(storeId: number, codes?: readonly string[] | null): Promise<Warehouse[]> {
    if (codes && codes.length === 0) return [];
    const rows = await this.#db
      .selectFrom('warehouses')
      .selectAll()
      .where('store_id', '=', storeId)
      .$if(codes != null, (qb) => qb.where('code', 'in', codes ?? []))
      .orderBy('code')
      .execute();
    return rows.map(decodeWarehouse);
  }

  async upsertWarehouse(warehouse: Warehouse): Promise<Warehouse> {
    const row = await this.#db
      .insertInto('warehouses')
      .values(encodeWarehouse(warehouse))
      .onConflict((oc) =>
        oc.columns(['store_id', 'code']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          active: eb.ref('excluded.active'),
          fulfilled_by: eb.ref('excluded.fulfilled_by'),
          priority: eb.ref('excluded.priority'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return decodeWarehouse(row);
  }

  // ── stock ────────────────────────────────────────────────────────────────────────────────

  async setOnHand(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number }[],
  ): Promise<void> {
    await this.#insertStock(storeId, entries, 'set on hand');
  }

  async addMissingStock(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number }[],
  ): Promise<number> {
    return this.#insertStock(storeId, entries, 'keep');
  }

  /** Inserts stock rows; an existing row gets the entry's on hand, or is kept as it is. */
  async #insertStock(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number }[],
    onExisting: 'set on hand' | 'keep',
  ): Promise<number> {
    // One row per key (the last entry wins): an upsert may not touch a row twice.
    const rows = new Map<string, { warehouse_code: string; sku: string; qty: number }>();
    for (const entry of entries) rows.set(stockKey(entry), entry);
    const sorted = [...rows.values()].sort(byWarehouseThenSku);
    let written = 0;
    for (const slice of chunk(sorted)) {
      const results = await this.#db
        .insertInto('stock')
        .values(
          slice.map((entry) => ({
            store_id: storeId,
            warehouse_code: entry.warehouse_code,
            sku: entry.sku,
            on_hand: assertQuantity(entry.qty, 'qty'),
            reserved: 0,
          })),
        )
        .onConflict((oc) => {
          const conflict = oc.columns(['store_id', 'warehouse_code', 'sku']);
          return onExisting === 'keep'
            ? conflict.doNothing()
            : conflict.doUpdateSet((eb) => ({ on_hand: eb.ref('excluded.on_hand') }));
        })
        .execute();
      for (const result of results) written += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return written;
  }

  async adjustStock(storeId: number, deltas: readonly StockDelta[]): Promise<void> {
    // Summed per key (an upsert may not touch a row twice) and sorted, so that two concurrent
    // transactions lock rows in the same order and cannot deadlock on each other.
    const sums = new Map<string, StockDelta>();
    for (const delta of deltas) {
      const key = stockKey(delta);
      const sum = sums.get(key);
      sums.set(key, {
        warehouse_code: delta.warehouse_code,
        sku: delta.sku,
        on_hand: (sum?.on_hand ?? 0) + assertQuantity(delta.on_hand, 'on_hand'),
        reserved: (sum?.reserved ?? 0) + assertQuantity(delta.reserved, 'reserved'),
      });
    }
    const rows = [...sums.values()]
      .sort(byWarehouseThenSku)
      .map((delta) => ({ store_id: storeId, ...delta }));
    await this.#bulk.run(
      this.#db,
      {
        name: 'add to stock',
        table: 'stock',
        columns: ['store_id', 'warehouse_code', 'sku', 'on_hand', 'reserved'],
        finish: (insert) =>
          insert.onConflict((oc) =>
            oc.columns(['store_id', 'warehouse_code', 'sku']).doUpdateSet((eb) => ({
              on_hand: eb('stock.on_hand', '+', eb.ref('excluded.on_hand')),
              reserved: eb('stock.reserved', '+', eb.ref('excluded.reserved')),
            })),
          ),
      },
      rows,
    );
  }

  async listStock(query: StockQuery): Promise<StockLevel[]> {
    if (query.warehouses && query.warehouses.length === 0) return [];
    if (query.skus && query.skus.length === 0) return [];
    const levels: StockLevel[] = [];
    // `undefined` stands for "every sku": one query; a list is read a slice at a time.
    const slices: (readonly string[] | undefined)[] = query.skus
      ? chunk([...new Set(query.skus)], IN_LIST_SIZE)
      : [undefined];
    for (const skus of slices) {
      const rows = await this.#db
        .selectFrom('stock')
        .select(['warehouse_code', 'sku', 'on_hand', 'reserved'])
        .where('store_id', '=', query.store_id)
        .$if(query.warehouses !== null, (qb) =>
          qb.where('warehouse_code', 'in', query.warehouses ?? []),
        )
        .$if(query.sku !== undefined, (qb) => qb.where('sku', '=', query.sku ?? ''))
        .$if(skus !== undefined, (qb) => qb.where('sku', 'in', skus ?? []))
        .orderBy('warehouse_code')
        .orderBy('sku')
        .execute();
      for (const row of rows) {
        levels.push({
          warehouse_code: row.warehouse_code,
          sku: row.sku,
          on_hand: Number(row.on_hand),
          reserved: Number(row.reserved),
        });
      }
    }
    return slices.length > 1 ? levels.sort(byWarehouseThenSku) : levels;
  }

  // ── tokens ───────────────────────────────────────────────────────────────────────────────

  insertToken(token: NewToken): Promise<TokenRecord> {
    this.changes.tokens = true;
    return tokenSql.insertToken(this.#db, token);
  }

  findTokenByHash(hash: string): Promise<TokenRecord | null> {
    return tokenSql.findTokenByHash(this.#db, this.#prepared, hash);
  }

  findStoreToken(hash: string, storeCode: string): Promise<TokenRecord | null> {
    return tokenSql.findStoreToken(this.#db, this.#prepared, hash, storeCode);
  }

  listTokens(storeId: number): Promise<TokenRecord[]> {
    return tokenSql.listTokens(this.#db, storeId);
  }

  revokeToken(storeId: number, name: string, at: Timestamp): Promise<boolean> {
    this.changes.tokens = true;
    return tokenSql.revokeToken(this.#db, storeId, name, at);
  }

  override retireToken(
    storeId: number,
    name: string,
    newName: string,
    expiresAt: Timestamp,
  ): Promise<boolean> {
    this.changes.tokens = true;
    return super.retireToken(storeId, name, newName, expiresAt);
  }

  // ── fulfillment orders ───────────────────────────────────────────────────────────────────

  lockOrder(storeId: number, number: string): Promise<FulfillmentOrder | null> {
    return this.#readOrder({ storeId, number }, 'update');
  }

  lockOrderById(id: number): Promise<FulfillmentOrder | null> {
    return this.#readOrder({ id }, 'update');
  }

  findOrder(storeId: number, number: string): Promise<FulfillmentOrder | null> {
    return this.#readOrder({ storeId, number }, 'share');
  }

  /** One order with all its parts; with row locks, its header row stays locked until the end. */
  async #readOrder(
    key: { id: number } | { storeId: number; number: string },
    lock: 'update' | 'share',
  ): Promise<FulfillmentOrder | null> {
    const locking = this.#rowLocks ? lock : 'none';
    const select = (db: Kysely<Database>) =>
      db
        .selectFrom('fulfillment_orders')
        .selectAll()
        .$if(locking === 'update', (qb) => qb.forUpdate())
        .$if(locking === 'share', (qb) => qb.forShare());
    const { rows } = await ('id' in key
      ? this.#prepared.run(this.#db, `order by id, lock ${locking}`, [key.id], (db, argument) =>
          select(db).where('id', '=', argument<number>(0)),
        )
      : this.#prepared.run(
          this.#db,
          `order by number, lock ${locking}`,
          [key.storeId, key.number],
          (db, argument) =>
            select(db)
              .where('store_id', '=', argument<number>(0))
              .where('fulfillment_order_number', '=', argument<string>(1)),
        ));
    const header = rows[0];
    if (!header) return null;
    const [order] = await loadOrders(this.#db, [header], this.#prepared);
    if (!order) return null;
    this.#held.set(order.id, order);
    return order;
  }

  async insertOrder(order: NewFulfillmentOrder): Promise<FulfillmentOrder> {
    const changeId = await this.changes.idFor([order.store_id]);
    const [stored] = await insertOrders(this.#db, this.#bulk, [order], changeId);
    return stored as FulfillmentOrder;
  }

  async insertOrders(orders: readonly NewFulfillmentOrder[]): Promise<FulfillmentOrder[]> {
    if (orders.length === 0) return [];
    const changeId = await this.changes.idFor(orders.map((order) => order.store_id));
    const stored = await insertOrders(this.#db, this.#bulk, orders, changeId);
    for (const order of stored) this.#held.set(order.id, order);
    return stored;
  }

  async saveOrder(order: FulfillmentOrder): Promise<FulfillmentOrder> {
    const before = this.#held.get(order.id);
    // A bug upstream (saveOrder is only for orders read in this transaction), not a 404.
    if (!before) throw new Error(`fulfil: order ${order.id} was not read in this transaction`);
    const changeId = await this.changes.idFor([order.store_id]);
    const stored = await saveOrder(this.#db, this.#bulk, order, before, changeId, this.#prepared);
    this.#held.set(stored.id, stored);
    return stored;
  }

  async updateShipmentTracks(
    orderId: number,
    shipmentId: number,
    tracks: readonly Track[],
  ): Promise<boolean> {
    const updated = await updateShipmentTracks(this.#db, orderId, shipmentId, tracks);
    // The order as held for saveOrder must show the tracks as stored now.
    const held = this.#held.get(orderId);
    if (updated && held) {
      const shipments = held.shipments.map((shipment) =>
        shipment.id === shipmentId ? { ...shipment, tracks: [...tracks] } : shipment,
      );
      this.#held.set(orderId, { ...held, shipments });
    }
    return updated;
  }

  async pollQueue(query: PollQuery): Promise<FulfillmentOrder[]> {
    if (query.warehouses && query.warehouses.length === 0) return [];
    const { rows } = await this.#poll('ids', query, (db, argument) =>
      pollQueueIds(db, query, argument),
    );
    return loadOrdersById(
      this.#db,
      rows.map((row) => Number(row.order_id)),
    );
  }

  async pollDocuments(query: PollQuery): Promise<string[]> {
    return (await this.pollEntries(query)).map((entry) => entry.document);
  }

  async pollEntries(query: PollQuery): Promise<ChangedEntry[]> {
    if (query.warehouses && query.warehouses.length === 0) return [];
    const { rows } = await this.#poll('documents', query, (db, argument) =>
      pollQueueDocuments(db, query, argument),
    );
    return rows.map((row) => ({
      change: Number(row.change_id),
      order_id: Number(row.order_id),
      document: documentOf(row),
    }));
  }

  async pollVersions(query: PollQuery): Promise<PageVersions> {
    if (query.warehouses && query.warehouses.length === 0) {
      return { horizon: await this.changeHorizon(), entries: [] };
    }
    const sqlOf = {
      horizonSql: this.#changeFeed.changeHorizonSql,
      aggregate: this.#changeFeed.jsonArrayAggregate,
    };
    const { rows } = await this.#poll('versions', query, (db, argument) =>
      pollQueueVersions(db, query, sqlOf, argument),
    );
    const row = rows[0];
    return { horizon: horizonOf(row), entries: entryChangesOf(row?.order_ids, row?.change_ids) };
  }

  /** A poll statement of `query`'s shape, compiled once per shape (poll-query.ts). */
  #poll<R>(
    kind: string,
    query: PollQuery,
    build: (db: Kysely<Database>, argument: ArgumentOf) => Compilable<R>,
  ) {
    const name = `poll ${kind} ${pollShapeOf(query)}`;
    return this.#prepared.run(this.#db, name, pollArgumentsOf(query), build);
  }

  changeHorizon(): Promise<ChangeHorizon> {
    return readChangeHorizon(this.#db, this.#changeFeed);
  }

  pollChanges(query: ChangesQuery): Promise<ChangedEntry[]> {
    return pollChangedEntries(this.#db, query);
  }

  async nextFulfillmentSequence(storeId: number, salesOrderNumber: string): Promise<number> {
    const row = await this.#db
      .insertInto('sales_order_sequences')
      .values({ store_id: storeId, sales_order_number: salesOrderNumber, last_sequence: 1 })
      .onConflict((oc) =>
        oc.columns(['store_id', 'sales_order_number']).doUpdateSet((eb) => ({
          last_sequence: eb('sales_order_sequences.last_sequence', '+', 1),
        })),
      )
      .returning('last_sequence')
      .executeTakeFirstOrThrow();
    return Number(row.last_sequence);
  }

  async claimFulfillmentSequences(
    storeId: number,
    claims: readonly SequenceClaim[],
  ): Promise<number[]> {
    return claimSequences(this.#db, this.#bulk, storeId, claims);
  }

  async countQueues(): Promise<QueueCount[]> {
    // Read from the polling index alone: (store_id, queue) is its prefix.
    const rows = await this.#db
      .selectFrom('queue_entries')
      .select(['store_id', 'queue', (eb) => eb.fn.countAll<number | string>().as('orders')])
      .groupBy(['store_id', 'queue'])
      .execute();
    // Abandoned orders stay in failed: told apart by their failure, written by encodeJson, where
    // `"abandoned":true` can only be the field (a quote inside a string value is escaped).
    const abandoned = await this.#db
      .selectFrom('queue_entries as q')
      .innerJoin('fulfillment_orders as o', 'o.id', 'q.order_id')
      .select(['q.store_id', (eb) => eb.fn.countAll<number | string>().as('orders')])
      .where('q.queue', '=', 'failed')
      .where('o.failure', 'like', '%"abandoned":true%')
      .groupBy('q.store_id')
      .execute();
    const abandonedIn = new Map(abandoned.map((row) => [Number(row.store_id), Number(row.orders)]));
    return rows.map((row) => {
      const count: QueueCount = {
        store_id: Number(row.store_id),
        queue: row.queue as QueueName,
        orders: Number(row.orders),
      };
      const given = count.queue === 'failed' ? abandonedIn.get(count.store_id) : undefined;
      if (given !== undefined) count.abandoned = given;
      return count;
    });
  }

  async knownSalesOrders(storeId: number, salesOrderNumbers: readonly string[]): Promise<string[]> {
    const known: string[] = [];
    for (const slice of chunk([...new Set(salesOrderNumbers)], IN_LIST_SIZE)) {
      const rows = await this.#db
        .selectFrom('sales_order_sequences')
        .select('sales_order_number')
        .where('store_id', '=', storeId)
        .where('sales_order_number', 'in', slice)
        .execute();
      for (const row of rows) known.push(row.sales_order_number);
    }
    return known;
  }

  listCourierDue(now: Timestamp, limit: number): Promise<number[]> {
    return courierSql.listCourierDue(this.#db, now, limit);
  }

  // ── courier labels ───────────────────────────────────────────────────────────────────────

  listLabels(orderId: number): Promise<CourierLabel[]> {
    return courierSql.listLabels(this.#db, orderId);
  }
  saveLabels(labels: readonly CourierLabel[]): Promise<CourierLabel[]> {
    return courierSql.saveLabels(this.#db, labels);
  }
  deleteLabels(orderId: number, ids: readonly number[]): Promise<void> {
    return courierSql.deleteLabels(this.#db, orderId, ids);
  }
  listLabelVoidsDue(now: Timestamp, limit: number): Promise<number[]> {
    return courierSql.listLabelVoidsDue(this.#db, now, limit);
  }

  // ── audit ────────────────────────────────────────────────────────────────────────────────

  async appendAudit(events: readonly NewAuditEvent[]): Promise<void> {
    // A batch's events (one per order taken in) in as few statements as the orders themselves.
    await this.#bulk.run(
      this.#db,
      {
        name: 'insert audit_events',
        table: 'audit_events',
        columns: ['order_id', 'at', 'actor', 'action', 'details', 'request_id', 'reason'],
        finish: (insert) => insert,
      },
      events.map((event) => ({
        order_id: event.order_id,
        at: event.at,
        actor: event.actor,
        action: event.action,
        details: encodeJson(event.details),
        request_id: event.request_id ?? null,
        reason: event.reason ?? null,
      })),
    );
  }

  async listAudit(orderId: number): Promise<AuditEvent[]> {
    const rows = await this.#db
      .selectFrom('audit_events')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    return rows.map(decodeAuditEvent);
  }
}
