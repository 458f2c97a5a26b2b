import { describe, expect, it } from 'vitest';
import { accept } from '../../domain/actions/accept.js';
import { allocate } from '../../domain/actions/allocate.js';
import { acceptCancellation } from '../../domain/actions/cancellation.js';
import { placeHold, releaseHold } from '../../domain/actions/holds.js';
import { invoice } from '../../domain/actions/invoice.js';
import { cancel, fail, requeue } from '../../domain/actions/operator.js';
import { ship } from '../../domain/actions/ship.js';
import { QUEUES } from '../../domain/item-stage.js';
import type { Timestamp } from '../../domain/timestamp.js';
import { FIXTURE_TIME, item, storeSettings } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: queues. */
export function queuesContract(h: ContractHarness): void {
  const { read, seedStore, insert, poll, pollIds, update, act } = h;

  describe('queues', () => {
    it('lists an order in every queue of its live items, refreshed by saveOrder', async () => {
      const store = await seedStore();
      const stored = await insert({
        store_id: store.id,
        items: ['pending_accept', 'pending_shipment', 'rejected'],
      });
      expect(await pollIds(store, 'pending_accept')).toEqual([stored.id]);
      expect(await pollIds(store, 'pending_shipment')).toEqual([stored.id]);
      expect(await pollIds(store, 'pending_allocation')).toEqual([]);
      expect(await pollIds(store, 'failed')).toEqual([]);

      const allocated = await update(stored, (o) => ({
        ...o,
        items: o.items.map((i) =>
          i.status === 'pending_accept' ? { ...i, status: 'pending_allocation' } : i,
        ),
      }));
      expect(await pollIds(store, 'pending_accept')).toEqual([]);
      expect(await pollIds(store, 'pending_allocation')).toEqual([allocated.id]);
      expect(await pollIds(store, 'pending_shipment')).toEqual([allocated.id]);
    });

    it('a failed order is listed only in failed, and again in its queues once requeued', async () => {
      const store = await seedStore();
      const stored = await insert({ store_id: store.id, items: ['pending_allocation'] });
      const failed = await update(stored, (o) => ({
        ...o,
        failure: {
          stage: 'allocation',
          reason: 'no stock',
          abandoned: false,
          failed_at: FIXTURE_TIME,
        },
      }));
      expect(failed.status).toBe('failed');
      expect(await pollIds(store, 'failed')).toEqual([stored.id]);
      for (const queue of [
        'pending_accept',
        'pending_allocation',
        'pending_shipment',
        'pending_invoice',
      ] as const) {
        expect(await pollIds(store, queue)).toEqual([]);
      }
      const [polled] = await poll(store, 'failed');
      expect(polled?.failure).toEqual(failed.failure);

      await update(failed, (o) => ({ ...o, failure: null }));
      expect(await pollIds(store, 'failed')).toEqual([]);
      expect(await pollIds(store, 'pending_allocation')).toEqual([stored.id]);
    });

    it('an order whose items are all invoiced or rejected leaves every queue', async () => {
      const store = await seedStore();
      const stored = await insert({
        store_id: store.id,
        items: ['pending_invoice', 'pending_invoice'],
      });
      expect(await pollIds(store, 'pending_invoice')).toEqual([stored.id]);
      await update(stored, (o) => ({
        ...o,
        items: o.items.map((i, index) =>
          index === 0
            ? { ...i, status: 'invoiced', invoice_number: 'INV-1' }
            : { ...i, status: 'rejected' },
        ),
      }));
      for (const queue of [
        'pending_accept',
        'pending_allocation',
        'pending_shipment',
        'pending_invoice',
        'failed',
      ] as const) {
        expect(await pollIds(store, queue)).toEqual([]);
      }
    });

    it('countQueues counts the orders each queue of each store lists, and the abandoned among the failed', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      expect(await read((tx) => tx.countQueues())).toEqual([]);
      await insert({ store_id: store.id, items: ['pending_accept', 'pending_shipment'] });
      await insert({ store_id: store.id, items: ['pending_accept'] });
      await insert({ store_id: store.id, items: ['invoiced'] });
      await insert({ store_id: other.id, items: ['pending_invoice'] });
      // Failed orders: one open, two abandoned (one whose reason quotes the field, to mislead).
      const failures = [
        { abandoned: false, reason: 'no stock' },
        { abandoned: true, reason: 'gone' },
        { abandoned: true, reason: '{"abandoned":true}' },
        { abandoned: false, reason: '"abandoned":true' },
      ];
      for (const { abandoned, reason } of failures) {
        const stored = await insert({ store_id: store.id, items: ['pending_allocation'] });
        await update(stored, (o) => ({
          ...o,
          failure: { stage: 'allocation', reason, abandoned, failed_at: FIXTURE_TIME },
        }));
      }
      const counts = await read((tx) => tx.countQueues());
      const sorted = [...counts].sort(
        (a, b) => a.store_id - b.store_id || a.queue.localeCompare(b.queue),
      );
      expect(sorted).toEqual([
        { store_id: store.id, queue: 'failed', orders: 4, abandoned: 2 },
        { store_id: store.id, queue: 'pending_accept', orders: 2 },
        { store_id: store.id, queue: 'pending_shipment', orders: 1 },
        { store_id: other.id, queue: 'pending_invoice', orders: 1 },
      ]);
    });

    it('the stored documents follow every action: accept, allocate, ship, invoice, fail, requeue, cancel', async () => {
      const store = await seedStore();
      const settings = storeSettings({ partial_items: true });
      const context = (now: Timestamp) => ({ now, settings });
      const warehouses = await read((tx) => tx.listWarehouses(store.id));
      const placed = await insert({
        store_id: store.id,
        items: [
          item('SKU-1', { qty: 2 }),
          item('SKU-2', { qty: 1, amounts: { price: 99_999, total_price: 99_999 } }),
          item('SKU-3', { qty: 4, amounts: {} }),
        ],
      });
      const [one, two, three] = placed.items.map((line) => ({ item_id: line.id }));
      if (!one || !two || !three) throw new Error('fixture');
      const id = placed.fulfillment_order_number;
      const at = (minute: number): Timestamp =>
        `2026-02-01 10:${String(minute).padStart(2, '0')}:00`;

      const accepted = await act(placed, (o) =>
        accept(
          o,
          {
            order_id: id,
            items: [
              { ...one, qty: 2 },
              { ...two, qty: 1 },
            ],
          },
          context(at(1)),
        ),
      );
      const allocated = await act(accepted, (o) =>
        allocate(o, { order_id: id, items: [one] }, { ...context(at(2)), warehouses }),
      );
      const shipped = await act(allocated, (o) =>
        ship(
          o,
          {
            order_id: id,
            items: [one],
            tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z' }],
          },
          context(at(3)),
        ),
      );
      const invoiced = await act(shipped, (o) =>
        invoice(o, { order_id: id, items: [one], invoice_number: 'INV-1' }, context(at(4))),
      );
      const failed = await act(invoiced, (o) => fail(o, 'flooded', at(5)));
      expect(await pollIds(store, 'failed')).toEqual([placed.id]);
      const requeued = await act(failed, (o) => requeue(o, at(6)));
      expect(await pollIds(store, 'failed')).toEqual([]);
      // Accepted lines are asked of their partner first: the request is a queue of its own.
      const requested = await act(requeued, (o) => cancel(o, at(7)));
      expect(await pollIds(store, 'pending_cancellation')).toEqual([placed.id]);
      expect(await pollIds(store, 'pending_allocation')).toEqual([placed.id]);
      const canceled = await act(requested, (o) => acceptCancellation(o, null, 'partner', at(8)));
      for (const queue of QUEUES) {
        expect(await pollIds(store, queue)).toEqual([]);
      }
      expect(canceled.updated_at).toBe(at(8));
    });

    it('a held order is in no queue; the release of its last hold puts it back, with its stored documents', async () => {
      const store = await seedStore();
      const placed = await insert({ store_id: store.id, items: ['pending_accept'] });
      const hold = (handle: string) => ({ handle, reason: 'other' as const, note: null });
      const once = await act(placed, (o) => placeHold(o, hold('a'), 'channel', FIXTURE_TIME));
      const twice = await act(once, (o) => placeHold(o, hold('b'), 'channel', FIXTURE_TIME));
      for (const queue of QUEUES) expect(await pollIds(store, queue)).toEqual([]);
      const half = await act(twice, (o) => releaseHold(o, 'a', 'channel', FIXTURE_TIME));
      expect(await pollIds(store, 'pending_accept')).toEqual([]);
      await act(half, (o) => releaseHold(o, 'b', 'channel', FIXTURE_TIME));
      expect(await pollIds(store, 'pending_accept')).toEqual([placed.id]);
      const stored = await read((tx) => tx.findOrder(store.id, placed.fulfillment_order_number));
      expect(stored?.holds.map((h) => [h.handle, h.released_by])).toEqual([
        ['a', 'channel'],
        ['b', 'channel'],
      ]);
    });

    it('pollQueue pages by id: full pages, a short last page, then []', async () => {
      const store = await seedStore();
      const ids: number[] = [];
      for (let i = 0; i < 7; i++) ids.push((await insert({ store_id: store.id })).id);
      // Orders in another queue and another store never show.
      await insert({ store_id: store.id, items: ['pending_shipment'] });
      const other = await seedStore('other');
      await insert({ store_id: other.id });

      const page = (n: number) => pollIds(store, 'pending_accept', { page: n, page_size: 3 });
      expect(await page(1)).toEqual(ids.slice(0, 3));
      expect(await page(2)).toEqual(ids.slice(3, 6));
      expect(await page(3)).toEqual(ids.slice(6));
      expect(await page(4)).toEqual([]);
      expect(await page(50)).toEqual([]);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    });

    it('pollQueue returns whole orders: items, shipments and invoices included', async () => {
      const store = await seedStore();
      const a = await insert({
        store_id: store.id,
        items: ['pending_shipment', 'pending_shipment'],
      });
      const b = await insert({ store_id: store.id, items: ['pending_shipment'] });
      const shipped = await update(a, (o) => ({
        ...o,
        items: o.items.map((i, index) => (index === 0 ? { ...i, status: 'pending_invoice' } : i)),
        shipments: [
          {
            id: 0,
            items: [{ item_id: o.items[0]?.id ?? 0, qty: 2 }],
            tracks: [],
            created_at: FIXTURE_TIME,
          },
        ],
      }));
      expect(await poll(store, 'pending_shipment')).toEqual([shipped, b]);
      expect(await poll(store, 'pending_invoice')).toEqual([shipped]);
    });

    it('pollQueue `since` keeps orders updated at or after it (inclusive)', async () => {
      const store = await seedStore();
      const early = await insert({ store_id: store.id, updated_at: '2026-01-01 09:59:59' });
      const exact = await insert({ store_id: store.id, updated_at: '2026-01-01 10:00:00' });
      const late = await insert({ store_id: store.id, updated_at: '2026-01-02 00:00:00' });
      expect(await pollIds(store, 'pending_accept', { since: '2026-01-01 10:00:00' })).toEqual([
        exact.id,
        late.id,
      ]);
      expect(await pollIds(store, 'pending_accept', { since: '2026-01-03 00:00:00' })).toEqual([]);
      expect(await pollIds(store, 'pending_accept', { since: null })).toEqual([
        early.id,
        exact.id,
        late.id,
      ]);
      // saveOrder moves the order's `updated_at` in the queue too.
      await update(early, (o) => ({ ...o, updated_at: '2026-01-05 00:00:00' }));
      expect(await pollIds(store, 'pending_accept', { since: '2026-01-04 00:00:00' })).toEqual([
        early.id,
      ]);
    });

    it('pollQueue filters by order-level warehouse', async () => {
      const store = await seedStore();
      const a = await insert({ store_id: store.id, warehouse_code: 'WH-A' });
      const b = await insert({ store_id: store.id, warehouse_code: 'WH-B' });
      const c = await insert({ store_id: store.id, warehouse_code: 'WH-C' });
      expect(await pollIds(store, 'pending_accept', { warehouses: ['WH-B'] })).toEqual([b.id]);
      expect(await pollIds(store, 'pending_accept', { warehouses: ['WH-C', 'WH-A'] })).toEqual([
        a.id,
        c.id,
      ]);
      expect(await pollIds(store, 'pending_accept', { warehouses: [] })).toEqual([]);
      expect(await pollIds(store, 'pending_accept', { warehouses: null })).toEqual([
        a.id,
        b.id,
        c.id,
      ]);
    });
  });
}
