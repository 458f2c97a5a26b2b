import { describe, expect, it } from 'vitest';
import { type ChangePosition, positionAt } from '../../domain/change-cursor.js';
import { toMoney } from '../../domain/money.js';
import type { SalesOrder } from '../../domain/sales-order.js';
import type { SalesOrderRecord } from '../../domain/sales-order-view.js';
import type { FulfillmentOrder, Store } from '../../domain/types.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: sales orders as taken in, and their feed. */
export function salesOrdersContract(h: ContractHarness): void {
  const { write, read, seedStore, insert, update, settledHorizon } = h;

  const record = (store: Store, number: string, received: SalesOrder | null = null) =>
    ({
      id: 0,
      store_id: store.id,
      sales_order_number: number,
      sales_order_id: 42,
      received,
      created_at: '2026-01-15 09:00:00',
    }) satisfies SalesOrderRecord;

  /** The sales orders (their numbers) the feed moved after `from`, as a `since` reader sees them. */
  const movedAfter = (store: Store, from: ChangePosition) =>
    settledHorizon().then(() =>
      read(async (tx) => {
        const horizon = await tx.changeHorizon();
        const entries = await tx.pollFeedChanges({
          store_id: store.id,
          feed: 'sales_orders',
          page_size: 100,
          warehouses: null,
          after: from,
        });
        const ids = entries.filter((found) => found.change < horizon.horizon);
        const records = await tx.salesOrdersById(ids.map((found) => found.entry_id));
        const numbers = new Map(records.map((found) => [found.id, found.sales_order_number]));
        return ids.map((found) => numbers.get(found.entry_id));
      }),
    );

  const now = async () => positionAt(await settledHorizon());

  /** A sales order taken in with one fulfillment order, as intake stores it. */
  async function takenIn(store: Store, number: string): Promise<FulfillmentOrder> {
    await write((tx) => tx.insertSalesOrders([record(store, number)]));
    return insert({ store_id: store.id, sales_order_number: number });
  }

  describe('sales orders (insertSalesOrders, findSalesOrders, the sales_orders feed)', () => {
    it('keeps a sales order as taken in, found by number and by id; a number is stored once', async () => {
      const store = await seedStore();
      const received = {
        sales_order_number: 'SO-1',
        shipping_amount: toMoney(5.5),
        items: [{ sku: 'SKU-1', qty: 2 }],
      } as unknown as SalesOrder;
      const [stored] = await write((tx) =>
        tx.insertSalesOrders([record(store, 'SO-1', received), record(store, 'SO-2')]),
      );
      expect(stored?.id).toBeGreaterThan(0);
      const found = await read((tx) => tx.findSalesOrders(store.id, ['SO-1', 'SO-3']));
      expect(found).toEqual([{ ...record(store, 'SO-1', received), id: stored?.id }]);
      expect(await read((tx) => tx.salesOrdersById([stored?.id ?? 0]))).toEqual(found);
      await expect(write((tx) => tx.insertSalesOrders([record(store, 'SO-1')]))).rejects.toThrow();
      // Another store may use the same number.
      const other = await seedStore('other');
      await write((tx) => tx.insertSalesOrders([record(other, 'SO-1')]));
    });

    it('a sales order taken in enters the feed; a write of any of its fulfillment orders moves it', async () => {
      const store = await seedStore();
      const start = await now();
      const first = await takenIn(store, 'SO-A');
      await takenIn(store, 'SO-B');
      expect(await movedAfter(store, start)).toEqual(['SO-A', 'SO-B']);

      let from = await now();
      await update(first, (o) => ({ ...o, customer_email: 'new@example.com' }));
      expect(await movedAfter(store, from)).toEqual(['SO-A']);

      // A second fulfillment order of the sales order (a reroute): inserting it moves it too.
      from = await now();
      await insert({
        store_id: store.id,
        sales_order_number: 'SO-B',
        fulfillment_order_number: 'SO-B-2',
      });
      expect(await movedAfter(store, from)).toEqual(['SO-B']);

      // Correcting a shipment's tracks moves it.
      const shipped = await update(first, (o) => ({
        ...o,
        items: o.items.map((line) => ({ ...line, status: 'pending_invoice' })),
        shipments: [
          {
            id: 0,
            items: o.items.map((line) => ({ item_id: line.id, qty: line.qty })),
            tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z' }],
            created_at: '2026-01-16 08:00:00',
          },
        ],
      }));
      from = await now();
      await write(async (tx) => {
        await tx.lockOrderById(shipped.id);
        await tx.updateShipmentTracks(shipped.id, shipped.shipments[0]?.id ?? 0, [
          { carrier_code: 'ups', title: 'UPS', track_number: '1Z-RIGHT' },
        ]);
      });
      expect(await movedAfter(store, from)).toEqual(['SO-A']);

      // And so does an explicit touch, its `updated_at` raised to the touch's time, so that a
      // poll by date finds it too.
      from = await now();
      const later = '2099-01-01 00:00:00';
      await write((tx) => tx.touchSalesOrders(store.id, ['SO-B', 'SO-UNKNOWN'], later));
      expect(await movedAfter(store, from)).toEqual(['SO-B']);
      const since = await read((tx) =>
        tx.pollFeed({
          store_id: store.id,
          feed: 'sales_orders',
          page: 1,
          page_size: 100,
          since: later,
          warehouses: null,
        }),
      );
      const touched = await read((tx) => tx.salesOrdersById(since.map((entry) => entry.entry_id)));
      expect(touched.map((found) => found.sales_order_number)).toEqual(['SO-B']);
    });

    it('the courier bookkeeping alone moves nothing: no view shows it', async () => {
      const store = await seedStore();
      const stored = await takenIn(store, 'SO-C');
      const from = await now();
      await update(stored, (o) => ({
        ...o,
        courier: { attempts: 1, last_error: 'busy', next_attempt_at: '2026-01-15 11:00:00' },
      }));
      expect(await movedAfter(store, from)).toEqual([]);
    });

    it('a write that rolls back moves nothing', async () => {
      const store = await seedStore();
      const stored = await takenIn(store, 'SO-D');
      const from = await now();
      await expect(
        write(async (tx) => {
          const locked = await tx.lockOrderById(stored.id);
          if (!locked) throw new Error('fixture');
          await tx.saveOrder({ ...locked, customer_email: 'x@example.com' });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await movedAfter(store, from)).toEqual([]);
    });

    it('a fulfillment order of a sales order with no record gets one (content unknown) in the feed', async () => {
      const store = await seedStore();
      const from = await now();
      const stored = await insert({ store_id: store.id, sales_order_number: 'SO-E' });
      expect(await movedAfter(store, from)).toEqual(['SO-E']);
      const [found] = await read((tx) => tx.findSalesOrders(store.id, ['SO-E']));
      expect(found).toMatchObject({
        sales_order_number: 'SO-E',
        sales_order_id: stored.sales_order_id,
        received: null,
        created_at: stored.created_at,
      });
    });

    it('lists every fulfillment order of the sales orders asked for, by id', async () => {
      const store = await seedStore();
      const a1 = await takenIn(store, 'SO-F');
      const b1 = await takenIn(store, 'SO-G');
      const a2 = await insert({
        store_id: store.id,
        sales_order_number: 'SO-F',
        fulfillment_order_number: 'SO-F-2',
      });
      await takenIn(store, 'SO-H');
      const listed = await read((tx) => tx.listSalesOrderFulfillments(store.id, ['SO-F', 'SO-G']));
      expect(listed.map((found) => found.id)).toEqual([a1.id, b1.id, a2.id]);
      expect(listed[2]).toEqual(a2);
    });

    it('two transactions writing fulfillment orders of one sales order at once both commit, and the feed ends after both', async () => {
      const store = await seedStore();
      await write((tx) => tx.insertSalesOrders([record(store, 'SO-R')]));
      const one = await insert({ store_id: store.id, sales_order_number: 'SO-R' });
      const two = await insert({
        store_id: store.id,
        sales_order_number: 'SO-R',
        fulfillment_order_number: 'SO-R-2',
      });
      const from = await now();
      await Promise.all(
        [one, two].map((target) =>
          write(async (tx) => {
            const locked = await tx.lockOrderById(target.id);
            if (!locked) throw new Error('fixture');
            await tx.saveOrder({ ...locked, customer_email: `${target.id}@example.com` });
          }),
        ),
      );
      expect(await movedAfter(store, from)).toEqual(['SO-R']);
      const seen = await now();
      expect(await movedAfter(store, seen)).toEqual([]);
    });
  });
}
