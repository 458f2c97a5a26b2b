import { describe, expect, it } from 'vitest';
import { AcceptRequest, accept, parseWith, reject, toMoney } from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';
import { context, LATER, line, order } from './support/order.js';

const input = (items: { item_id: number; qty: number }[]) => ({ order_id: '100001-1', items });

describe('POST accept', () => {
  it('accept rule 1: qty equal to the ordered qty accepts the item, reserved since it was routed', () => {
    const outcome = accept(
      order([line(1), line(2)]),
      input([
        { item_id: 1, qty: 2 },
        { item_id: 2, qty: 2 },
      ]),
      context(),
    );
    expect(outcome.order.items.map((item) => item.status)).toEqual([
      'pending_allocation',
      'pending_allocation',
    ]);
    expect(outcome.order.status).toBe('pending_allocation');
    expect(outcome.order.updated_at).toBe(LATER);
    expect(outcome.stock).toEqual([]);
  });

  it('accept rule 1: a qty other than ordered is 400 without partial quantities', () => {
    expectDomainError(
      () =>
        accept(order([line(1)]), input([{ item_id: 1, qty: 1 }]), context({ partial_items: true })),
      'qty_mismatch',
      'order.items[0].qty',
    );
  });

  it('accept rule 1: a qty above the ordered qty is 400 even with partial quantities', () => {
    expectDomainError(
      () =>
        accept(order([line(1)]), input([{ item_id: 1, qty: 3 }]), context({ partial_qty: true })),
      'qty_mismatch',
      'order.items[0].qty',
    );
  });

  it('docs/behaviour.md: a smaller qty with partial quantities accepts it and splits the rest off as a rejected line', () => {
    const outcome = accept(
      order([line(1, { qty: 3 })]),
      input([{ item_id: 1, qty: 1 }]),
      context({ partial_qty: true }),
    );
    const [kept, rest] = outcome.order.items;
    expect(kept).toMatchObject({ id: 1, qty: 1, status: 'pending_allocation' });
    expect(kept?.amounts.total_price).toBe(toMoney(10));
    expect(rest).toMatchObject({ id: 0, qty: 2, status: 'rejected', rejected_by: ['WH-A'] });
    expect(rest?.amounts.total_price).toBe(toMoney(20));
    expect(outcome.rejected).toEqual([rest]);
    // The rest turned down frees its share of the reservation taken when the line was routed.
    expect(outcome.stock).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 0, reserved: -2 },
    ]);
  });

  it('docs/behaviour.md: the order allow_partial grants partial quantities without the store setting', () => {
    const outcome = accept(
      order([line(1, { qty: 3 })], { allow_partial: true }),
      input([{ item_id: 1, qty: 2 }]),
      context(),
    );
    expect(outcome.order.items.map((item) => item.qty)).toEqual([2, 1]);
  });

  it('accept rule 2: qty 0 rejects the item and hands it to rerouting', () => {
    const outcome = accept(
      order([line(1), line(2)]),
      input([
        { item_id: 1, qty: 2 },
        { item_id: 2, qty: 0 },
      ]),
      context(),
    );
    expect(outcome.order.items.map((item) => item.status)).toEqual([
      'pending_allocation',
      'rejected',
    ]);
    expect(outcome.rejected.map((item) => item.id)).toEqual([2]);
    expect(outcome.stock).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-2', on_hand: 0, reserved: -2 },
    ]);
  });

  it('accept rule 3: accepted and rejected entries mix in one call', () => {
    const outcome = accept(
      order([line(1), line(2), line(3)]),
      input([
        { item_id: 1, qty: 0 },
        { item_id: 2, qty: 2 },
        { item_id: 3, qty: 0 },
      ]),
      context(),
    );
    expect(outcome.order.items.map((item) => item.status)).toEqual([
      'rejected',
      'pending_allocation',
      'rejected',
    ]);
    expect(outcome.order.status).toBe('pending_allocation');
  });

  it('accept rule 4 / states rule 3: omitted items are 400 when partials are not enabled', () => {
    expectDomainError(
      () => accept(order([line(1), line(2)]), input([{ item_id: 1, qty: 2 }]), context()),
      'partial_not_allowed',
      'order.items',
    );
  });

  it('accept rule 4: omitted items stay in pending_accept when partials are enabled; the order is partially_accepted', () => {
    const outcome = accept(
      order([line(1), line(2)]),
      input([{ item_id: 1, qty: 2 }]),
      context({ partial_items: true }),
    );
    expect(outcome.order.items.map((item) => item.status)).toEqual([
      'pending_allocation',
      'pending_accept',
    ]);
    expect(outcome.order.status).toBe('partially_accepted');
  });

  it('states rule 2: allow_partial false on the order overrides the store setting', () => {
    expectDomainError(
      () =>
        accept(
          order([line(1), line(2)], { allow_partial: false }),
          input([{ item_id: 1, qty: 2 }]),
          context({ partial_items: true }),
        ),
      'partial_not_allowed',
    );
  });

  it('states rule 2: allow_partial true on the order enables partials without the store setting', () => {
    const outcome = accept(
      order([line(1), line(2)], { allow_partial: true }),
      input([{ item_id: 1, qty: 2 }]),
      context(),
    );
    expect(outcome.order.status).toBe('partially_accepted');
  });

  it('accept rule 5: an item_id of another order is 400', () => {
    expectDomainError(
      () => accept(order([line(1)]), input([{ item_id: 99, qty: 2 }]), context()),
      'unknown_item',
      'order.items[0].item_id',
    );
  });

  it('a fractional qty is 400, before any order is looked up', () => {
    expectDomainError(
      () =>
        parseWith(AcceptRequest, { order: { order_id: '1-1', items: [{ item_id: 1, qty: 1.5 }] } }),
      'invalid_request',
      'order.items[0].qty',
    );
  });

  it('states rule 1 / docs/behaviour.md: accepting again is a no-op that changes nothing, not even updated_at', () => {
    const accepted = order([line(1, { status: 'pending_allocation' })]);
    const outcome = accept(accepted, input([{ item_id: 1, qty: 2 }]), context());
    expect(outcome.changed).toBe(false);
    expect(outcome.order).toBe(accepted);
    expect(outcome.stock).toEqual([]);
  });

  it('docs/behaviour.md: accepting a rejected item contradicts what was applied: 400', () => {
    expectDomainError(
      () =>
        accept(
          order([line(1, { status: 'rejected' }), line(2)]),
          input([
            { item_id: 1, qty: 2 },
            { item_id: 2, qty: 2 },
          ]),
          context(),
        ),
      'conflicts_with_applied',
      'order.items[0].item_id',
    );
  });

  it('docs/behaviour.md: accepting again with another qty contradicts what was applied: 400', () => {
    expectDomainError(
      () =>
        accept(
          order([line(1, { status: 'pending_allocation' })]),
          input([{ item_id: 1, qty: 1 }]),
          context({ partial_qty: true }),
        ),
      'conflicts_with_applied',
      'order.items[0].qty',
    );
  });

  it('docs/behaviour.md: any action on a failed order is 400', () => {
    const failed = order([line(1)], {
      failure: { stage: 'allocation', reason: 'x', abandoned: false, failed_at: LATER },
    });
    expectDomainError(
      () => accept(failed, input([{ item_id: 1, qty: 2 }]), context()),
      'order_failed',
      'order.order_id',
    );
  });
});

describe('POST reject', () => {
  it('rejects the listed items and hands them to rerouting', () => {
    const outcome = reject(
      order([line(1), line(2)]),
      { order_id: '100001-1', items: [{ item_id: 1 }, { item_id: 2 }] },
      context(),
    );
    expect(outcome.order.status).toBe('rejected');
    expect(outcome.rejected.map((item) => item.rejected_by)).toEqual([['WH-A'], ['WH-A']]);
  });

  it('rejecting again is a no-op; rejecting an accepted item is 400', () => {
    const rejected = order([line(1, { status: 'rejected' })]);
    expect(
      reject(rejected, { order_id: '100001-1', items: [{ item_id: 1 }] }, context()).changed,
    ).toBe(false);
    expectDomainError(
      () =>
        reject(
          order([line(1, { status: 'pending_allocation' })]),
          { order_id: '100001-1', items: [{ item_id: 1 }] },
          context(),
        ),
      'conflicts_with_applied',
    );
  });
});
