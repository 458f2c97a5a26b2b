import { describe, expect, it } from 'vitest';
import { presentOrder, queuesOf } from '../src/index.js';
import { line, order } from './support/order.js';

const mixed = order([
  line(1, { status: 'pending_shipment' }),
  line(2, { status: 'pending_invoice', warehouse_code: 'WH-B' }),
  line(3, { status: 'rejected' }),
]);

describe('docs/behaviour.md: queues and what they show', () => {
  it('an order is in every queue one of its live items is in; a failed order only in failed', () => {
    expect(queuesOf(mixed)).toEqual(['pending_shipment', 'pending_invoice']);
    expect(
      queuesOf({
        ...mixed,
        failure: {
          stage: 'shipment',
          reason: 'x',
          abandoned: false,
          failed_at: '2026-01-01 00:00:00',
        },
      }),
    ).toEqual(['failed']);
    expect(queuesOf(order([line(1, { status: 'invoiced' })]))).toEqual([]);
  });

  it("a queue response shows only the items in the queue's stage; failed shows all live items", () => {
    expect(presentOrder(mixed, { queue: 'pending_shipment' }).items.map((item) => item.id)).toEqual(
      [1],
    );
    expect(presentOrder(mixed, { queue: 'failed' }).items.map((item) => item.id)).toEqual([1, 2]);
    expect(presentOrder(mixed, 'whole').items.map((item) => item.id)).toEqual([1, 2, 3]);
  });

  it('pending_accept and failed omit every price and amount, of the order and its items', () => {
    for (const queue of ['pending_accept', 'failed'] as const) {
      const shown = presentOrder(order([line(1)]), { queue });
      expect(shown).not.toHaveProperty('shipping_amount');
      expect(shown).not.toHaveProperty('grand_total');
      expect(shown.items[0]).not.toHaveProperty('price');
      expect(shown.items[0]).not.toHaveProperty('total_price');
    }
  });

  it('other queues and action responses carry prices as numbers', () => {
    const shown = presentOrder(mixed, { queue: 'pending_shipment' });
    expect(shown.shipping_amount).toBe(5);
    expect(shown.items[0]?.price_excl_tax).toBe(8.2);
  });

  it('item warehouse_code is present everywhere except pending_invoice, where it is order-level only', () => {
    expect(presentOrder(mixed, { queue: 'pending_shipment' }).items[0]?.warehouse_code).toBe(
      'WH-A',
    );
    expect(presentOrder(mixed, { queue: 'pending_invoice' }).items[0]).not.toHaveProperty(
      'warehouse_code',
    );
    expect(presentOrder(mixed, { queue: 'pending_invoice' }).warehouse_code).toBe('WH-A');
  });

  it('absent optional timestamps are omitted, present ones kept in the API format', () => {
    const shown = presentOrder({ ...mixed, allocated_at: '2026-03-01 10:00:00' }, 'whole');
    expect(shown.allocated_at).toBe('2026-03-01 10:00:00');
    expect(shown).not.toHaveProperty('shipped_at');
  });
});
