import { createEngine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { FulfilMigrationProvider } from '@fulfil/storage-kysely';
import { openSqliteRepository, SQLITE_SCHEMA_FLAGS } from '@fulfil/storage-sqlite';
import { sql } from 'kysely';
import { expect, it } from 'vitest';

/**
 * Migration 0013 on a database that took sales orders in before it: each gets its record, its
 * content unknown, and its entry of the sales_orders feed at change 0, in intake order.
 */
it('0013_sales_orders gives every sales order already taken in its record and feed entry', async () => {
  const repository = await openSqliteRepository(':memory:');
  const engine = createEngine({ repository });
  try {
    await engine.loadSeed(fixtures.seed());
    await engine.intake('default', fixtures.salesOrder('2002', [{ sku: 'SKU-1', qty: 1 }]));
    await engine.intake('default', fixtures.salesOrder('1001', [{ sku: 'SKU-2', qty: 1 }]));
    const db = repository.db;
    // The database as it was before the migration.
    await sql`drop table feed_entries`.execute(db);
    await sql`drop table sales_orders`.execute(db);
    const migrations = await new FulfilMigrationProvider(SQLITE_SCHEMA_FLAGS).getMigrations();
    await migrations['0013_sales_orders']?.up(db);

    const records = await db.selectFrom('sales_orders').selectAll().orderBy('id').execute();
    const orders = await db.selectFrom('fulfillment_orders').selectAll().orderBy('id').execute();
    expect(records.map((row) => [row.sales_order_number, row.received])).toEqual([
      ['2002', null],
      ['1001', null],
    ]);
    expect(records.map((row) => [row.sales_order_id, row.created_at])).toEqual(
      orders.map((row) => [row.sales_order_id, row.created_at]),
    );
    const entries = await db.selectFrom('feed_entries').selectAll().orderBy('entry_id').execute();
    expect(entries).toEqual(
      records.map((row, index) => ({
        feed: 'sales_orders',
        entry_id: row.id,
        store_id: row.store_id,
        warehouse_code: null,
        updated_at: orders[index]?.updated_at,
        change_id: 0,
      })),
    );
  } finally {
    await engine.close();
  }
});
