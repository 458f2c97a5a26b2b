import { guardWrites, OLDER_WRITER_MESSAGE, WRITER_GENERATION } from '@fulfil/storage-kysely';
import { describe, expect, it } from 'vitest';
import { advance, advanceOne, call, pollAll, TOKENS } from '../http/support.js';
import { type RawConnection, rawConnection } from './raw-connection.js';
import { closedAfterEach, migrateUpTo, serveOver, storedOrder, upgradeKinds } from './support.js';

/**
 * A rolling upgrade: a process of the release before keeps running while a new one migrates the
 * database. The old process writes as its code did, without the change id and change clock the
 * new processes rely on (docs/polling.md): the database must refuse it, loudly, while the new
 * process writes and every poller sees what it wrote.
 */

/** The last migration of the schema before the writer guard. */
const BEFORE_THE_GUARD = '0008_poll_index_versions';

/**
 * A ship as the code of the release before wrote it, statement for statement: the lines, the
 * header, the queue entry moved in place (no change id: that code had none), the audit event.
 */
async function shipAsTheOldCode(old: RawConnection, number: string): Promise<void> {
  const [entry] = await old.query<{ order_id: number; warehouse_code: string; document: string }>(
    `select q.order_id, q.warehouse_code, q.document from queue_entries q
       join fulfillment_orders o on o.id = q.order_id
      where o.fulfillment_order_number = $1 and q.queue = 'pending_shipment'`,
    [number],
  );
  if (!entry) throw new Error(`${number} is not in pending_shipment`);
  const at = '2026-01-01 00:05:00';
  await old.query('begin');
  try {
    await old.query(`update order_items set status = 'pending_invoice' where order_id = $1`, [
      entry.order_id,
    ]);
    await old.query(
      `update fulfillment_orders set status = 'pending_invoice', updated_at = $2 where id = $1`,
      [entry.order_id, at],
    );
    await old.query(
      `update queue_entries set queue = $3, warehouse_code = $4, updated_at = $2, document = $5
        where order_id = $1 and queue = $6`,
      [
        entry.order_id,
        at,
        'pending_invoice',
        entry.warehouse_code,
        entry.document,
        'pending_shipment',
      ],
    );
    await old.query(
      `insert into audit_events (order_id, at, actor, action, details)
       values ($1, $2, 'partner-a', 'ship', '{}')`,
      [entry.order_id, at],
    );
    await old.query('commit');
  } catch (error) {
    await old.query('rollback');
    throw error;
  }
}

const numbers = (orders: { fulfillment_order_number: string }[]) =>
  orders.map((order) => order.fulfillment_order_number).sort();

describe.each(upgradeKinds())('a rolling upgrade on $name', (kind) => {
  const track = closedAfterEach();

  it('refuses the writes of a process of the release before; the new process writes and pollers see it', async () => {
    const database = track(await kind.create());
    await migrateUpTo(database.url, BEFORE_THE_GUARD);
    // The store as the release before left it: one order waiting for its invoice, two shipping.
    const before = await serveOver(database.url, { skipMigrations: true, seed: true });
    await advance(before, '100001001-1', 'pending_invoice');
    await advance(before, '100001002-1', 'pending_shipment');
    await advance(before, '000123-1', 'pending_shipment');
    await before.close();

    // A process of the release before, already running: it ships an order as its code does.
    const old = track(await rawConnection(database.url));
    await shipAsTheOldCode(old, '000123-1');

    // A new process starts, migrating the database, while the old one keeps running.
    const fresh = track(await serveOver(database.url));
    const first = await call(fresh, 'GET', '/V1/fulfillmentOrders/pending_invoice', {
      token: TOKENS.erp,
    });
    expect(numbers(first.body)).toEqual(['000123-1', '100001001-1']);
    const cursor = first.headers.get('fulfil-cursor') as string;

    // The old process's next write is refused, whole, with the cause in its message.
    const untouched = await storedOrder(old, '100001002-1');
    const refused = shipAsTheOldCode(old, '100001002-1');
    await expect(refused).rejects.toThrow(OLDER_WRITER_MESSAGE);
    if (kind.name === 'sqlite') {
      // That release's connection has no such function: SQLite's own words name the cause.
      await expect(refused).rejects.toThrow(`no such function: ${OLDER_WRITER_MESSAGE}`);
    }
    expect(await storedOrder(old, '100001002-1')).toEqual(untouched);

    // The new process ships it, and every kind of poller sees it at once.
    await advanceOne(fresh, '100001002-1', 'pending_invoice');
    expect(numbers(await pollAll(fresh, 'pending_invoice', TOKENS.erp))).toEqual([
      '000123-1',
      '100001001-1',
      '100001002-1',
    ]);
    // A wait: on Postgres a change is served once no transaction of the cluster older than it
    // is still open, and other work on the cluster may hold one a moment.
    const since = await call(
      fresh,
      'GET',
      `/V1/fulfillmentOrders/pending_invoice?since=${encodeURIComponent(cursor)}&wait=10`,
      { token: TOKENS.erp },
    );
    // (It may hand over the others again too: a cursor never passes a change still to come.)
    expect(numbers(since.body)).toContain('100001002-1');
  });

  it('a process of this code, once the schema needs a newer writer, answers 503 and logs why; reads go on', async () => {
    const database = track(await kind.create());
    const server = track(await serveOver(database.url, { seed: true }));
    // What a later migration does when it raises the generation its writers need.
    await server.repository.db
      .transaction()
      .execute((trx) =>
        guardWrites(trx, kind.flags, { generation: WRITER_GENERATION + 1, tables: [] }),
      );
    // A migration requiring less, applied after it (migrations may arrive out of order), lowers
    // nothing.
    await server.repository.db
      .transaction()
      .execute((trx) => guardWrites(trx, kind.flags, { generation: 1, tables: ['stock'] }));
    server.logs.length = 0;

    const write = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      json: { stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 }] },
    });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('1');
    expect(write.text).not.toContain(OLDER_WRITER_MESSAGE);
    const logged = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        status: 503,
        cause: expect.stringContaining(OLDER_WRITER_MESSAGE),
      }),
    );
    expect(await server.engine.listStock('default', { sku: 'SKU-1' })).toContainEqual(
      expect.objectContaining({ warehouse_code: 'WH-A', on_hand: 100 }),
    );

    const read = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.all,
    });
    expect(read.status).toBe(200);
  });
});
