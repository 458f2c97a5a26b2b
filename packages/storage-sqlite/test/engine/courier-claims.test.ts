import {
  type CourierOutcome,
  type CreateShipmentRequest,
  createEngine,
  type Engine,
  type IssuedLabel,
  ManualClock,
  simulatedCourier,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';

/**
 * The courier claim (docs/behaviour.md): what the dispatcher records after the courier answers, and
 * the idempotency key the courier sees.
 */
describe('courier dispatch claims', () => {
  let engine: Engine;
  afterEach(() => engine.close());

  /** An engine whose store ships through `ship`, with one allocated order at the courier warehouse. */
  async function courierOrder(
    create: (request: CreateShipmentRequest) => Promise<CourierOutcome<{ label: IssuedLabel }>>,
  ) {
    const clock = new ManualClock('2026-03-01T09:00:00Z');
    engine = createEngine({
      repository: await openSqliteRepository(':memory:'),
      clock,
      couriers: {
        test: (settings, account) => ({
          ...simulatedCourier(settings, account),
          createShipment: create,
        }),
      },
      carrierAccounts: { test: { type: 'test' } },
    });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          settings: { courier: { account: 'test', max_attempts: 3 } },
          warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
          stock: [{ warehouse_code: 'HQ', sku: 'SKU-1', qty: 10 }],
          orders: [fixtures.salesOrder('700', undefined, { warehouse_code: 'HQ' })],
        },
      ],
    });
    const [item] = (await engine.getOrder('default', '700-1')).items;
    if (!item) throw new Error('the order has no item');
    await engine.allocate(engine.operator('default'), {
      allocation: { order_id: '700-1', items: [{ item_id: item.id }] },
    });
    return clock;
  }

  it('an order canceled while its courier call is under way is left canceled, not shipped or retried', async () => {
    const clock = await courierOrder(async () => {
      await engine.cancelOrder('default', '700-1');
      return { kind: 'permanent', code: 'late', message: 'too late' };
    });
    const none = { shipped: [], retrying: [], failed: [], voided: [], void_failed: [] };
    expect(await engine.dispatchCourier()).toEqual(none);
    const history = await engine.getOrderHistory('default', '700-1');
    expect(history.order.status).toBe('canceled');
    expect(history.audit.map((event) => event.action)).toEqual(['intake', 'allocate', 'cancel']);
    // The call may have bought a label: once the claim has run out, the dispatcher looks the
    // parcel up and voids whatever the carrier holds (here nothing).
    expect((await engine.listLabels('default', '700-1')).map((l) => l.status)).toEqual(['voiding']);
    clock.advance(120_000);
    expect(await engine.dispatchCourier()).toEqual({ ...none, voided: ['700-1'] });
    expect((await engine.listLabels('default', '700-1')).map((l) => l.status)).toEqual(['voided']);
  });

  it('every attempt at one parcel carries the same reference', async () => {
    const keys: string[] = [];
    const clock = await courierOrder(async (request) => {
      keys.push(request.reference);
      return keys.length === 1
        ? { kind: 'retriable', code: '503', message: 'courier down' }
        : {
            kind: 'ok',
            label: {
              carrier_label_id: 'L-1',
              tracking_number: 'T-1',
              tracking_url: null,
              document: 'label',
              document_format: 'zpl',
              document_url: null,
            },
          };
    });
    expect((await engine.dispatchCourier()).retrying).toEqual(['700-1']);
    clock.advance(60_000);
    expect((await engine.dispatchCourier()).shipped).toEqual(['700-1']);
    expect(keys).toEqual(['700-1/shipment-1/1', '700-1/shipment-1/1']);
  });
});
