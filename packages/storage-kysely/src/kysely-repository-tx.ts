import type {
  AuditEvent,
  ChangedEntry,
  ChangeHorizon,
  ChangesQuery,
  CourierLabel,
  DeadlineEntry,
  DeadlinePollQuery,
  EntryChange,
  FeedChangesQuery,
  FeedEntry,
  FeedEntryWrite,
  FeedName,
  FeedPageQuery,
  FulfillmentOrder,
  NewAuditEvent,
  NewFulfillmentOrder,
  NewToken,
  PageVersions,
  PollQuery,
  QueueCount,
  QueueName,
  RepositoryTx,
  RoutedCount,
  SequenceClaim,
  Store,
  StoreSettings,
  Timestamp,
  TokenRecord,
  Track,
  Warehouse,
} from '@fulfil/core';
import { type Compilable, type Kysely, sql } from 'kysely';
import { BulkStatements } from './bulk-statements.js';
import {
  CHANGE_FEED_SQL,
  type ChangeFeedSql,
  documentOf,
  entryChangesOf,
  entryDocuments,
  horizonOf,
  pollChangedEntries,
  readChangeHorizon,
  TransactionChanges,
} from './change-feed.js';
import * as courierSql from './courier-persistence.js';
import type { Database } from './database.js';
import { pollWithDeadlines } from './deadline-poll.js';
import * as feedSql from './feed-persistence.js';
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
  type VersionsSql,
  versionsSqlOf,
} from './poll-query.js';
import { type ArgumentOf, PreparedQueries } from './prepared-queries.js';
import { decodeAuditEvent, encodeJson } from './row-codec.js';
import { SalesOrderMoves } from './sales-order-persistence.js';
import { claimSequences, knownSalesOrders, nextSequence } from './sequence-claims.js';
import type { SharedReads } from './shared-reads.js';
import { StockQueries } from './stock-queries.js';
import * as storeSql from './store-persistence.js';
import * as tokenSql from './token-persistence.js';
import type { TransactionResources } from './transaction-resources.js';
import * as warehouseSql from './warehouse-persistence.js';

export interface KyselyRepositoryTxOptions {
  /**
   * Take row locks: `FOR UPDATE` on the order header in `lockOrder`/`lockOrderById`, `FOR SHARE`
   * in `findOrder` (no writer can change the order between the reads of its header and of its
   * parts). False where the transaction already excludes every other writer (SQLite) or may not
   * lock (a read-only transaction, which reads one snapshot instead).
   */
  rowLocks: boolean;
  /**
   * The transaction excludes every other writer from its start to its commit (a SQLite write
   * transaction): `RepositoryTx.writersExcluded`. False when absent.
   */
  writersExcluded?: boolean;
  /** The dialect defers writes (`DriverProfile.deferredWrites`). Default false. */
  deferredWrites?: boolean;
  /** The repository's prepared queries, compiled once for all its transactions. */
  prepared?: PreparedQueries;
  /** The repository's compiled multi-row statements, kept across its transactions. */
  bulkStatements?: BulkStatements;
  /** The change feed's SQL (change-feed.ts); the SQLite statements when absent. */
  changeFeed?: ChangeFeedSql;
  /**
   * Where the page versions of a poll are read when given: outside any transaction, shared with
   * the requests that ask for the same read at once (shared-reads.ts). Only for a transaction in
   * `autocommit` mode.
   */
  sharedReads?: SharedReads;
  /** The profile's one read of an order's parts (`DriverProfile.orderPartsSql`), if it has one. */
  orderPartsSql?: string;
  /** The change id of an order's locking read (`DriverProfile.lockedOrderChange`). */
  lockedOrderChange?: { id: string };
}

/**
 * The repository's operations inside one transaction, over kysely's transaction object: stores,
 * stock, tokens, fulfillment orders, polling, feeds, sequences, courier labels and the audit
 * here; sales orders, returns and the operator's side in the classes it extends. All SQL of both
 * adapters lives in these and the modules they import; the only dialect difference they know is
 * whether `FOR UPDATE` exists.
 */
export class KyselyRepositoryTx extends StockQueries implements RepositoryTx {
  readonly #db: Kysely<Database>;
  readonly #rowLocks: boolean;
  readonly #deferredWrites: boolean;
  readonly #bulk: BulkStatements;
  /**
   * The orders this transaction has read or written, as they now stand in it: `saveOrder`
   * writes only what differs from them, without reading them again.
   */
  readonly #held = new Map<number, FulfillmentOrder>();
  /** The orders this transaction inserted: their sales orders may have no record yet. */
  readonly #inserted = new Set<number>();
  readonly #prepared: PreparedQueries;
  readonly #changeFeed: ChangeFeedSql;
  readonly #sharedReads: SharedReads | undefined;
  readonly #versionsSql: VersionsSql;
  readonly #orderPartsSql: string | undefined;
  readonly #lockedOrderChange: { id: string } | undefined;
  /** The change this transaction writes, and the stores it changes (docs/polling.md). */
  readonly changes: TransactionChanges;
  readonly writersExcluded: boolean;
  /** The sales orders it moves in their feed, written when its work is done (`finish`). */
  readonly #moves: SalesOrderMoves;

