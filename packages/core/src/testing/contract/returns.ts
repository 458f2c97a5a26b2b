import { describe, expect, it } from 'vitest';
import type { ReturnRecord } from '../../domain/returns/return-record.js';
import type { Store } from '../../domain/types.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: returns and the goods they hold in quarantine. */
export function returnsContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  const record = (store: Store, rma: string, salesOrder = 'SO-1'): ReturnRecord => ({
    id: 0,
    store_id: store.id,
    rma_number: rma,
    sales_order_number: salesOrder,
    warehouse_code: 'WH-A',
    items: [
      {
        item_id: 7,
        fulfillment_order_number: `${salesOrder}-1`,
        sku: 'SKU-1',
        name: 'Product',
        qty: 2,
        reason: 'damaged',
        unit_price_incl_tax: 123_400,
        qty_restocked: 0,
        qty_quarantined: 0,
        qty_disposed: 0,
        qty_missing: 0,
        qty_credited: 0,
      },
    ],
    receipts: [],
    credits: [],
    canceled_at: null,
    created_at: '2026-01-15 09:00:00',
    updated_at: '2026-01-15 09:00:00',
  });

  describe('returns (insertReturn, saveReturn, the quarantine)', () => {
    it('stores a return once by rma number, found by number, sales order and id, as written', async () => {
      const store = await seedStore();
      const stored = await write((tx) => tx.insertReturn(record(store, 'RMA-1')));
      expect(stored?.id).toBeGreaterThan(0);
      // The same number again writes nothing and says so.
      expect(await write((tx) => tx.insertReturn(record(store, 'RMA-1', 'SO-2')))).toBeNull();
      const other = await write((tx) => tx.insertReturn(record(store, 'RMA-2')));
      const received = {
        ...(stored as ReturnRecord),
        items: (stored as ReturnRecord).items.map((line) => ({ ...line, qty_restocked: 1 })),
        receipts: [
          {
            receipt_number: 'R-1',
            items: [
              { item_id: 7, qty_restocked: 1, qty_quarantined: 0, qty_disposed: 0, qty_missing: 0 },
            ],
            created_at: '2026-01-16 10:00:00',
          },
        ],
        updated_at: '2026-01-16 10:00:00',
      };
      await write(async (tx) => {
        await tx.lockSalesOrderReturns(store.id, 'SO-1');
        await tx.saveReturn(received);
      });
      expect(await read((tx) => tx.findReturns(store.id, ['RMA-1']))).toEqual([received]);
      expect(await read((tx) => tx.listSalesOrderReturns(store.id, ['SO-1']))).toEqual([
        received,
        other,
      ]);
      expect(await read((tx) => tx.returnsById([other?.id as number]))).toEqual([other]);
      expect(
        await read((tx) => tx.listStoreReturns(store.id, { status: 'pending_receipt', limit: 1 })),
      ).toEqual([received]);
      expect(await read((tx) => tx.countReturns())).toEqual([
        { store_id: store.id, status: 'pending_receipt', returns: 2 },
      ]);
    });

    it('adds quarantined goods atomically and sets them when told', async () => {
      const store = await seedStore();
      const delta = { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 2 };
      await Promise.all([
        write((tx) => tx.adjustQuarantine(store.id, [delta, delta])),
        write((tx) => tx.adjustQuarantine(store.id, [delta])),
      ]);
      expect(await read((tx) => tx.listQuarantine(store.id))).toEqual([{ ...delta, qty: 6 }]);
      await write((tx) => tx.setQuarantine(store.id, [{ ...delta, qty: 1 }]));
      expect(await read((tx) => tx.listQuarantine(store.id, ['WH-B']))).toEqual([]);
      expect(await read((tx) => tx.listQuarantine(store.id, ['WH-A']))).toEqual([
        { ...delta, qty: 1 },
      ]);
    });
  });
}
