import { describe, expect, it } from 'vitest';
import type { CancellationRequest, OrderHold } from '../../domain/types.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: held orders and the orders awaiting a cancellation answer. */
export function waitingContract(h: ContractHarness): void {
  const { read, seedStore, insert, update } = h;

  const hold = (handle: string, released_at: string | null = null): OrderHold => ({
    handle,
    reason: 'awaiting_payment',
    note: `"released_at":null ${handle}`,
    placed_by: 'crm',
    placed_at: '2026-01-01 10:00:00',
    released_by: released_at === null ? null : 'crm',
    released_at,
  });

  describe('held orders and requests awaiting an answer', () => {
    it('heldOrders lists the orders with an active hold of the store, lowest id first', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      const never = await insert({ store_id: store.id });
      const held = await insert({ store_id: store.id, holds: [hold('h1'), hold('h0', 'x')] });
      const released = await insert({ store_id: store.id, holds: [hold('h2', 'x')] });
      const second = await insert({ store_id: store.id, holds: [hold('h3')] });
      await insert({ store_id: other.id, holds: [hold('h4')] });
      const rows = await read((tx) => tx.heldOrders(store.id, 10));
      // An order whose holds were all released may be listed (its note could look active);
      // one never held or of another store is not.
      const numbers = rows.map((row) => row.fulfillment_order_number);
      expect(numbers).not.toContain(never.fulfillment_order_number);
      expect(numbers.filter((n) => n !== released.fulfillment_order_number)).toEqual([
        held.fulfillment_order_number,
        second.fulfillment_order_number,
      ]);
      expect(rows[0]).toEqual({
        fulfillment_order_number: held.fulfillment_order_number,
        sales_order_number: held.sales_order_number,
        warehouse_code: 'WH-A',
        status: 'pending_accept',
        holds: held.holds,
      });
      expect(await read((tx) => tx.heldOrders(store.id, 1))).toHaveLength(1);
    });

    it('ordersAwaitingCancellation lists the queue with the lines of the open request', async () => {
      const store = await seedStore();
      const accepted = await insert({
        store_id: store.id,
        items: ['pending_allocation', 'pending_allocation'],
        status: 'pending_allocation',
      });
      await insert({
        store_id: store.id,
        items: ['pending_allocation'],
        status: 'pending_allocation',
      });
      const second = accepted.items[1];
      const request = (id: number, status: CancellationRequest['status']): CancellationRequest => ({
        id,
        reason: 'customer',
        item_ids: [second?.id as number],
        requested_by: 'shop',
        requested_at: '2026-01-02 10:00:00',
        status,
        message: status === 'open' ? null : 'no',
        answered_by: null,
        answered_at: null,
      });
      const requested = await update(accepted, (o) => ({
        ...o,
        cancellation_requests: [request(1, 'rejected'), request(2, 'open')],
      }));
      const rows = await read((tx) => tx.ordersAwaitingCancellation(store.id, 10));
      expect(rows).toEqual([
        {
          fulfillment_order_number: requested.fulfillment_order_number,
          sales_order_number: requested.sales_order_number,
          warehouse_code: 'WH-A',
          cancellation_requests: requested.cancellation_requests,
          lines: [{ item_id: second?.id, sku: second?.sku, qty: second?.qty }],
        },
      ]);
      await update(requested, (o) => ({
        ...o,
        cancellation_requests: [request(1, 'rejected'), request(2, 'accepted')],
      }));
      expect(await read((tx) => tx.ordersAwaitingCancellation(store.id, 10))).toEqual([]);
    });
  });
}
