import { describe, expect, it } from 'vitest';
import {
  assertValidStockBatch,
  byPriority,
  defaultRouter,
  parseWith,
  type RoutingContext,
  rerouteTarget,
  SalesOrderInput,
  type Warehouse,
} from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';
import { line } from './support/order.js';

const warehouse = (code: string, priority: number, extra: Partial<Warehouse> = {}): Warehouse => ({
  store_id: 1,
  code,
  name: code,
  active: true,
  fulfilled_by: 'partner',
  priority,
  ...extra,
});

function routing(
  stock: Record<string, number>,
  warehouses = [warehouse('WH-A', 10), warehouse('WH-B', 5), warehouse('WH-C', 1)],
): RoutingContext {
  return {
    warehouses: byPriority(warehouses),
    available: (code, sku) => stock[`${code}/${sku}`] ?? 0,
  };
}

describe('docs/behaviour.md: reroute', () => {
  it('goes to the highest-priority other active warehouse with enough available stock', () => {
    const item = line(1, { qty: 2, rejected_by: ['WH-A'] });
    expect(
      rerouteTarget(item, routing({ 'WH-A/SKU-1': 9, 'WH-B/SKU-1': 1, 'WH-C/SKU-1': 2 }))?.code,
    ).toBe('WH-C');
  });

  it('never goes back to a warehouse that already rejected the line', () => {
    const item = line(1, { qty: 1, rejected_by: ['WH-A', 'WH-B'] });
    expect(rerouteTarget(item, routing({ 'WH-B/SKU-1': 5 }))).toBeNull();
  });

  it('skips inactive warehouses and leaves the line rejected without a target', () => {
    const item = line(1, { qty: 1, rejected_by: ['WH-A'] });
    const context = routing({ 'WH-B/SKU-1': 5 }, [
      warehouse('WH-A', 10),
      warehouse('WH-B', 5, { active: false }),
    ]);
    expect(rerouteTarget(item, context)).toBeNull();
  });
});

describe('the default router', () => {
  const salesOrder = (items: { sku: string; qty: number }[], warehouse_code?: string) =>
    parseWith(SalesOrderInput, {
      sales_order_id: 1,
      sales_order_number: '1',
      warehouse_code,
      customer_firstname: 'A',
      customer_lastname: 'B',
      customer_email: 'a@b.c',
      customer_is_guest: true,
      payment: { method_code: 'c', method_name: 'C' },
      shipping: { method_code: 's', method_name: 'S', internal_method_code: 's' },
      billing_address: {
        firstname: '',
        lastname: '',
        email: '',
        street: '',
        city: '',
        postcode: '',
        region: '',
        country_id: '',
        telephone: '',
        company: '',
        vat_id: '',
      },
      shipping_address: {
        firstname: '',
        lastname: '',
        email: '',
        street: '',
        city: '',
        postcode: '',
        region: '',
        country_id: '',
        telephone: '',
        company: '',
        vat_id: '',
      },
      items: items.map((item) => ({ ...item, name: item.sku })),
    });

  it('honours a pinned warehouse_code', () => {
    expect(defaultRouter(salesOrder([{ sku: 'X', qty: 1 }], 'WH-C'), routing({}))).toEqual([
      { warehouse_code: 'WH-C', lines: [0] },
    ]);
  });

  it('prefers the highest-priority warehouse that can fill the whole order', () => {
    const stock = { 'WH-A/X': 1, 'WH-B/X': 5, 'WH-B/Y': 5 };
    expect(
      defaultRouter(
        salesOrder([
          { sku: 'X', qty: 2 },
          { sku: 'Y', qty: 1 },
        ]),
        routing(stock),
      ),
    ).toEqual([{ warehouse_code: 'WH-B', lines: [0, 1] }]);
  });

  it('splits by line when no warehouse can fill everything; unfillable lines go to the top warehouse', () => {
    const stock = { 'WH-B/X': 5, 'WH-C/Y': 5 };
    expect(
      defaultRouter(
        salesOrder([
          { sku: 'X', qty: 1 },
          { sku: 'Y', qty: 1 },
          { sku: 'Z', qty: 1 },
        ]),
        routing(stock),
      ),
    ).toEqual([
      { warehouse_code: 'WH-B', lines: [0] },
      { warehouse_code: 'WH-C', lines: [1] },
      { warehouse_code: 'WH-A', lines: [2] },
    ]);
  });
});

describe('docs/behaviour.md: a stock batch is atomic', () => {
  const batch = (entries: { warehouse_code: string; sku: string; qty: number }[]) => ({
    stock_items: entries,
  });

  it('rejects the whole batch naming an unknown or out-of-scope warehouse', () => {
    expectDomainError(
      () =>
        assertValidStockBatch(
          batch([
            { warehouse_code: 'WH-A', sku: 'S', qty: 1 },
            { warehouse_code: 'WH-Z', sku: 'S', qty: 1 },
          ]),
          new Set(['WH-A']),
        ),
      'invalid_stock_batch',
      'stock_items[1].warehouse_code',
    );
  });

  it('rejects the same warehouse_code + sku twice, naming the repeat', () => {
    expectDomainError(
      () =>
        assertValidStockBatch(
          batch([
            { warehouse_code: 'WH-A', sku: 'S', qty: 1 },
            { warehouse_code: 'WH-A', sku: 'S', qty: 2 },
          ]),
          new Set(['WH-A']),
        ),
      'invalid_stock_batch',
      'stock_items[1]',
    );
  });
});
