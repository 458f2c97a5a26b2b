import {
  type FulfillmentOrder,
  type Invoice,
  type Item,
  queueDocuments,
  queuesOf,
  type Shipment,
} from '@fulfil/core';
import type { Kysely, Selectable } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database, FulfillmentOrderTable } from './database.js';
import {
  decodeInvoice,
  decodeItem,
  decodeOrder,
  decodeShipment,
  encodeInvoice,
  encodeItem,
  encodeOrderHeader,
  encodeShipment,
} from './row-codec.js';

/**
 * Reading and writing whole orders: the header row plus its items, shipments and invoices, and
 * the `queue_entries` that list it. Every function runs on the caller's transaction.
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

/**
 * Completes header rows into orders with three more queries in all (items, shipments,
 * invoices), however many orders: never one query per order. Keeps the order of `headers`.
 */
export async function loadOrders(
  db: Db,
  headers: readonly OrderRow[],
): Promise<FulfillmentOrder[]> {
  if (headers.length === 0) return [];
  const itemRows = [];
  const shipmentRows = [];
  const invoiceRows = [];
  for (const ids of chunk(
    headers.map((header) => Number(header.id)),
    IN_LIST_SIZE,
  )) {
    itemRows.push(
      ...(await db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', 'in', ids)
        .orderBy('order_id')
        .orderBy('position')
        .execute()),
    );
    shipmentRows.push(
      ...(await db
        .selectFrom('shipments')
        .selectAll()
        .where('order_id', 'in', ids)
        .orderBy('order_id')
        .orderBy('id')
        .execute()),
    );
    invoiceRows.push(
      ...(await db
        .selectFrom('invoices')
        .selectAll()
        .where('order_id', 'in', ids)
        .orderBy('order_id')
        .orderBy('id')
        .execute()),
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
      columns: Object.keys(first) as (keyof typeof first)[],
      build: (db, rows) =>
        db.insertInto('order_items').values(rows).returning(['id', 'order_id', 'position']),
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

async function insertInvoice(db: Db, orderId: number, invoice: Invoice): Promise<Invoice> {
  const row = await db
    .insertInto('invoices')
    .values(encodeInvoice(orderId, invoice))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...invoice, id: Number(row.id) };
}

function queueEntryRows(order: FulfillmentOrder) {
  return queueDocuments(order).map(({ queue, document }) => ({
    order_id: order.id,
    store_id: order.store_id,
    queue,
    warehouse_code: order.warehouse_code,
    updated_at: order.updated_at,
    document,
  }));
}

/** Writes the `queue_entries` of new orders: one per queue that lists each, with its document. */
async function insertQueueEntries(
  db: Db,
  bulk: BulkStatements,
  orders: readonly FulfillmentOrder[],
): Promise<void> {
  const rows = orders.flatMap(queueEntryRows);
  const first = rows[0];
  if (!first) return;
  await bulk.run(
    db,
    {
      name: 'insert queue_entries',
      columns: Object.keys(first) as (keyof typeof first)[],
      build: (db, rows) => db.insertInto('queue_entries').values(rows),
    },
    rows,
  );
}

/**
 * Rewrites an existing order's rows of `queue_entries` from core's `queueDocuments`: the rows of
 * queues that no longer list it go (when `before`, the order as this transaction read it, was
 * listed elsewhere, or is unknown) and the others are written in place.
 */
export async function writeQueueEntries(
  db: Db,
  order: FulfillmentOrder,
  before: FulfillmentOrder | null,
): Promise<void> {
  const rows = queueEntryRows(order);
  const queues = rows.map((row) => row.queue);
  const left = before === null || queuesOf(before).some((queue) => !queues.includes(queue));
  if (left) {
    await db
      .deleteFrom('queue_entries')
      .where('order_id', '=', order.id)
      .$if(queues.length > 0, (qb) => qb.where('queue', 'not in', queues))
      .execute();
  }
  if (rows.length === 0) return;
  await db
    .insertInto('queue_entries')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['order_id', 'queue']).doUpdateSet((eb) => ({
        warehouse_code: eb.ref('excluded.warehouse_code'),
        updated_at: eb.ref('excluded.updated_at'),
        document: eb.ref('excluded.document'),
      })),
    )
    .execute();
}

/**
 * Inserts new orders with all their parts (whatever their ids say: all are new), a few
 * multi-row statements for the lot; returns them with ids, in the order given.
 */
export async function insertOrders(
  db: Db,
  bulk: BulkStatements,
  orders: readonly FulfillmentOrder[],
): Promise<FulfillmentOrder[]> {
  const headerIds = new Map<string, number>();
  const headers = orders.map(encodeOrderHeader);
  const first = headers[0];
  if (!first) return [];
  const rows = await bulk.run(
    db,
    {
      name: 'insert fulfillment_orders',
      columns: Object.keys(first) as (keyof typeof first)[],
      build: (db, rows) =>
        db
          .insertInto('fulfillment_orders')
          .values(rows)
          .returning(['id', 'store_id', 'fulfillment_order_number']),
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
  await insertQueueEntries(db, bulk, stored);
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
): Promise<FulfillmentOrder> {
  if (order.id !== before.id || order.store_id !== before.store_id) {
    throw new Error(`fulfil: order ${order.id} is not the order ${before.id} read before`);
  }
  const header = changedColumns(encodeOrderHeader(before), encodeOrderHeader(order));
  if (Object.keys(header).length > 0) {
    await db.updateTable('fulfillment_orders').set(header).where('id', '=', order.id).execute();
  }

  const previousItems = new Map(
    before.items.map((item, position) => [item.id, encodeItem(order.id, position, item)]),
  );
  const newLines: NewLine[] = [];
  const changedItems: (ReturnType<typeof encodeItem> & { id: number })[] = [];
  for (const [position, item] of order.items.entries()) {
    if (item.id === 0) {
      newLines.push({ orderId: order.id, position, item });
      continue;
    }
    const previous = previousItems.get(item.id);
    if (!previous) throw new Error(`fulfil: item ${item.id} is not an item of order ${order.id}`);
    const row = encodeItem(order.id, position, item);
    if (Object.keys(changedColumns(previous, row)).length > 0) {
      changedItems.push({ id: item.id, ...row });
    }
  }
  // Every changed item in one statement: an upsert on ids known to be this order's rows.
  for (const slice of chunk(changedItems, 500)) {
    await db
      .insertInto('order_items')
      .values(slice)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          position: eb.ref('excluded.position'),
          status: eb.ref('excluded.status'),
          warehouse_code: eb.ref('excluded.warehouse_code'),
          name: eb.ref('excluded.name'),
          sku: eb.ref('excluded.sku'),
          qty: eb.ref('excluded.qty'),
          price: eb.ref('excluded.price'),
          price_excl_tax: eb.ref('excluded.price_excl_tax'),
          tax_amount: eb.ref('excluded.tax_amount'),
          tax_rate: eb.ref('excluded.tax_rate'),
          total_price: eb.ref('excluded.total_price'),
          total_price_excl_tax: eb.ref('excluded.total_price_excl_tax'),
          total_tax_amount: eb.ref('excluded.total_tax_amount'),
          rejected_by: eb.ref('excluded.rejected_by'),
          invoice_number: eb.ref('excluded.invoice_number'),
        })),
      )
      .execute();
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
  await writeQueueEntries(db, stored, before);
  return stored;
}
