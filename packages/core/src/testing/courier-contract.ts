import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presentOrder } from '../domain/present.js';
import type { Courier, CourierCallOptions, CreateShipmentRequest } from '../ports/courier.js';
import { order } from './fixtures.js';

/** What an adapter hands the courier contract: a courier over a fresh fake of its carrier. */
export interface CourierUnderTest {
  courier: Courier;
  cleanup?: () => Promise<void>;
}

const options = (): CourierCallOptions => ({
  signal: new AbortController().signal,
  deadline: new Date(Date.now() + 60_000),
});

function request(reference: string): CreateShipmentRequest {
  const shown = presentOrder(
    order({ store_id: 1, warehouse_code: 'WH-C', items: ['pending_shipment'] }),
    'whole',
  );
  return {
    reference,
    order: shown,
    parcel: { index: 1, count: 1, items: shown.items },
  };
}

/**
 * The guarantees of the `Courier` port's JSDoc, as vitest tests, for an adapter run against a
 * fake of its carrier (docs/couriers.md). The engine's safety rests on them: a label `ok` created
 * is found by its reference, a voided one is not, and a void is idempotent.
 */
export function runCourierContract(name: string, factory: () => Promise<CourierUnderTest>): void {
  describe(`${name}: courier contract`, () => {
    let current: CourierUnderTest;
    beforeEach(async () => {
      current = await factory();
    });
    afterEach(() => current.cleanup?.());

    it('a created label is found by its reference, with its tracking number', async () => {
      const created = await current.courier.createShipment(request('c-1/shipment-1/1'), options());
      if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
      expect(created.label.carrier_label_id).not.toBe('');
      expect(created.label.tracking_number).not.toBe('');
      const found = await current.courier.findShipment('c-1/shipment-1/1', options());
      expect(found).toEqual({ kind: 'ok', labels: [created.label] });
    });

    it('a reference nothing was created under is found empty, not refused', async () => {
      await current.courier.createShipment(request('c-2/shipment-1/1'), options());
      expect(await current.courier.findShipment('c-2/shipment-1/2', options())).toEqual({
        kind: 'ok',
        labels: [],
      });
    });

    it('a voided label is no longer found; voiding it again is ok', async () => {
      const created = await current.courier.createShipment(request('c-3/shipment-1/1'), options());
      if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
      const id = created.label.carrier_label_id;
      expect(await current.courier.voidLabel(id, options())).toEqual({ kind: 'ok' });
      expect(await current.courier.findShipment('c-3/shipment-1/1', options())).toEqual({
        kind: 'ok',
        labels: [],
      });
      expect(await current.courier.voidLabel(id, options())).toEqual({ kind: 'ok' });
    });

    it('a created label can be tracked', async () => {
      const created = await current.courier.createShipment(request('c-4/shipment-1/1'), options());
      if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
      const tracked = await current.courier.track(created.label.carrier_label_id, options());
      expect(tracked).toMatchObject({ kind: 'ok', status: expect.any(String) });
    });
  });
}
