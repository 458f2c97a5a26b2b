import { describe, expect, it } from 'vitest';
import {
  accept,
  allocate,
  type FulfillmentOrder,
  findInvariantViolations,
  type InvariantRule,
  invoice,
  type StockLevel,
  ship,
  toMoney,
} from '../src/index.js';
import { fixtures } from '../src/testing/index.js';
import { context, line, order } from './support/order.js';

const stockRow = (sku: string, reserved: number, on_hand = 10): StockLevel => ({
  warehouse_code: 'WH-A',
  sku,
  on_hand,
  reserved,
});

/**
 * An order taken through the real domain actions: item 1 shipped and invoiced, item 2
 * allocated (holding 2 of SKU-2), item 3 turned down at accept.
 */
function consistentOrder(): FulfillmentOrder {
  let current = order([line(1), line(2), line(3)], { allow_partial: true });
  const step = (next: { order: FulfillmentOrder }) => {
    current = next.order;
  };
  step(
    accept(
      current,
      {
        order_id: '100001-1',
        items: [
          { item_id: 1, qty: 2 },
          { item_id: 2, qty: 2 },
          { item_id: 3, qty: 0 },
        ],
      },
      context(),
    ),
  );
  step(
    allocate(
      current,
      { order_id: '100001-1', items: [{ item_id: 1 }, { item_id: 2 }] },
      {
        ...context(),
        warehouses: [fixtures.warehouse(1, 'WH-A')],
      },
    ),
  );
  step(ship(current, { order_id: '100001-1', items: [{ item_id: 1 }] }, context()));
  step(
    invoice(
      current,
      {
        order_id: '100001-1',
        items: [{ item_id: 1 }],
        invoice_number: 'INV-1',
        shipping_amount_incl_tax: toMoney(5),
      },
      context(),
    ),
  );
  return current;
}

const consistentStock = (): StockLevel[] => [stockRow('SKU-1', 0, 8), stockRow('SKU-2', 2)];

/** The first element; the fixture always has one. */
function firstOf<T>(list: readonly T[]): T {
  const [head] = list;
  if (head === undefined) throw new Error('the fixture has no such record');
  return head;
}

const rulesOf = (orders: FulfillmentOrder[], stock: StockLevel[]): InvariantRule[] =>
  findInvariantViolations(orders, stock).map((violation) => violation.rule);

/** The consistent order with one item replaced. */
function withItem(id: number, change: Partial<FulfillmentOrder['items'][number]>) {
  const base = consistentOrder();
  return {
    ...base,
    items: base.items.map((item) => (item.id === id ? { ...item, ...change } : item)),
  };
}

