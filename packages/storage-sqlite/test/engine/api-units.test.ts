import {
  type CreateShipmentRequest,
  createEngine,
  defaultRouter,
  type Engine,
  ManualClock,
  type Router,
  simulatedCourier,
} from '@fulfil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';
import { salesOrder } from './harness.js';

/**
 * Money is kept in exact ten-thousandths inside the engine; everything the engine hands out is in
 * the API's units (docs/api.md): the audit trail, and what a custom router or courier receives.
 * The order below costs 10 a unit with 5 of shipping.
 */

let engine: Engine;
afterEach(() => engine.close());

async function open(options: { router?: Router; courier?: CreateShipmentRequest[] } = {}) {
  const seen = options.courier;
  engine = createEngine({
    repository: await openSqliteRepository({ filename: ':memory:' }),
    clock: new ManualClock('2026-04-01T09:00:00Z'),
    ...(options.router ? { router: options.router } : {}),
    couriers: {
      spy: (settings, account) => {
        const simulated = simulatedCourier(settings, account);
        return {
          ...simulated,
          async createShipment(request, options) {
            seen?.push(request);
            return simulated.createShipment(request, options);
          },
        };
      },
    },
    carrierAccounts: { spy: { type: 'spy' } },
  });
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        settings: { courier: { account: 'spy' } },
        warehouses: [
          { code: 'WH-A', name: 'A', priority: 10 },
          { code: 'WH-C', name: 'Courier', fulfilled_by: 'courier', priority: 1 },
        ],
        stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 }],
      },
    ],
  });
  return engine;
}

describe('amounts the engine hands out are in API units', () => {
  it('the invoice audit entry records shipping_amount_incl_tax as the history shows it', async () => {
    await open();
    const [order] = await engine.intake(
      'default',
      salesOrder('600', [{ sku: 'SKU-1', qty: 2 }], { warehouse_code: 'WH-A' }),
    );
    const order_id = order?.fulfillment_order_number as string;
    const items = [{ item_id: order?.items[0]?.id as number, qty: 2 }];
    const operator = engine.operator('default');
    await engine.accept(operator, { order: { order_id, items } });
    await engine.allocate(operator, { allocation: { order_id, items } });
    await engine.ship(operator, { shipment: { order_id, items } });
    await engine.invoice(operator, {
      invoice: { order_id, items, invoice_number: 'INV-600', shipping_amount_incl_tax: 5 },
    });
    const history = await engine.getOrderHistory('default', order_id);
    expect(history.invoices[0]?.shipping_amount_incl_tax).toBe(5);
    const entry = history.audit.find((event) => event.action === 'invoice');
    expect(entry?.details).toMatchObject({ shipping_amount_incl_tax: 5 });
  });

  it('a custom router sees the sales order as it was sent', async () => {
    const routed: unknown[] = [];
    await open({
      router: (order, context) => {
        routed.push(order);
        return defaultRouter(order, context);
      },
    });
    const sent = salesOrder('601', [{ sku: 'SKU-1', qty: 2 }]);
    await engine.intake('default', sent);
    expect(routed[0]).toMatchObject({
      shipping_amount: 5,
      grand_total: sent.grand_total,
      items: [{ price: 10, total_price: 20, tax_rate: 22 }],
    });
  });

  it('a courier is handed the order and its lines as the API shows them', async () => {
    const requests: CreateShipmentRequest[] = [];
    await open({ courier: requests });
    const [order] = await engine.intake(
      'default',
      salesOrder('602', [{ sku: 'SKU-1', qty: 2 }], { warehouse_code: 'WH-C' }),
    );
    const order_id = order?.fulfillment_order_number as string;
    const items = [{ item_id: order?.items[0]?.id as number }];
    await engine.allocate(engine.operator('default'), { allocation: { order_id, items } });
    await engine.dispatchCourier();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.order).toMatchObject({ shipping_amount: 5, package_value: 20 });
    expect(requests[0]?.parcel).toMatchObject({
      index: 1,
      count: 1,
      items: [{ sku: 'SKU-1', qty: 2, price: 10, total_price: 20 }],
    });
  });
});
