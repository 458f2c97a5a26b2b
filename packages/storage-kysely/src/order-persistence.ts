import {
  appendAll,
  type FulfillmentOrder,
  type Invoice,
  type Item,
  type Shipment,
  type Track,
} from '@fulfil/core';
import { type Compilable, CompiledQuery, type Kysely, type Selectable } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type {
  Database,
  FulfillmentOrderTable,
  InvoiceTable,
  OrderItemTable,
  ShipmentTable,
} from './database.js';
import { PreparedQueries } from './prepared-queries.js';
import { insertQueueEntries, writeQueueEntries } from './queue-entry-writes.js';
import {
  decodeInvoice,
  decodeItem,
  decodeOrder,
  decodeShipment,
  encodeInvoice,
  encodeItem,
  encodeJson,
  encodeOrderHeader,
  encodeShipment,
} from './row-codec.js';

/**
 * Reading and writing whole orders: the header row plus its items, shipments and invoices, and
 * the `queue_entries` that list it (queue-entry-writes.ts). Every function runs on the caller's
 * transaction.
 */

type Db = Kysely<Database>;
type OrderRow = Selectable<FulfillmentOrderTable>;

function groupByOrder<R extends { order_id: number }, T>(
  rows: readonly R[],
  decode: (row: R) => T,
): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const orderId = Number(row.order_id);
    let group = groups.get(orderId);
    if (!group) {
      group = [];
      groups.set(orderId, group);
    }
    group.push(decode(row));
  }
  return groups;
}

const itemRowsOf = (db: Db, ids: readonly number[]) =>
  db
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('position');

const shipmentRowsOf = (db: Db, ids: readonly number[]) =>
  db
    .selectFrom('shipments')
    .selectAll()
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('id');

const invoiceRowsOf = (db: Db, ids: readonly number[]) =>
  db
    .selectFrom('invoices')
    .selectAll()
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('id');

/** The rows `query` reads for these orders; one order's (an action's) through a prepared query. */
async function partRows<R>(
  db: Db,
  prepared: PreparedQueries,
  name: string,
  ids: readonly number[],
  query: (db: Db, ids: readonly number[]) => Compilable<R>,
): Promise<R[]> {
  const result =
    ids.length === 1
      ? await prepared.run(db, name, ids, (trx, argument) => query(trx, [argument<number>(0)]))
      : await db.executeQuery(query(db, ids));
  return result.rows;
}

/** A JSON array of whole rows as the driver gives it: parsed (Postgres `json`), or null for none. */
function rowsOf<R>(value: unknown): R[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as R[];
}

/** One order's parts through the profile's `orderPartsSql`: one statement instead of three. */
async function loadOrderInOneRead(
  db: Db,
  header: OrderRow,
  prepared: PreparedQueries,
  partsSql: string,
): Promise<FulfillmentOrder> {
  const { rows } = await prepared.run<OrderParts>(
    db,
    'parts of an order',
    [Number(header.id)],
    (_, argument) => ({
      compile: () =>
        CompiledQuery.raw(partsSql, [argument<number>(0)]) as CompiledQuery<OrderParts>,
    }),
  );
  const parts = rows[0];
  return decodeOrder(
    header,
    rowsOf<Selectable<OrderItemTable>>(parts?.items).map(decodeItem),
    rowsOf<Selectable<ShipmentTable>>(parts?.shipments).map(decodeShipment),
    rowsOf<Selectable<InvoiceTable>>(parts?.invoices).map(decodeInvoice),
  );
}

interface OrderParts {
  items: unknown;
  shipments: unknown;
  invoices: unknown;
}

/**
 * Completes header rows into orders with three more queries in all (items, shipments,
 * invoices), however many orders: never one query per order; one order, with `partsSql`, in
 * one. Keeps the order of `headers`.
 */
export async function loadOrders(
  db: Db,
  headers: readonly OrderRow[],
  prepared = new PreparedQueries(),
  partsSql?: string,
): Promise<FulfillmentOrder[]> {
  if (headers.length === 0) return [];
  const [only] = headers;
  if (headers.length === 1 && only && partsSql)
    return [await loadOrderInOneRead(db, only, prepared, partsSql)];
  const itemRows: Selectable<OrderItemTable>[] = [];
  const shipmentRows: Selectable<ShipmentTable>[] = [];
  const invoiceRows: Selectable<InvoiceTable>[] = [];
  for (const ids of chunk(
    headers.map((header) => Number(header.id)),
    IN_LIST_SIZE,
  )) {
    appendAll(itemRows, await partRows(db, prepared, 'items of an order', ids, itemRowsOf));
    appendAll(
      shipmentRows,
      await partRows(db, prepared, 'shipments of an order', ids, shipmentRowsOf),
    );
    appendAll(
      invoiceRows,
      await partRows(db, prepared, 'invoices of an order', ids, invoiceRowsOf),
    );
  }
  const items = groupByOrder(itemRows, decodeItem);
  const shipments = groupByOrder(shipmentRows, decodeShipment);
  const invoices = groupByOrder(invoiceRows, decodeInvoice);
  return headers.map((header) => {
    const id = Number(header.id);
    return decodeOrder(
      header,
      items.get(id) ?? [],
      shipments.get(id) ?? [],
      invoices.get(id) ?? [],
    );
  });
}