  constructor(db: Kysely<Database>, options: KyselyRepositoryTxOptions) {
    const changeFeed = options.changeFeed ?? {
      changeIdSql: CHANGE_FEED_SQL.sqliteChangeId,
      changeHorizonSql: CHANGE_FEED_SQL.sqliteHorizon,
      jsonArrayAggregate: CHANGE_FEED_SQL.sqliteJsonArrayAggregate,
    };
    const resources: TransactionResources = {
      rowLocks: options.rowLocks,
      deferredWrites: options.deferredWrites === true,
      prepared: options.prepared ?? new PreparedQueries(),
      bulk: options.bulkStatements ?? new BulkStatements(),
      changes: new TransactionChanges(db, changeFeed),
      moves: new SalesOrderMoves(options.deferredWrites === true),
    };
    super(db, resources);
    this.#db = db;
    this.#rowLocks = resources.rowLocks;
    this.writersExcluded = options.writersExcluded === true;
    this.#deferredWrites = resources.deferredWrites;
    this.#prepared = resources.prepared;
    this.#bulk = resources.bulk;
    this.#changeFeed = changeFeed;
    this.#sharedReads = options.sharedReads;
    this.#orderPartsSql = options.orderPartsSql;
    this.#lockedOrderChange = options.lockedOrderChange;
    this.#versionsSql = versionsSqlOf(changeFeed);
    this.changes = resources.changes;
    this.#moves = resources.moves;
  }

  // ── stores ───────────────────────────────────────────────────────────────────────────────

