import { describe, expect, it } from 'vitest';
import type { FulfillmentOrder, Track } from '../../domain/types.js';
import type { ContractHarness } from './harness.js';

const UPS: Track = { carrier_code: 'ups', title: 'UPS', track_number: 'WRONG-1' };
const BRT: Track = { carrier_code: 'brt', title: 'BRT', track_number: 'RIGHT-2' };

/** The repository contract: correcting the tracks of a stored shipment. */
export function shipmentTracksContract(h: ContractHarness): void {
  const { write, read, seedStore, insert, update, expectFreshDocuments } = h;

  /** An order with two items shipped in two shipments, tracked WRONG-1 and RIGHT-2. */
  async function shippedTwice(): Promise<FulfillmentOrder> {
    const store = await seedStore();
    const stored = await insert({
      store_id: store.id,
      items: ['pending_shipment', 'pending_shipment'],
    });
    const [first, second] = stored.items;
    if (!first || !second) throw new Error('fixture');
    const at = '2026-01-16 08:30:00';
    return update(stored, (o) => ({
      ...o,
      items: o.items.map((i) => ({ ...i, status: 'pending_invoice' })),
      shipments: [
        { id: 0, items: [{ item_id: first.id, qty: first.qty }], tracks: [UPS], created_at: at },
        { id: 0, items: [{ item_id: second.id, qty: second.qty }], tracks: [BRT], created_at: at },
      ],
    }));
  }

  describe('shipment tracks', () => {
    it('updateShipmentTracks replaces the tracks of that shipment only; the rest of the order stays', async () => {
      const saved = await shippedTwice();
      const [one, two] = saved.shipments;
      if (!one || !two) throw new Error('fixture');
      const corrected: Track[] = [
        { carrier_code: 'ups', title: 'UPS', track_number: 'RIGHT-1' },
        { carrier_code: 'ups', title: 'UPS', track_number: 'RIGHT-1B' },
      ];
      const done = await write(async (tx) => {
        await tx.lockOrderById(saved.id);
        return tx.updateShipmentTracks(saved.id, one.id, corrected);
      });
      expect(done).toBe(true);
      const found = await read((tx) =>
        tx.findOrder(saved.store_id, saved.fulfillment_order_number),
      );
      expect(found).toEqual({
        ...saved,
        shipments: [{ ...one, tracks: corrected }, two],
      });
      await expectFreshDocuments(saved.store_id);
    });

    it('updateShipmentTracks of a shipment the order does not have is false and writes nothing', async () => {
      const saved = await shippedTwice();
      const other = await insert({ store_id: saved.store_id, items: ['pending_shipment'] });
      const [one] = saved.shipments;
      if (!one) throw new Error('fixture');
      const answers = await write(async (tx) => {
        await tx.lockOrderById(other.id);
        await tx.lockOrderById(saved.id);
        return [
          // Another order's shipment, and one that does not exist.
          await tx.updateShipmentTracks(other.id, one.id, [BRT]),
          await tx.updateShipmentTracks(saved.id, one.id + 1000, [BRT]),
        ];
      });
      expect(answers).toEqual([false, false]);
      expect(
        await read((tx) => tx.findOrder(saved.store_id, saved.fulfillment_order_number)),
      ).toEqual(saved);
    });

    it('a saveOrder after updateShipmentTracks in one transaction keeps the new tracks', async () => {
      const saved = await shippedTwice();
      const [one] = saved.shipments;
      if (!one) throw new Error('fixture');
      const resaved = await write(async (tx) => {
        await tx.lockOrderById(saved.id);
        await tx.updateShipmentTracks(saved.id, one.id, [BRT]);
        const locked = await tx.lockOrderById(saved.id);
        if (!locked) throw new Error('vanished');
        return tx.saveOrder({ ...locked, updated_at: '2026-01-17 09:00:00' });
      });
      expect(resaved.shipments[0]?.tracks).toEqual([BRT]);
      const found = await read((tx) =>
        tx.findOrder(saved.store_id, saved.fulfillment_order_number),
      );
      expect(found?.shipments[0]?.tracks).toEqual([BRT]);
      expect(found?.updated_at).toBe('2026-01-17 09:00:00');
    });

    it('a failed transaction leaves the tracks as they were', async () => {
      const saved = await shippedTwice();
      const [one] = saved.shipments;
      if (!one) throw new Error('fixture');
      await expect(
        write(async (tx) => {
          await tx.lockOrderById(saved.id);
          await tx.updateShipmentTracks(saved.id, one.id, [BRT]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const found = await read((tx) =>
        tx.findOrder(saved.store_id, saved.fulfillment_order_number),
      );
      expect(found?.shipments[0]?.tracks).toEqual([UPS]);
    });
  });
}
