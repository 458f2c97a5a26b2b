import { describe, expect, it } from 'vitest';
import type { Timestamp } from '../../domain/timestamp.js';
import type { FulfillmentOrder } from '../../domain/types.js';
import { FIXTURE_TIME, item } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: courier. */
export function courierDueContract(h: ContractHarness): void {
  const { read, seedStore, insert } = h;

  describe('listCourierDue', () => {
    it('lists due pending_shipment orders at courier warehouses, oldest due first', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      const due = (at: Timestamp | null) => ({
        attempts: 0,
        last_error: null,
        next_attempt_at: at,
      });
      const courierOrder = (at: Timestamp | null, overrides: Partial<FulfillmentOrder> = {}) =>
        insert({
          store_id: store.id,
          warehouse_code: 'WH-C',
          items: ['pending_shipment'],
          courier: due(at),
          ...overrides,
        });
      const later = await courierOrder('2026-01-15 10:00:00');
      const earlier = await courierOrder('2026-01-15 09:00:00');
      const exactlyNow = await courierOrder('2026-01-15 11:00:00');
      const otherStore = await insert({
        store_id: other.id,
        warehouse_code: 'WH-C',
        items: ['pending_shipment'],
        courier: due('2026-01-15 09:30:00'),
      });
      // Not due, not planned, not at a courier warehouse, not in pending_shipment, or failed.
      await courierOrder('2026-01-15 11:00:01');
      await courierOrder(null);
      await insert({
        store_id: store.id,
        warehouse_code: 'WH-A',
        items: ['pending_shipment'],
        courier: due('2026-01-15 09:00:00'),
      });
      await courierOrder('2026-01-15 09:00:00', {
        items: [item('X', { status: 'pending_invoice', warehouse_code: 'WH-C' })],
      });
      await courierOrder('2026-01-15 09:00:00', {
        failure: { stage: 'shipment', reason: 'x', abandoned: false, failed_at: FIXTURE_TIME },
      });

      const now = '2026-01-15 11:00:00';
      expect(await read((tx) => tx.listCourierDue(now, 10))).toEqual([
        earlier.id,
        otherStore.id,
        later.id,
        exactlyNow.id,
      ]);
      expect(await read((tx) => tx.listCourierDue(now, 2))).toEqual([earlier.id, otherStore.id]);
    });
  });
}