  findStore(code: string): Promise<Store | null> {
    return storeSql.findStore(this.#db, this.#prepared, code);
  }

  findStoreById(id: number): Promise<Store | null> {
    return storeSql.findStoreById(this.#db, id);
  }

  upsertStore(code: string, settings: StoreSettings): Promise<Store> {
    return storeSql.upsertStore(this.#db, code, settings);
  }

  listStores(): Promise<Store[]> {
    return storeSql.listStores(this.#db);
  }

  // ── warehouses ───────────────────────────────────────────────────────────────────────────

  listWarehouses(storeId: number, codes?: readonly string[] | null): Promise<Warehouse[]> {
    return warehouseSql.listWarehouses(this.#db, this.#prepared, storeId, codes);
  }

  upsertWarehouse(warehouse: Warehouse): Promise<Warehouse> {
    return warehouseSql.upsertWarehouse(this.#db, warehouse);
  }

  routedOn(
    storeId: number,
    keys: readonly { warehouse_code: string; day: string }[],
  ): Promise<number[]> {
    return warehouseSql.routedOn(this.#db, storeId, keys);
  }

  countRouted(storeId: number, key: RoutedCount): Promise<number | null> {
    return warehouseSql.countRouted(this.#db, storeId, key);
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
    // A lock to write takes the transaction's change id with it: one round trip less.
    const change = locking === 'update' ? this.#lockedOrderChange : undefined;
    const select = (db: Kysely<Database>) =>
      db
        .selectFrom('fulfillment_orders')
        .selectAll()
        .$if(change !== undefined, (qb) =>
          qb.select(sql.raw<string>(change?.id ?? '').as('fulfil_change_id')),
        )
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
    const changeId = (header as { fulfil_change_id?: string | number }).fulfil_change_id;
    if (changeId !== undefined) this.changes.adopt(Number(header.store_id), Number(changeId));
    const [order] = await loadOrders(this.#db, [header], this.#prepared, this.#orderPartsSql);
    if (!order) return null;
    this.#held.set(order.id, order);
    return order;
  }

  async insertOrder(order: NewFulfillmentOrder): Promise<FulfillmentOrder> {
    const changeId = await this.changes.idFor([order.store_id]);
    const [stored] = await insertOrders(this.#db, this.#bulk, [order], changeId);
    if (stored) this.#inserted.add(stored.id);
    this.#moves.moveOf(order);
    return stored as FulfillmentOrder;
  }

  async insertOrders(orders: readonly NewFulfillmentOrder[]): Promise<FulfillmentOrder[]> {
    if (orders.length === 0) return [];
    const changeId = await this.changes.idFor(orders.map((order) => order.store_id));
    const stored = await insertOrders(this.#db, this.#bulk, orders, changeId);
    for (const order of stored) {
      this.#held.set(order.id, order);
      this.#inserted.add(order.id);
      this.#moves.moveOf(order);
    }
    return stored;
  }

  async saveOrder(order: FulfillmentOrder): Promise<FulfillmentOrder> {
    const before = this.#held.get(order.id);
    // A bug upstream (saveOrder is only for orders read in this transaction), not a 404.
    if (!before) throw new Error(`fulfil: order ${order.id} was not read in this transaction`);
    const changeId = await this.changes.idFor([order.store_id]);
    const saved = await saveOrder(
      this.#db,
      this.#bulk,
      order,
      before,
      changeId,
      this.#prepared,
      this.#deferredWrites,
    );
    this.#held.set(saved.order.id, saved.order);
    if (saved.shown) this.#moves.moveOf(saved.order, !this.#inserted.has(order.id));
    return saved.order;
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
    if (updated) {
      const order =
        held ??
        (await this.#db
          .selectFrom('fulfillment_orders')
          .select(['store_id', 'sales_order_number', 'sales_order_id', 'created_at', 'updated_at'])
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow());
      this.#moves.moveOf(order);
    }
    return updated;
  }

  async pollQueue(query: PollQuery): Promise<FulfillmentOrder[]> {
    if (query.warehouses && query.warehouses.length === 0) return [];
    const rows = await this.#poll('ids', query, (db, argument) =>
      pollQueueIds(db, query, this.#versionsSql, argument),
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
    const rows = await this.#poll('documents', query, (db, argument) =>
      pollQueueDocuments(db, query, this.#versionsSql, argument),
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
    const rows = await this.#poll(
      'versions',
      query,
      (db, argument) => pollQueueVersions(db, query, this.#versionsSql, argument),
      { shared: true },
    );
    const row = rows[0];
    return { horizon: horizonOf(row), entries: entryChangesOf(row?.order_ids, row?.change_ids) };
  }

  /**
   * The rows of a poll statement of `query`'s shape, compiled once per shape (poll-query.ts);
   * with `shared`, read together with the requests that ask for the same read at once, where
   * the transaction was given `sharedReads`.
   */
  async #poll<R>(
    kind: string,
    query: PollQuery,
    build: (db: Kysely<Database>, argument: ArgumentOf) => Compilable<R>,
    { shared = false } = {},
  ): Promise<readonly R[]> {
    const name = `poll ${kind} ${pollShapeOf(query)}`;
    const args = pollArgumentsOf(query);
    if (shared && this.#sharedReads) return this.#sharedReads.read(name, args, build);
    return (await this.#prepared.run(this.#db, name, args, build)).rows;
  }

  entryDocuments(queue: QueueName, entries: readonly EntryChange[]): Promise<ChangedEntry[]> {
    return entryDocuments(this.#db, queue, entries);
  }

  changeHorizon(): Promise<ChangeHorizon> {
    return readChangeHorizon(this.#db, this.#changeFeed);
  }

  pollChanges(query: ChangesQuery): Promise<ChangedEntry[]> {
    return pollChangedEntries(this.#db, query);
  }

  pollWithDeadlines(query: DeadlinePollQuery): Promise<DeadlineEntry[] | null> {
    return pollWithDeadlines(this.#db, query);
  }

  // ── feeds ────────────────────────────────────────────────────────────────────────────────

  pollFeed(query: FeedPageQuery): Promise<FeedEntry[]> {
    return feedSql.pollFeed(this.#db, query);
  }

  pollFeedChanges(query: FeedChangesQuery): Promise<FeedEntry[]> {
    return feedSql.pollFeedChanges(this.#db, query);
  }

  async writeFeedEntries(feed: FeedName, entries: readonly FeedEntryWrite[]): Promise<void> {
    if (entries.length === 0) return;
    const changeId = await this.changes.idFor(entries.map((entry) => entry.store_id));
    await feedSql.writeFeedEntries(this.#db, this.#bulk, feed, entries, changeId);
  }

  removeFeedEntries(feed: FeedName, ids: readonly number[]): Promise<void> {
    return feedSql.removeFeedEntries(this.#db, feed, ids);
  }

  nextFulfillmentSequence(storeId: number, salesOrderNumber: string): Promise<number> {
    return nextSequence(this.#db, storeId, salesOrderNumber);
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

  knownSalesOrders(storeId: number, salesOrderNumbers: readonly string[]): Promise<string[]> {
    return knownSalesOrders(this.#db, this.#prepared, storeId, salesOrderNumbers);
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
        deferrable: true,
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
