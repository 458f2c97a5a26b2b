import { readFile } from 'node:fs/promises';
import { createEngine } from '@fulfil/core';
import { startHttpServer } from '@fulfil/server';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { describe, expect, it } from 'vitest';
import { runOnce as erpRound, invoiceNumber } from './erp-worker.js';
import { runOnce as partnerRound } from './partner-worker.js';

const numbers = (orders: { fulfillment_order_number: string }[]) =>
  orders.map((order) => order.fulfillment_order_number);

describe('examples/erp-worker.ts', () => {
  it('allocates what the partner accepted, invoices what it shipped, then has nothing to do', async () => {
    const seed = JSON.parse(await readFile(new URL('./demo-seed.json', import.meta.url), 'utf8'));
    const engine = createEngine({ repository: await openSqliteRepository(':memory:') });
    await engine.loadSeed(seed);
    const server = await startHttpServer({ engine, port: 0, log: () => {} });
    try {
      const connection = { baseUrl: server.url, storeCode: 'default' };
      const partner = {
        ...connection,
        token: 'demo-partner-milan-9f4c2e7a1b6d3f8e0a5c7b2d4e6f8a1c',
      };
      const erp = { ...connection, token: 'demo-erp-3b8d1f6a2c9e4b7d0f5a8c1e3b6d9f2a4c7e' };
      const operator = engine.operator('default');
      const statusOf = async (number: string) => (await engine.getOrder('default', number)).status;
      const statuses = async (list: string[]) => Promise.all(list.map(statusOf));

      // Orders routed to the courier warehouse skip pending_accept: they wait for the ERP at once.
      const courierOrders = numbers(
        (await engine.poll(operator, 'pending_allocation')).filter(
          (order) => order.warehouse_code === 'WH-HQ',
        ),
      );
      expect(courierOrders.length).toBeGreaterThan(0);

      const accepted = (await partnerRound(partner)).accepted;
      expect(accepted.length).toBeGreaterThan(10);
      const toAllocate = numbers(await engine.poll(operator, 'pending_allocation'));
      expect([...toAllocate].sort()).toEqual([...accepted, ...courierOrders].sort());

      // ERP round 1: everything in pending_allocation is allocated; nothing is invoiceable yet.
      const first = await erpRound(erp);
      expect(first.errors).toEqual([]);
      expect(first.allocated).toEqual(toAllocate);
      expect(first.invoiced).toEqual([]);
      expect(await engine.poll(operator, 'pending_allocation')).toEqual([]);
      expect(new Set(await statuses(toAllocate))).toEqual(new Set(['pending_shipment']));

      // The partner ships its orders; the courier orders wait for the courier loop, not run here.
      const shipped = (await partnerRound(partner)).shipped;
      expect(shipped).toEqual(accepted);
      const toInvoice = await engine.poll(operator, 'pending_invoice');
      expect(numbers(toInvoice)).toEqual(accepted);

      // ERP round 2: each shipped order is invoiced with exactly its shipped items.
      const second = await erpRound(erp);
      expect(second.errors).toEqual([]);
      expect(second.allocated).toEqual([]);
      expect(second.invoiced).toEqual(accepted);
      expect(await engine.poll(operator, 'pending_invoice')).toEqual([]);
      for (const before of toInvoice) {
        const after = await engine.getOrder('default', before.fulfillment_order_number);
        expect(after.status).toBe('invoiced');
        expect(after.items.map((item) => [item.id, item.status])).toEqual(
          before.items.map((item) => [item.id, 'invoiced']),
        );
        const history = await engine.getOrderHistory('default', before.fulfillment_order_number);
        expect(history.invoices.map((invoice) => invoice.invoice_number)).toEqual([
          invoiceNumber(before),
        ]);
        // The client stated the order's shipping on its first invoice; the service agreed.
        expect(history.invoices[0]?.shipping_amount_incl_tax).toBe(after.shipping_amount ?? 0);
      }
      expect(new Set(await statuses(courierOrders))).toEqual(new Set(['pending_shipment']));

      // ERP round 3: nothing waits for the ERP, and nothing changes.
      const snapshot = await Promise.all(
        toAllocate.map((number) => engine.getOrder('default', number)),
      );
      const third = await erpRound(erp);
      expect(third).toEqual({ allocated: [], invoiced: [], errors: [] });
      expect(
        await Promise.all(toAllocate.map((number) => engine.getOrder('default', number))),
      ).toEqual(snapshot);

      // A retried invoice (same order, same items) gets the same number: a no-op, not a 400.
      const [again] = toInvoice;
      if (!again) throw new Error('nothing was invoiced');
      const erpActor = await engine.authenticate('default', erp.token);
      const retried = await engine.invoice(erpActor, {
        invoice: {
          order_id: again.fulfillment_order_number,
          items: again.items.map((item) => ({ item_id: item.id })),
          invoice_number: invoiceNumber(again),
        },
      });
      expect(retried).toEqual(snapshot[toAllocate.indexOf(again.fulfillment_order_number)]);
    } finally {
      await server.close();
      await engine.close();
    }
  });
});
