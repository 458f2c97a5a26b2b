import { describe, expect, it } from 'vitest';
import { allocate, ship, type Warehouse } from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';
import { context, LATER, line, order } from './support/order.js';

const warehouses: Warehouse[] = [
  { store_id: 1, code: 'WH-A', name: 'A', active: true, fulfilled_by: 'partner', priority: 10 },
  { store_id: 1, code: 'WH-B', name: 'B', active: true, fulfilled_by: 'partner', priority: 5 },
  { store_id: 1, code: 'WH-C', name: 'C', active: true, fulfilled_by: 'courier', priority: 1 },
  { store_id: 1, code: 'WH-X', name: 'X', active: false, fulfilled_by: 'partner', priority: 1 },
];
const allocation = (items: { item_id: number; warehouse_code?: string }[]) => ({
  order_id: '100001-1',
  items,
});
const shipment = (items: { item_id: number }[], extra = {}) => ({
  order_id: '100001-1',
  items,
  ...extra,
});
const allocated = (...ids: number[]) => ids.map((id) => line(id, { status: 'pending_allocation' }));
const toShip = (...ids: number[]) => ids.map((id) => line(id, { status: 'pending_shipment' }));

describe('POST allocate', () => {
  it('moves the listed items to pending_shipment and stamps allocated_at', () => {
    const outcome = allocate(order(allocated(1, 2)), allocation([{ item_id: 1 }, { item_id: 2 }]), {
      ...context(),
      warehouses,
    });
    expect(outcome.order.status).toBe('pending_shipment');
    expect(outcome.order.allocated_at).toBe(LATER);
    expect(outcome.stock).toEqual([]);
  });

  it('docs/behaviour.md: a subset is 400 without partials and partially_allocated with them', () => {
    expectDomainError(
      () =>
        allocate(order(allocated(1, 2)), allocation([{ item_id: 1 }]), {
          ...context(),
          warehouses,
        }),
      'partial_not_allowed',
    );
    const outcome = allocate(order(allocated(1, 2)), allocation([{ item_id: 1 }]), {
      ...context({ partial_items: true }),
      warehouses,
    });
    expect(outcome.order.status).toBe('partially_allocated');
  });

  it('a per-item warehouse_code is an inter-warehouse transfer: the reservation moves with the item', () => {
    const outcome = allocate(
      order(allocated(1)),
      allocation([{ item_id: 1, warehouse_code: 'WH-B' }]),
      { ...context(), warehouses },
    );
    expect(outcome.order.items[0]).toMatchObject({
      status: 'pending_shipment',
      warehouse_code: 'WH-B',
    });
    expect(outcome.order.warehouse_code).toBe('WH-A');
    expect(outcome.stock).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 0, reserved: -2 },
      { warehouse_code: 'WH-B', sku: 'SKU-1', on_hand: 0, reserved: 2 },
    ]);
  });

  it('a transfer from an inactive or unknown warehouse is 400', () => {
    expectDomainError(
      () =>
        allocate(order(allocated(1)), allocation([{ item_id: 1, warehouse_code: 'WH-X' }]), {
          ...context(),
          warehouses,
        }),
      'invalid_request',
      'allocation.items[0].warehouse_code',
    );
  });

  it('allocating an item still in pending_accept is 400 (wrong stage)', () => {
    expectDomainError(
      () => allocate(order([line(1)]), allocation([{ item_id: 1 }]), { ...context(), warehouses }),
      'wrong_stage',
      'allocation.items[0].item_id',
    );
  });

  it('docs/behaviour.md: allocating again from another warehouse contradicts what was applied: 400', () => {
    const transferred = order([line(1, { status: 'pending_shipment', warehouse_code: 'WH-B' })]);
    expectDomainError(
      () =>
        allocate(transferred, allocation([{ item_id: 1, warehouse_code: 'WH-A' }]), {
          ...context(),
          warehouses,
        }),
      'conflicts_with_applied',
      'allocation.items[0].warehouse_code',
    );
    expect(
      allocate(transferred, allocation([{ item_id: 1, warehouse_code: 'WH-B' }]), {
        ...context(),
        warehouses,
      }).changed,
    ).toBe(false);
  });

  it('allocating again is a no-op', () => {
    expect(
      allocate(order(toShip(1)), allocation([{ item_id: 1 }]), { ...context(), warehouses })
        .changed,
    ).toBe(false);
  });

  it('docs/behaviour.md: an order of a courier warehouse becomes due for the courier', () => {
    const courierOrder = order(allocated(1), { warehouse_code: 'WH-C' });
    const outcome = allocate(courierOrder, allocation([{ item_id: 1 }]), {
      ...context(),
      warehouses,
    });
    expect(outcome.order.courier.next_attempt_at).toBe(LATER);
  });
});

describe('POST ship', () => {
  it('states table: all items listed move the order to pending_invoice; stock leaves on hand and the reservation', () => {
    const outcome = ship(
      order(toShip(1, 2)),
      shipment([{ item_id: 1 }, { item_id: 2 }]),
      context(),
    );
    expect(outcome.order.status).toBe('pending_invoice');
    expect(outcome.order.shipped_at).toBe(LATER);
    expect(outcome.stock).toContainEqual({
      warehouse_code: 'WH-A',
      sku: 'SKU-1',
      on_hand: -2,
      reserved: -2,
    });
  });

  it('states rule 3: a subset without partials is 400', () => {
    expectDomainError(
      () => ship(order(toShip(1, 2)), shipment([{ item_id: 1 }]), context()),
      'partial_not_allowed',
      'shipment.items',
    );
  });

  it('states table: with partials a subset ships, the rest waits, the order is partially_shipped', () => {
    const outcome = ship(
      order(toShip(1, 2)),
      shipment([{ item_id: 2 }]),
      context({ partial_items: true }),
    );
    expect(outcome.order.items.map((item) => item.status)).toEqual([
      'pending_shipment',
      'pending_invoice',
    ]);
    expect(outcome.order.status).toBe('partially_shipped');
  });

  it('docs/behaviour.md: tracks are kept per shipment; carrier_tracking_number + carrier_title is one more track', () => {
    const outcome = ship(
      order(toShip(1)),
      shipment([{ item_id: 1 }], {
        tracks: [{ carrier_code: 'dhl', title: 'DHL', track_number: 'D1' }],
        carrier_tracking_number: 'U1',
        carrier_title: 'UPS',
      }),
      context(),
    );
    expect(outcome.order.shipments).toEqual([
      {
        id: 0,
        items: [{ item_id: 1, qty: 2 }],
        tracks: [
          { carrier_code: 'dhl', title: 'DHL', track_number: 'D1' },
          { carrier_code: 'UPS', title: 'UPS', track_number: 'U1' },
        ],
        created_at: LATER,
      },
    ]);
  });

  it('states rule 1: retrying an applied shipment returns the current state and changes nothing', () => {
    const shipped = order([line(1, { status: 'pending_invoice' })]);
    const outcome = ship(shipped, shipment([{ item_id: 1 }]), context());
    expect(outcome.changed).toBe(false);
    expect(outcome.order).toBe(shipped);
  });

  it('shipping an item not yet allocated is 400 (wrong stage)', () => {
    expectDomainError(
      () => ship(order(allocated(1)), shipment([{ item_id: 1 }]), context()),
      'wrong_stage',
    );
  });

  it('shipping a rejected item is 400', () => {
    expectDomainError(
      () =>
        ship(
          order([line(1, { status: 'rejected' }), ...toShip(2)]),
          shipment([{ item_id: 1 }, { item_id: 2 }]),
          context(),
        ),
      'conflicts_with_applied',
    );
  });
});
