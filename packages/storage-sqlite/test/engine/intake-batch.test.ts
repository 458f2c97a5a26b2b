import { type IntakeOutcome, unverified } from '@fulfil/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, openHarness, salesOrder } from './harness.js';

/** An outcome as a short line, to compare whole batches at a glance. */
function summary(outcome: IntakeOutcome): string {
  switch (outcome.outcome) {
    case 'created':
      return `${outcome.sales_order_number} created ${outcome.fulfillment_orders
        .map((order) => `${order.fulfillment_order_number}@${order.warehouse_code}`)
        .join(' ')}`;
    case 'exists':
      return `${outcome.sales_order_number} exists`;
    case 'refused':
      return `${outcome.sales_order_number} refused ${outcome.error.code}`;
  }
}

describe('engine.intakeBatch', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(async () => {
    await h.engine.close();
  });

  it('answers one outcome per order; refused ones never roll back the others', async () => {
    await h.engine.intake('default', salesOrder('700', [{ sku: 'SKU-1', qty: 1 }]));
    const invalid = salesOrder('703', [{ sku: 'SKU-1', qty: 1 }]);
    invalid.items[0] = { ...invalid.items[0], qty: 0 } as (typeof invalid.items)[0];

    const outcomes = await h.engine.intakeBatch('default', [
      salesOrder('701', [{ sku: 'SKU-1', qty: 2 }]),
      salesOrder('700', [{ sku: 'SKU-1', qty: 1 }]),
      invalid,
      salesOrder('704', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-NOPE' }),
      unverified({ not: 'a sales order' }),
      // Lines routed apart: SKU-3 only WH-B has.
      salesOrder('705', [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-3', qty: 1 },
      ]),
      // The same sales order twice in one batch: the second is kept, as on a second import.
      salesOrder('701', [{ sku: 'SKU-1', qty: 2 }]),
      salesOrder('706', [{ sku: 'SKU-2', qty: 1 }], { warehouse_code: 'WH-C' }),
    ]);

    expect(outcomes.map(summary)).toEqual([
      '701 created 701-1@WH-A',
      '700 exists',
      '703 refused invalid_request',
      '704 refused invalid_request',
      'null refused invalid_request',
      '705 created 705-1@WH-A 705-2@WH-B',
      '701 exists',
      '706 created 706-1@WH-C',
    ]);
    const refused = outcomes[2];
    expect(refused?.outcome === 'refused' && refused.error.errors[0]?.parameters).toEqual([
      { fieldName: 'items[0].qty', fieldValue: '0' },
    ]);
    // What was taken in is there; the refused left no trace.
    expect((await h.queue(h.partnerA, 'pending_accept')).map((o) => o.number)).toEqual([
      '700-1',
      '701-1',
      '705-1',
    ]);
    expect((await h.queue(h.partnerB, 'pending_accept')).map((o) => o.number)).toEqual(['705-2']);
    expect((await h.engine.getOrderHistory('default', '701-1')).audit).toEqual([
      expect.objectContaining({ actor: 'operator', action: 'intake' }),
    ]);
    await expect(h.engine.getOrder('default', '704-1')).rejects.toMatchObject({
      code: 'not_found',
    });
    // The courier line skipped pending_accept and reserved its stock at once.
    expect(await h.level('WH-C', 'SKU-2')).toEqual({ on_hand: 0, reserved: 1, available: -1 });
  });

  it('routes each order on the stock the batch has reserved so far', async () => {
    await h.engine.upsertWarehouse('default', {
      code: 'WH-C',
      name: 'Courier hub',
      priority: 20,
      fulfilled_by: 'courier',
    });
    await h.engine.syncStock(h.engine.operator('default'), {
      stock_items: [{ warehouse_code: 'WH-C', sku: 'SKU-2', qty: 3 }],
    });
    // WH-C (highest priority) can fill 3 units: the first two orders take them, the third
    // finds it empty and goes to WH-A, exactly as three single intakes would route them.
    const outcomes = await h.engine.intakeBatch(
      'default',
      ['801', '802', '803'].map((number, index) =>
        salesOrder(number, [{ sku: 'SKU-2', qty: index === 0 ? 2 : 1 }]),
      ),
    );
    expect(outcomes.map(summary)).toEqual([
      '801 created 801-1@WH-C',
      '802 created 802-1@WH-C',
      '803 created 803-1@WH-A',
    ]);
  });

  it('an unknown store fails the whole batch, writing nothing', async () => {
    const before = await h.snapshot();
    await expect(
      h.engine.intakeBatch('nope', [salesOrder('900', [{ sku: 'SKU-1', qty: 1 }])]),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await h.snapshot()).toEqual(before);
  });
});