/** Loads the orders with these ids, in the order of `ids`; ids without an order are skipped. */
export async function loadOrdersById(db: Db, ids: readonly number[]): Promise<FulfillmentOrder[]> {
  if (ids.length === 0) return [];
  const headers: OrderRow[] = [];
  for (const slice of chunk(ids, IN_LIST_SIZE)) {
    headers.push(
      ...(await db.selectFrom('fulfillment_orders').selectAll().where('id', 'in', slice).execute()),
    );
  }
  const byId = new Map(headers.map((header) => [Number(header.id), header]));
  const ordered = ids.flatMap((id) => {
    const header = byId.get(id);
    return header ? [header] : [];
  });
  return loadOrders(db, ordered);
}

type ItemRow = ReturnType<typeof encodeItem>;
type ItemColumn = keyof ItemRow;

/** A new item line of an order, at its index in `FulfillmentOrder.items`. */
interface NewLine {
  orderId: number;
  position: number;
  item: Item;
}

const lineKey = (orderId: number, position: number) => `${orderId}:${position}`;

/** Inserts new item lines of any orders; returns their ids by {@link lineKey}. */
async function insertItems(
  db: Db,
  bulk: BulkStatements,
  lines: readonly NewLine[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const rows = lines.map(({ orderId, position, item }) => encodeItem(orderId, position, item));
  const first = rows[0];
  if (!first) return ids;
  const inserted = await bulk.run(
    db,
    {
      name: 'insert order_items',
      table: 'order_items',
      columns: Object.keys(first) as (keyof typeof first)[],
      finish: (insert) => insert.returning(['id', 'order_id', 'position']),
    },
    rows,
  );
  for (const row of inserted) {
    ids.set(lineKey(Number(row.order_id), Number(row.position)), Number(row.id));
  }
  return ids;
}

async function insertShipment(db: Db, orderId: number, shipment: Shipment): Promise<Shipment> {
  const row = await db
    .insertInto('shipments')
    .values(encodeShipment(orderId, shipment))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...shipment, id: Number(row.id) };
}

/** Replaces one shipment's tracks; false when the order has no shipment with that id. */
export async function updateShipmentTracks(
  db: Db,
  orderId: number,
  shipmentId: number,
  tracks: readonly Track[],
): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('shipments')
    .set({ tracks: encodeJson(tracks) })
    .where('id', '=', shipmentId)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

async function insertInvoice(db: Db, orderId: number, invoice: Invoice): Promise<Invoice> {
  const row = await db
    .insertInto('invoices')
    .values(encodeInvoice(orderId, invoice))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...invoice, id: Number(row.id) };
}

/**
 * Inserts new orders with all their parts (whatever their ids say: all are new), a few
 * multi-row statements for the lot; returns them with ids, in the order given.
 */
export async function insertOrders(
  db: Db,
  bulk: BulkStatements,
  orders: readonly FulfillmentOrder[],
  changeId: number,
): Promise<FulfillmentOrder[]> {
  const headerIds = new Map<string, number>();
  const headers = orders.map(encodeOrderHeader);
  const first = headers[0];
  if (!first) return [];
  const rows = await bulk.run(
    db,
    {
      name: 'insert fulfillment_orders',
      table: 'fulfillment_orders',
      columns: Object.keys(first) as (keyof typeof first)[],
      finish: (insert) => insert.returning(['id', 'store_id', 'fulfillment_order_number']),
    },
    headers,
  );
  for (const row of rows) {
    headerIds.set(`${row.store_id}:${row.fulfillment_order_number}`, Number(row.id));
  }
  const withIds = orders.map((order) => ({
    order,
    id: headerIds.get(`${order.store_id}:${order.fulfillment_order_number}`) ?? 0,
  }));
  const itemIds = await insertItems(
    db,
    bulk,
    withIds.flatMap(({ order, id }) =>
      order.items.map((item, position) => ({ orderId: id, position, item })),
    ),
  );
  const stored: FulfillmentOrder[] = [];
  for (const { order, id } of withIds) {
    const items = order.items.map((item, position) => ({
      ...item,
      id: itemIds.get(lineKey(id, position)) ?? 0,
    }));
    const shipments: Shipment[] = [];
    for (const shipment of order.shipments) shipments.push(await insertShipment(db, id, shipment));
    const invoices: Invoice[] = [];
    for (const invoice of order.invoices) invoices.push(await insertInvoice(db, id, invoice));
    stored.push({ ...order, id, items, shipments, invoices });
  }
  await insertQueueEntries(db, bulk, stored, changeId);
  return stored;
}

