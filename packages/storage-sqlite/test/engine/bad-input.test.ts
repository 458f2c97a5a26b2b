import { DomainError, type ErrorCode } from '@fulfil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openHarness, salesOrder } from './harness.js';

/**
 * Bad input gets a clear error and loses nothing: for each kind of invalid request, the error
 * code and field path, and not one row changed (updated_at included).
 */
describe('invalid requests change nothing', () => {
  let h: Harness;
  const ids: Record<string, number[]> = {};

  beforeAll(async () => {
    h = await openHarness({ partial_items: false });
    const { engine, partnerA, erp } = h;
    for (const [number, stage] of [
      ['1', 'accept'],
      ['2', 'ship'],
      ['3', 'invoice'],
      ['4', 'failed'],
    ] as const) {
      const [order] = await engine.intake(
        'default',
        salesOrder(
          number,
          [
            { sku: 'SKU-1', qty: 2 },
            { sku: 'SKU-2', qty: 1 },
          ],
          { warehouse_code: 'WH-A' },
        ),
      );
      const items = order?.items.map((item) => item.id) ?? [];
      ids[number] = items;
      const id = `${number}-1`;
      if (stage === 'accept') continue;
      await engine.accept(partnerA, {
        order: {
          order_id: id,
          items: [
            { item_id: items[0], qty: 2 },
            { item_id: items[1], qty: 1 },
          ],
        },
      });
      if (stage === 'failed') {
        await engine.failOrder('default', id, 'ERP could not allocate');
        continue;
      }
      await engine.allocate(erp, {
        allocation: { order_id: id, items: items.map((item_id) => ({ item_id })) },
      });
      if (stage === 'invoice') {
        await engine.ship(partnerA, {
          shipment: { order_id: id, items: items.map((item_id) => ({ item_id })) },
        });
      }
    }
    h.clock.advance(3_600_000);
  });
  afterAll(() => h.engine.close());

  async function expectRejected(run: () => Promise<unknown>, code: ErrorCode, fieldName: string) {
    const before = await h.snapshot();
    const error = await run().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(code);
    expect((error as DomainError).parameters.map((parameter) => parameter.fieldName)).toContain(
      fieldName,
    );
    expect(await h.snapshot()).toEqual(before);
  }

  it('unknown item_id → unknown_item at order.items[1].item_id', () =>
    expectRejected(
      () =>
        h.engine.accept(h.partnerA, {
          order: {
            order_id: '1-1',
            items: [
              { item_id: ids['1']?.[0], qty: 2 },
              { item_id: 9999, qty: 1 },
            ],
          },
        }),
      'unknown_item',
      'order.items[1].item_id',
    ));

  it('a subset without partials → partial_not_allowed at order.items', () =>
    expectRejected(
      () =>
        h.engine.accept(h.partnerA, {
          order: { order_id: '1-1', items: [{ item_id: ids['1']?.[0], qty: 2 }] },
        }),
      'partial_not_allowed',
      'order.items',
    ));

  it('a qty other than ordered → qty_mismatch at order.items[0].qty', () =>
    expectRejected(
      () =>
        h.engine.accept(h.partnerA, {
          order: {
            order_id: '1-1',
            items: [
              { item_id: ids['1']?.[0], qty: 1 },
              { item_id: ids['1']?.[1], qty: 1 },
            ],
          },
        }),
      'qty_mismatch',
      'order.items[0].qty',
    ));

  it('an action in the wrong stage → wrong_stage at shipment.items[0].item_id', () =>
    expectRejected(
      () =>
        h.engine.ship(h.partnerA, {
          shipment: { order_id: '1-1', items: ids['1']?.map((item_id) => ({ item_id })) },
        }),
      'wrong_stage',
      'shipment.items[0].item_id',
    ));

  it('any action on a failed order → order_failed at shipment.order_id', () =>
    expectRejected(
      () =>
        h.engine.allocate(h.erp, {
          allocation: { order_id: '4-1', items: ids['4']?.map((item_id) => ({ item_id })) },
        }),
      'order_failed',
      'allocation.order_id',
    ));

  it('an invoice mismatch → invoice_mismatch at invoice.shipping_amount_incl_tax', () =>
    expectRejected(
      () =>
        h.engine.invoice(h.erp, {
          invoice: {
            order_id: '3-1',
            items: ids['3']?.map((item_id) => ({ item_id })),
            invoice_number: 'X',
            shipping_amount_incl_tax: 4,
          },
        }),
      'invoice_mismatch',
      'invoice.shipping_amount_incl_tax',
    ));

  it('a bad stock batch (one unknown warehouse among good entries) → invalid_stock_batch, nothing set', () =>
    expectRejected(
      () =>
        h.engine.syncStock(h.partnerA, {
          stock_items: [
            { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 77 },
            { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 1 },
          ],
        }),
      'invalid_stock_batch',
      'stock_items[1].warehouse_code',
    ));

  it('a malformed body → invalid_request at the bad field', () =>
    expectRejected(
      () =>
        h.engine.ship(h.partnerA, { shipment: { order_id: '2-1', items: [{ item_id: 'one' }] } }),
      'invalid_request',
      'shipment.items[0].item_id',
    ));

  it('an order out of the token scope looks like one that does not exist → not_found', () =>
    expectRejected(
      () =>
        h.engine.accept(h.partnerB, {
          order: { order_id: '1-1', items: ids['1']?.map((item_id) => ({ item_id, qty: 1 })) },
        }),
      'not_found',
      'order.order_id',
    ));

  it('docs/behaviour.md: a retry of an applied action is 200 and changes nothing, not even updated_at', async () => {
    const before = await h.snapshot();
    const again = await h.engine.ship(h.partnerA, {
      shipment: { order_id: '3-1', items: ids['3']?.map((item_id) => ({ item_id })) },
    });
    expect(again.status).toBe('pending_invoice');
    expect(await h.snapshot()).toEqual(before);
  });
});
