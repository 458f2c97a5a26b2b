import { describe, expect, it } from 'vitest';
import type { Timestamp } from '../../domain/timestamp.js';
import type { FulfillmentOrder } from '../../domain/types.js';
import { address, FIXTURE_TIME, item, order } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: orders. */
export function ordersContract(h: ContractHarness): void {
  const { write, read, seedStore, expectFreshDocuments, insert, update } = h;

  describe('orders', () => {
    it('insertOrder assigns ids and the stored order reads back exactly', async () => {
      const store = await seedStore();
      const draft = order({
        store_id: store.id,
        allow_partial: false,
        customer_is_guest: true,
        shipping: {
          method_code: 'pickup',
          method_name: 'Pickup point',
          internal_method_code: 'pp',
          customer_note: 'ring twice',
          pickup_point_delivery: { location_id: 'L1', location_name: 'Kiosk' },
        },
        items: [
          item('SKU-1', { qty: 3, rejected_by: ['WH-B'] }),
          item('SKU-2', { warehouse_code: 'WH-B', amounts: {} }),
          item('SKU-3', { amounts: { price: 123_456_789, tax_rate: 0 } }),
        ],
      });
      const stored = await write((tx) => tx.insertOrder(draft));
      expect(stored.id).toBeGreaterThan(0);
      expect(stored.items.map((i) => i.id).every((id) => id > 0)).toBe(true);
      expect(new Set(stored.items.map((i) => i.id)).size).toBe(3);
      expect(stored).toEqual({
        ...draft,
        id: stored.id,
        items: draft.items.map((it, index) => ({ ...it, id: stored.items[index]?.id })),
      });
      expect(await read((tx) => tx.findOrder(store.id, draft.fulfillment_order_number))).toEqual(
        stored,
      );
      expect(await write((tx) => tx.lockOrder(store.id, draft.fulfillment_order_number))).toEqual(
        stored,
      );
      expect(await write((tx) => tx.lockOrderById(stored.id))).toEqual(stored);
    });

    it('money round-trips exactly and absent amounts stay absent', async () => {
      const store = await seedStore();
      const stored = await insert({
        store_id: store.id,
        amounts: { grand_total: 123_456_789, shipping_amount: 0, cod_amount: 9_007_199_254_740 },
        items: [item('SKU-1', { amounts: { price: 123_456_789, total_price: -5 } })],
      });
      const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
      expect(found?.amounts).toStrictEqual({
        grand_total: 123_456_789,
        shipping_amount: 0,
        cod_amount: 9_007_199_254_740,
      });
      expect(found?.items[0]?.amounts).toStrictEqual({ price: 123_456_789, total_price: -5 });
    });

    it('timestamps round-trip as the same strings', async () => {
      const store = await seedStore();
      const stored = await insert({
        store_id: store.id,
        items: ['pending_shipment'],
        created_at: '2026-01-02 03:04:05',
        updated_at: '2026-12-31 23:59:59',
        allocated_at: '2026-02-28 00:00:00',
        courier: { attempts: 2, last_error: 'timeout', next_attempt_at: '2026-03-01 12:00:00' },
      });
      const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
      expect(found?.created_at).toBe('2026-01-02 03:04:05');
      expect(found?.updated_at).toBe('2026-12-31 23:59:59');
      expect(found?.allocated_at).toBe('2026-02-28 00:00:00');
      expect(found?.shipped_at).toBeNull();
      expect(found?.courier).toEqual({
        attempts: 2,
        last_error: 'timeout',
        next_attempt_at: '2026-03-01 12:00:00',
      });
    });

    it('insertOrders stores awkward text, nulls and big integers exactly, many rows at once', async () => {
      const store = await seedStore();
      // Whatever a text encoding of many rows must escape (quotes, backslashes, the delimiters
      // of arrays and records, NULL spelled out, blanks) and text beyond ASCII.
      const awkward = [
        `O'Brien "the \\ one"`,
        '{a,b}',
        '(x, "y")',
        'NULL',
        '',
        'back\\\\slash\\"',
        '\\N',
        ' spaced ',
        'tab\there\nnewline\r',
        'Łódź 東京 🚚 e\u0301 \u202eRTL',
        '🚚 "quoted" \\ back\tslash',
        ',',
      ];
      const drafts = awkward.map((text, index) =>
        order({
          store_id: store.id,
          sales_order_number: `Ω${text}-${index}`,
          customer_firstname: text,
          customer_lastname: text.toUpperCase(),
          customer_email: '',
          allow_partial: [null, true, false][index % 3] as boolean | null,
          amounts:
            index % 2 === 0
              ? {}
              : {
                  grand_total: Number.MAX_SAFE_INTEGER,
                  cod_amount: -Number.MAX_SAFE_INTEGER,
                  shipping_amount: 0,
                },
          billing_address: address({ street: text, company: '', vat_id: text }),
          payment: { method_code: text, method_name: `${text}\\` },
          courier: {
            attempts: index,
            last_error: index % 2 ? text : null,
            next_attempt_at: null,
          },
          items: [
            item(`SKU-${text}`, {
              name: text,
              rejected_by: [text, 'WH-"B"'],
              invoice_number: index % 2 ? text : null,
              amounts: { price: Number.MAX_SAFE_INTEGER, total_price: -1, tax_rate: 0 },
            }),
            item('SKU-2', { amounts: {} }),
          ],
        }),
      );
      const stored = await write((tx) => tx.insertOrders(drafts));
      for (const [index, draft] of drafts.entries()) {
        const found = await read((tx) => tx.findOrder(store.id, draft.fulfillment_order_number));
        const ids = stored[index]?.items.map((line) => line.id) ?? [];
        expect(found).toEqual({
          ...draft,
          id: stored[index]?.id,
          items: draft.items.map((line, position) => ({ ...line, id: ids[position] })),
        });
        expect(found?.amounts).toStrictEqual(draft.amounts);
        expect(found?.items.map((line) => line.amounts)).toStrictEqual(
          draft.items.map((line) => line.amounts),
        );
      }
      await expectFreshDocuments(store.id);
      const first = stored[0] as FulfillmentOrder;
      await write((tx) =>
        tx.appendAudit(
          awkward.map((text) => ({
            order_id: first.id,
            at: FIXTURE_TIME,
            actor: text,
            action: text,
            details: { text, big: Number.MAX_SAFE_INTEGER, none: null },
          })),
        ),
      );
      const trail = await read((tx) => tx.listAudit(first.id));
      expect(trail.map(({ actor, action, details }) => ({ actor, action, details }))).toEqual(
        awkward.map((text) => ({
          actor: text,
          action: text,
          details: { text, big: Number.MAX_SAFE_INTEGER, none: null },
        })),
      );
    });

    it('findOrder, lockOrder and lockOrderById are null when there is no such order', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      const stored = await insert({ store_id: store.id });
      await write(async (tx) => {
        expect(await tx.findOrder(store.id, 'nope')).toBeNull();
        expect(await tx.lockOrder(store.id, 'nope')).toBeNull();
        expect(await tx.lockOrderById(stored.id + 1000)).toBeNull();
        // Another store's number is not this store's order.
        expect(await tx.findOrder(other.id, stored.fulfillment_order_number)).toBeNull();
        expect(await tx.lockOrder(other.id, stored.fulfillment_order_number)).toBeNull();
      });
    });

    it('saveOrder writes header and items, inserts id-0 parts, and returns them with ids', async () => {
      const store = await seedStore();
      const stored = await insert({
        store_id: store.id,
        items: ['pending_shipment', 'pending_shipment'],
      });
      const [first, second] = stored.items;
      if (!first || !second) throw new Error('fixture');
      const shippedAt: Timestamp = '2026-01-16 08:30:00';
      const saved = await update(stored, (o) => ({
        ...o,
        shipped_at: shippedAt,
        updated_at: shippedAt,
        customer_email: 'new@example.com',
        allow_partial: true,
        amounts: { ...o.amounts, cod_amount: 10_000 },
        items: [
          { ...first, status: 'pending_invoice' },
          { ...second, qty: 1 },
          // A split-off line (e.g. a partial quantity), new.
          item('SKU-2', { id: 0, qty: 1, status: 'rejected', rejected_by: ['WH-A'] }),
        ],
        shipments: [
          {
            id: 0,
            items: [{ item_id: first.id, qty: 2 }],
            tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z' }],
            created_at: shippedAt,
          },
        ],
      }));
      expect(saved.items).toHaveLength(3);
      expect(saved.items[0]?.id).toBe(first.id);
      expect(saved.items[1]?.id).toBe(second.id);
      expect(saved.items[2]?.id).toBeGreaterThan(0);
      expect(saved.items[2]?.id).not.toBe(first.id);
      expect(saved.shipments[0]?.id).toBeGreaterThan(0);
      expect(saved.status).toBe('partially_shipped');
      const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
      expect(found).toEqual(saved);

      // Existing shipments are kept as they are; a second save adds an invoice.
      const invoiced = await update(saved, (o) => ({
        ...o,
        items: o.items.map((i) =>
          i.id === first.id ? { ...i, status: 'invoiced', invoice_number: 'INV-1' } : i,
        ),
        invoices: [
          {
            id: 0,
            invoice_number: 'INV-1',
            item_ids: [first.id],
            shipping_amount_incl_tax: 50_000,
            invoice_time: '2026-01-17',
            additional_data: null,
            doc_binary: 'JVBERi0=',
            created_at: '2026-01-17 09:00:00',
          },
        ],
      }));
      expect(invoiced.invoices[0]?.id).toBeGreaterThan(0);
      expect(invoiced.shipments).toEqual(saved.shipments);
      expect(await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number))).toEqual(
        invoiced,
      );
    });

    it('lockOrder serializes concurrent transactions on one order: no update is lost', async () => {
      const store = await seedStore();
      const stored = await insert({ store_id: store.id, items: ['pending_shipment'] });
      const increments = 5;
      await Promise.all(
        Array.from({ length: increments }, () =>
          write(async (tx) => {
            const locked = await tx.lockOrder(store.id, stored.fulfillment_order_number);
            if (!locked) throw new Error('missing');
            // Read, wait while the others try to lock it, then write what was read + 1.
            await new Promise((resolve) => setTimeout(resolve, 20));
            await tx.saveOrder({
              ...locked,
              courier: { ...locked.courier, attempts: locked.courier.attempts + 1 },
            });
          }),
        ),
      );
      const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
      expect(found?.courier.attempts).toBe(increments);
      await expectFreshDocuments(store.id);
    });
  });
}