/** The columns of `next` whose values differ from `previous`'s. */
function changedColumns<T extends object>(previous: T, next: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (next[key] !== previous[key]) changed[key] = next[key];
  }
  return changed;
}

/** The header columns of the courier's bookkeeping: what no view of the order shows. */
const COURIER_COLUMNS: ReadonlySet<string> = new Set([
  'courier_attempts',
  'courier_last_error',
  'courier_next_attempt_at',
]);

/** What `saveOrder` wrote: the order as stored, and whether anything but the courier's bookkeeping. */
export interface SavedOrder {
  order: FulfillmentOrder;
  shown: boolean;
}

/**
 * Writes an existing order: what changed of the header, the items that changed (updating those
 * with an id, inserting those without), new shipments and invoices, and its queue entries.
 * `before` is the order as this transaction read it (it holds the lock): only the differences
 * from it are written, and the items must be its items. Items are never deleted.
 */
export async function saveOrder(
  db: Db,
  bulk: BulkStatements,
  order: FulfillmentOrder,
  before: FulfillmentOrder,
  changeId: number,
  prepared = new PreparedQueries(),
  deferred = false,
): Promise<SavedOrder> {
  if (order.id !== before.id || order.store_id !== before.store_id) {
    throw new Error(`fulfil: order ${order.id} is not the order ${before.id} read before`);
  }
  const header = changedColumns(encodeOrderHeader(before), encodeOrderHeader(order));
  const headerColumns = Object.keys(header) as (keyof typeof header)[];
  const previousItems = new Map(
    before.items.map((item, position) => [item.id, encodeItem(order.id, position, item)]),
  );
  const newLines: NewLine[] = [];
  const changedItems: (ItemRow & { id: number })[] = [];
  const changedItemColumns = new Set<ItemColumn>();
  for (const [position, item] of order.items.entries()) {
    if (item.id === 0) {
      newLines.push({ orderId: order.id, position, item });
      continue;
    }
    const previous = previousItems.get(item.id);
    if (!previous) throw new Error(`fulfil: item ${item.id} is not an item of order ${order.id}`);
    const row = encodeItem(order.id, position, item);
    const changed = Object.keys(changedColumns(previous, row)) as ItemColumn[];
    if (changed.length > 0) changedItems.push({ id: item.id, ...row });
    for (const column of changed) changedItemColumns.add(column);
  }
  const itemIds = await insertItems(db, bulk, newLines);
  const items = order.items.map((item, position) =>
    item.id === 0 ? { ...item, id: itemIds.get(lineKey(order.id, position)) ?? 0 } : item,
  );

  const shipments: Shipment[] = [];
  for (const shipment of order.shipments) {
    shipments.push(shipment.id === 0 ? await insertShipment(db, order.id, shipment) : shipment);
  }
  const invoices: Invoice[] = [];
  for (const invoice of order.invoices) {
    invoices.push(invoice.id === 0 ? await insertInvoice(db, order.id, invoice) : invoice);
  }

  const stored: FulfillmentOrder = { ...order, items, shipments, invoices };
  // The rows whose ids the order needs are inserted first and its queue entries written; the
  // header's and the changed items' updates, answered by nobody, come last, so that they may
  // wait for the action's other such writes and go with them (deferred-writes.ts).
  await writeQueueEntries(db, stored, before, changeId, prepared, deferred);

  if (headerColumns.length > 0) {
    // Compiled once per set of changed columns: an action changes the same few each time.
    await prepared.run(
      db,
      `update order header: ${headerColumns.join(',')}`,
      [...headerColumns.map((column) => header[column]), order.id],
      (trx, argument) =>
        trx
          .updateTable('fulfillment_orders')
          .set(
            Object.fromEntries(
              headerColumns.map((column, index) => [column, argument(index)]),
            ) as typeof header,
          )
          .where('id', '=', argument<number>(headerColumns.length)),
      { deferrable: true },
    );
  }

  // Every changed item in one statement: an upsert on ids known to be this order's rows, setting
  // only the columns that changed, so that an index on the others (order_id, position) is left
  // alone. Compiled once per set of changed columns (and, as a `values` list, per row count).
  const first = changedItems[0];
  if (first) {
    const updated = [...changedItemColumns].sort();
    await bulk.run(
      db,
      {
        name: `update order_items: ${updated.join(',')}`,
        table: 'order_items',
        deferrable: true,
        columns: Object.keys(first) as (keyof typeof first)[],
        finish: (insert) =>
          insert.onConflict((oc) =>
            oc
              .column('id')
              .doUpdateSet((eb) =>
                Object.fromEntries(updated.map((column) => [column, eb.ref(`excluded.${column}`)])),
              ),
          ),
      },
      changedItems,
    );
  }
  const shown =
    headerColumns.some((column) => !COURIER_COLUMNS.has(column)) ||
    changedItems.length > 0 ||
    newLines.length > 0 ||
    order.shipments.some((shipment) => shipment.id === 0) ||
    order.invoices.some((invoice) => invoice.id === 0);
  return { order: stored, shown };
}
