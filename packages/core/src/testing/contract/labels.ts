import { describe, expect, it } from 'vitest';
import { type CourierLabel, pendingLabel } from '../../domain/courier-labels.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: courier labels. */
export function labelsContract(h: ContractHarness): void {
  const { read, write, seedStore, insert } = h;

  async function orderWithLabels() {
    const store = await seedStore();
    const order = await insert({
      store_id: store.id,
      warehouse_code: 'WH-C',
      items: ['pending_shipment'],
    });
    const at = '2026-01-15 10:00:00';
    const saved = await write(async (tx) => {
      await tx.lockOrderById(order.id);
      return tx.saveLabels([
        pendingLabel(order, 'simulated', 1, 2, at),
        pendingLabel(order, 'simulated', 2, 2, at),
      ]);
    });
    return { order, saved };
  }

  describe('labels', () => {
    it('saveLabels inserts new rows with ids, rewrites stored ones; listLabels reads them back', async () => {
      const { order, saved } = await orderWithLabels();
      expect(saved.map((row) => row.id).every((id) => id > 0)).toBe(true);
      const [first, second] = saved as [CourierLabel, CourierLabel];
      const issued: CourierLabel = {
        ...first,
        status: 'live',
        carrier_code: 'dhl_express',
        carrier_label_id: 'se-1',
        tracking_number: 'T-1',
        tracking_url: 'https://t.example/T-1',
        document: 'JVBERi0x',
        document_format: 'pdf',
        document_url: null,
        last_error: 'unknown: "quoted" \u00e9 text',
      };
      await write(async (tx) => {
        await tx.lockOrderById(order.id);
        await tx.saveLabels([issued]);
      });
      expect(await read((tx) => tx.listLabels(order.id))).toEqual([issued, second]);
    });

    it('deleteLabels removes only the given rows of the order', async () => {
      const { order, saved } = await orderWithLabels();
      await write(async (tx) => {
        await tx.lockOrderById(order.id);
        await tx.deleteLabels(order.id, [saved[0]?.id as number]);
        await tx.deleteLabels(order.id, []);
      });
      expect(await read((tx) => tx.listLabels(order.id))).toEqual([saved[1]]);
    });

    it('listLabelVoidsDue lists each order with a due void once, oldest due first', async () => {
      const { order, saved } = await orderWithLabels();
      const [first, second] = saved as [CourierLabel, CourierLabel];
      const other = await insert({
        store_id: order.store_id,
        warehouse_code: 'WH-C',
        items: ['pending_shipment'],
      });
      const [third] = await write(async (tx) => {
        await tx.lockOrderById(other.id);
        return tx.saveLabels([
          {
            ...pendingLabel(other, 'simulated', 1, 1, first.created_at),
            status: 'void_failed',
            next_void_at: '2026-01-15 09:00:00',
          },
        ]);
      });
      await write(async (tx) => {
        await tx.lockOrderById(order.id);
        await tx.saveLabels([
          { ...first, status: 'voiding', next_void_at: '2026-01-15 10:00:00' },
          { ...second, status: 'voiding', next_void_at: '2026-01-15 10:30:00' },
        ]);
      });
      expect(third?.id).toBeGreaterThan(0);
      const now = '2026-01-15 10:00:00';
      expect(await read((tx) => tx.listLabelVoidsDue(now, 10))).toEqual([other.id, order.id]);
      expect(await read((tx) => tx.listLabelVoidsDue(now, 1))).toEqual([other.id]);
      expect(await read((tx) => tx.listLabelVoidsDue('2026-01-15 08:59:59', 10))).toEqual([]);
      // A voided row is not due, whatever its next_void_at.
      await write(async (tx) => {
        await tx.lockOrderById(other.id);
        await tx.saveLabels([{ ...(third as CourierLabel), status: 'voided' }]);
      });
      expect(await read((tx) => tx.listLabelVoidsDue(now, 10))).toEqual([order.id]);
    });
  });
}