describe('findInvariantViolations', () => {
  it('finds nothing in state the domain actions produced', () => {
    const stored = consistentOrder();
    expect(stored.items.map((item) => item.status)).toEqual([
      'invoiced',
      'pending_shipment',
      'rejected',
    ]);
    expect(findInvariantViolations([stored], consistentStock())).toEqual([]);
  });

  it('reserved must equal the accepted, unshipped quantity per (warehouse, sku)', () => {
    const violations = findInvariantViolations(
      [consistentOrder()],
      [stockRow('SKU-1', 0, 8), stockRow('SKU-2', 3)],
    );
    expect(violations).toEqual([
      {
        rule: 'reserved_matches_orders',
        subject: 'stock WH-A/SKU-2',
        message: 'reserved is 3; accepted, unshipped items hold 2',
      },
    ]);
  });

  it('a reservation held by an order needs a stock row; a row reserving for no order is wrong', () => {
    expect(rulesOf([consistentOrder()], [stockRow('SKU-1', 0)])).toEqual([
      'reserved_matches_orders',
    ]);
    expect(rulesOf([], [stockRow('SKU-9', 1)])).toEqual(['reserved_matches_orders']);
  });

  it('a reservation released twice (negative reserved) is reported', () => {
    expect(rulesOf([], [stockRow('SKU-1', -1)])).toEqual([
      'reserved_non_negative',
      'reserved_matches_orders',
    ]);
  });

  it('an abandoned order holds nothing; a failed one still holds its reservations', () => {
    const failure = { stage: 'shipment' as const, reason: 'x', failed_at: '2026-03-01 12:00:00' };
    const failed = { ...consistentOrder(), status: 'failed' as const };
    expect(
      rulesOf([{ ...failed, failure: { ...failure, abandoned: false } }], consistentStock()),
    ).toEqual([]);
    expect(
      rulesOf([{ ...failed, failure: { ...failure, abandoned: true } }], consistentStock()),
    ).toEqual(['reserved_matches_orders']);
  });

  it('the stored status must be the one derived from the items', () => {
    const stored = { ...consistentOrder(), status: 'pending_invoice' as const };
    expect(findInvariantViolations([stored], consistentStock())).toEqual([
      {
        rule: 'status_derivation',
        subject: 'order 100001-1',
        message: 'status is pending_invoice; its items make it partially_shipped',
      },
    ]);
  });

  it('item lines have positive integer quantities and distinct ids', () => {
    expect(rulesOf([withItem(3, { qty: 0 })], consistentStock())).toEqual(['item_lines']);
    expect(rulesOf([withItem(3, { id: 2 })], consistentStock())).toEqual(['item_lines']);
  });

  it('a shipped stage needs a shipment, and a shipment a shipped stage', () => {
    // Item 2 claims to be shipped with no shipment; the reservation it held is gone too.
    expect(rulesOf([withItem(2, { status: 'pending_invoice' })], [stockRow('SKU-1', 0)])).toEqual([
      'status_derivation',
      'stage_matches_shipments',
    ]);
    const base = consistentOrder();
    const unshipped = {
      ...base,
      items: base.items.map((item) =>
        item.id === 1
          ? { ...item, status: 'pending_shipment' as const, invoice_number: null }
          : item,
      ),
      invoices: [],
      invoiced_at: null,
      status: 'pending_shipment' as const,
    };
    expect(rulesOf([unshipped], [stockRow('SKU-1', 2), stockRow('SKU-2', 2)])).toEqual([
      'stage_matches_shipments',
    ]);
  });

  it('shipments never exceed the ordered quantity nor name items of other orders', () => {
    const base = consistentOrder();
    const twice = { ...base, shipments: [...base.shipments, ...base.shipments] };
    expect(rulesOf([twice], consistentStock())).toEqual(['shipped_within_ordered']);
    const stray = {
      ...base,
      shipments: [
        ...base.shipments,
        { ...firstOf(base.shipments), items: [{ item_id: 99, qty: 1 }] },
      ],
    };
    expect(rulesOf([stray], consistentStock())).toEqual(['shipped_within_ordered']);
  });

  it('invoices cover only shipped items, each once, under the number the item records', () => {
    const base = consistentOrder();
    const first = firstOf(base.invoices);
    const unshippedInvoiced = { ...base, invoices: [{ ...first, item_ids: [1, 2] }] };
    expect(rulesOf([unshippedInvoiced], consistentStock())).toEqual(['invoices_cover_shipped']);
    const twice = { ...base, invoices: [first, { ...first, invoice_number: 'INV-2' }] };
    expect(rulesOf([twice], consistentStock())).toEqual([
      'invoices_cover_shipped',
      'invoices_cover_shipped',
    ]);
    const lost = { ...base, invoices: [] };
    expect(rulesOf([lost], consistentStock())).toEqual(['invoices_cover_shipped', 'timestamps']);
    const renumbered = withItem(1, { invoice_number: 'INV-9' });
    expect(rulesOf([renumbered], consistentStock())).toEqual(['invoices_cover_shipped']);
  });

  it('shipped_at and invoiced_at are set exactly when a shipment and an invoice exist', () => {
    expect(rulesOf([{ ...consistentOrder(), shipped_at: null }], consistentStock())).toEqual([
      'timestamps',
    ]);
    const fresh = order([line(1)]);
    const held = [{ warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 5, reserved: 2 }];
    expect(rulesOf([{ ...fresh, invoiced_at: '2026-03-01 12:00:00' }], held)).toEqual([
      'timestamps',
    ]);
  });
});
