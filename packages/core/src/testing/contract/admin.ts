import { describe, expect, it } from 'vitest';
import { hashTokenSecret } from '../../domain/token-secret.js';
import type { FulfillmentOrder } from '../../domain/types.js';
import type { OrderFilter } from '../../ports/admin-repository.js';
import { item, token } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: the operator's side (AdminRepositoryTx). */
export function adminContract(h: ContractHarness): void {
  const { write, read, seedStore, insert } = h;

  const operator = (name: string, store_code: string | null = null) => ({
    name,
    role: 'operator' as const,
    store_code,
    hash: hashTokenSecret(`secret-of-${name}`),
    created_at: '2026-01-01 00:00:00',
    revoked_at: null,
  });

  describe('operators and sessions', () => {
    it('stores operators, finds them by name and hash, refuses a taken name', async () => {
      const alice = await write((tx) => tx.insertOperator(operator('alice')));
      await write((tx) => tx.insertOperator(operator('bob', 'default')));
      expect(alice).toEqual({ id: expect.any(Number), ...operator('alice') });
      expect(await read((tx) => tx.findOperator('alice'))).toEqual(alice);
      expect(await read((tx) => tx.findOperatorByHash(alice.hash))).toEqual(alice);
      expect(await read((tx) => tx.findOperator('nobody'))).toBeNull();
      expect((await read((tx) => tx.listOperators())).map((o) => o.name)).toEqual(['alice', 'bob']);
      await expect(
        write((tx) => tx.insertOperator({ ...operator('alice'), hash: 'f'.repeat(64) })),
      ).rejects.toMatchObject({ name: 'DomainError', code: 'already_exists' });
    });

    it('revoking an operator keeps the first time and deletes its sessions', async () => {
      const alice = await write((tx) => tx.insertOperator(operator('alice')));
      const session = {
        hash: 'a'.repeat(64),
        operator_id: alice.id,
        created_at: '2026-01-01 00:00:00',
        expires_at: '2026-01-01 12:00:00',
      };
      await write((tx) => tx.insertSession(session));
      expect(await read((tx) => tx.findSession(session.hash))).toEqual({
        operator: alice,
        expires_at: session.expires_at,
      });
      expect(await write((tx) => tx.revokeOperator('alice', '2026-02-01 00:00:00'))).toBe(true);
      expect(await write((tx) => tx.revokeOperator('alice', '2026-03-01 00:00:00'))).toBe(true);
      expect(await write((tx) => tx.revokeOperator('nobody', '2026-03-01 00:00:00'))).toBe(false);
      expect((await read((tx) => tx.findOperator('alice')))?.revoked_at).toBe(
        '2026-02-01 00:00:00',
      );
      expect(await read((tx) => tx.findSession(session.hash))).toBeNull();
    });

    it('deleteSession ends one session, and is harmless when repeated', async () => {
      const alice = await write((tx) => tx.insertOperator(operator('alice')));
      for (const hash of ['b'.repeat(64), 'c'.repeat(64)]) {
        await write((tx) =>
          tx.insertSession({ hash, operator_id: alice.id, created_at: 'x', expires_at: 'y' }),
        );
      }
      await write((tx) => tx.deleteSession('b'.repeat(64)));
      await write((tx) => tx.deleteSession('b'.repeat(64)));
      expect(await read((tx) => tx.findSession('b'.repeat(64)))).toBeNull();
      expect(await read((tx) => tx.findSession('c'.repeat(64)))).not.toBeNull();
    });

    it('deleteExpiredSessions deletes the sessions expired at a moment, and no other', async () => {
      const alice = await write((tx) => tx.insertOperator(operator('alice')));
      const expiries = ['2026-01-01 11:59:59', '2026-01-01 12:00:00', '2026-01-01 12:00:01'];
      for (const [index, expires_at] of expiries.entries()) {
        await write((tx) =>
          tx.insertSession({
            hash: String(index).repeat(64),
            operator_id: alice.id,
            created_at: '2026-01-01 00:00:00',
            expires_at,
          }),
        );
      }
      expect(await write((tx) => tx.deleteExpiredSessions('2026-01-01 12:00:00'))).toBe(2);
      expect(await read((tx) => tx.findSession('0'.repeat(64)))).toBeNull();
      expect(await read((tx) => tx.findSession('1'.repeat(64)))).toBeNull();
      expect(await read((tx) => tx.findSession('2'.repeat(64)))).not.toBeNull();
      expect(await write((tx) => tx.deleteExpiredSessions('2026-01-01 12:00:00'))).toBe(0);
    });
  });

  describe('order search', () => {
    async function seedOrders() {
      const store = await seedStore();
      const other = await seedStore('other');
      const orders: FulfillmentOrder[] = [];
      const add = async (fixture: Omit<Parameters<typeof insert>[0], 'store_id'>) => {
        const stored = await insert({ ...fixture, store_id: store.id });
        orders.push(stored);
        return stored;
      };
      await add({
        customer_lastname: 'Smith',
        created_at: '2026-01-01 10:00:00',
        updated_at: '2026-01-05 00:00:00',
      });
      await add({
        customer_firstname: 'SMITHY',
        customer_email: 'x@y.z',
        created_at: '2026-01-02 10:00:00',
        updated_at: '2026-01-02 10:00:00',
      });
      await add({
        warehouse_code: 'WH-B',
        customer_email: 'Smith@Example.com',
        created_at: '2026-01-03 10:00:00',
        updated_at: '2026-01-03 10:00:00',
      });
      await add({
        sales_order_number: 'SO-42',
        status: 'pending_allocation',
        items: [item('SKU-Z', { status: 'pending_allocation' })],
        created_at: '2026-01-04 10:00:00',
        updated_at: '2026-01-04 10:00:00',
      });
      await add({ created_at: '2026-01-05 10:00:00', updated_at: '2026-01-05 10:00:00' });
      // Another store's order matches every text filter and is never found.
      await insert({ store_id: other.id, customer_lastname: 'Smith', sales_order_number: 'SO-42' });
      return { store, orders };
    }

    const numbers = (found: { fulfillment_order_number: string }[]) =>
      found.map((o) => o.fulfillment_order_number);

    it('each filter selects exactly its orders, newest first, and the count agrees', async () => {
      const { store, orders } = await seedOrders();
      const [o1, o2, o3, o4, o5] = orders as [
        FulfillmentOrder,
        FulfillmentOrder,
        FulfillmentOrder,
        FulfillmentOrder,
        FulfillmentOrder,
      ];
      const cases: [OrderFilter, FulfillmentOrder[]][] = [
        [{}, [o5, o4, o3, o2, o1]],
        [{ q: 'smith' }, [o3, o2, o1]],
        [{ q: 'SMI' }, [o3, o2, o1]],
        [{ q: 'smithy' }, [o2]],
        [{ q: 'SO-42' }, [o4]],
        [{ q: o5.fulfillment_order_number }, [o5]],
        [{ q: 'nomatch' }, []],
        // A full name, either way round, each word the start of one.
        [{ q: 'Ada Smith' }, [o1]],
        [{ q: 'smith ada' }, [o1]],
        [{ q: 'smithy lov' }, [o2]],
        [{ q: 'ada  lovelace' }, [o5, o4, o3]],
        [{ q: 'ada smithy' }, []],
        [{ status: 'pending_allocation' }, [o4]],
        [{ queue: 'pending_allocation' }, [o4]],
        [{ queue: 'pending_accept' }, [o5, o3, o2, o1]],
        [{ warehouse: 'WH-B' }, [o3]],
        [{ sku: 'SKU-Z' }, [o4]],
        [{ created_from: '2026-01-02 10:00:00', created_to: '2026-01-04 10:00:00' }, [o3, o2]],
        [{ updated_from: '2026-01-05 00:00:00' }, [o5, o1]],
        [{ q: 'smith', warehouse: 'WH-A' }, [o2, o1]],
      ];
      for (const [filter, expected] of cases) {
        const found = await read((tx) =>
          tx.searchOrders({ ...filter, store_id: store.id, limit: 50 }),
        );
        expect(numbers(found), JSON.stringify(filter)).toEqual(numbers(expected));
        const count = await read((tx) => tx.countOrders(store.id, filter, 100));
        expect(count, JSON.stringify(filter)).toBe(expected.length);
        // One order at a time, as a bulk checks each before it acts.
        const matching = await read(async (tx) => {
          const found: FulfillmentOrder[] = [];
          for (const order of orders)
            if (await tx.orderMatches(store.id, order.id, filter)) found.push(order);
          return found;
        });
        expect(numbers(matching).reverse(), JSON.stringify(filter)).toEqual(numbers(expected));
      }
    });

    it('pages by keyset and caps the count', async () => {
      const { store, orders } = await seedOrders();
      const first = await read((tx) => tx.searchOrders({ store_id: store.id, limit: 2 }));
      const last = first[first.length - 1] as { id: number };
      const second = await read((tx) =>
        tx.searchOrders({ store_id: store.id, limit: 2, before_id: last.id }),
      );
      expect([...numbers(first), ...numbers(second)]).toEqual(
        numbers([...orders].reverse().slice(0, 4)),
      );
      expect(await read((tx) => tx.countOrders(store.id, {}, 3))).toBe(3);
      const [summary] = first;
      expect(summary).toMatchObject({
        fulfillment_order_number: orders[4]?.fulfillment_order_number,
        status: 'pending_accept',
        grand_total: orders[4]?.amounts.grand_total,
        failure: null,
      });
    });
  });

  describe('stock and reservations', () => {
    it('heldStock sums the live unshipped lines, pending_accept included, abandoned orders left out', async () => {
      const store = await seedStore();
      await insert({
        store_id: store.id,
        status: 'pending_allocation',
        items: [item('S1', { status: 'pending_allocation', qty: 2 })],
      });
      await insert({
        store_id: store.id,
        status: 'pending_shipment',
        items: [
          item('S1', { status: 'pending_shipment', qty: 3 }),
          item('S2', { status: 'pending_accept', qty: 9 }),
        ],
      });
      await insert({
        store_id: store.id,
        status: 'failed',
        failure: {
          stage: 'allocation',
          reason: 'x',
          abandoned: true,
          failed_at: '2026-01-01 00:00:00',
        },
        items: [item('S1', { status: 'pending_allocation', qty: 5 })],
      });
      await insert({
        store_id: store.id,
        status: 'failed',
        failure: {
          stage: 'allocation',
          reason: 'x',
          abandoned: false,
          failed_at: '2026-01-01 00:00:00',
        },
        items: [item('S1', { status: 'pending_allocation', qty: 7 })],
      });
      expect(await read((tx) => tx.heldStock(store.id))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', qty: 12 },
        { warehouse_code: 'WH-A', sku: 'S2', qty: 9 },
      ]);
      await write((tx) => tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 20 }]));
      await write((tx) =>
        tx.setReserved(store.id, [
          { warehouse_code: 'WH-A', sku: 'S1', reserved: 12 },
          { warehouse_code: 'WH-B', sku: 'S9', reserved: 1 },
        ]),
      );
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 20, reserved: 12 },
        { warehouse_code: 'WH-B', sku: 'S9', on_hand: 0, reserved: 1 },
      ]);
    });

    it('listStockPage pages by (warehouse, sku) and matches a sku prefix', async () => {
      const store = await seedStore();
      await write((tx) =>
        tx.setOnHand(store.id, [
          { warehouse_code: 'WH-A', sku: 'AB-1', qty: 1 },
          { warehouse_code: 'WH-A', sku: 'AB-2', qty: 2 },
          { warehouse_code: 'WH-A', sku: 'AC-1', qty: 3 },
          { warehouse_code: 'WH-B', sku: 'AB-3', qty: 4 },
        ]),
      );
      const page = (args: object) =>
        read((tx) => tx.listStockPage({ store_id: store.id, limit: 2, ...args }));
      const skus = (rows: { sku: string }[]) => rows.map((row) => row.sku);
      expect(skus(await page({}))).toEqual(['AB-1', 'AB-2']);
      expect(skus(await page({ after: { warehouse_code: 'WH-A', sku: 'AB-2' } }))).toEqual([
        'AC-1',
        'AB-3',
      ]);
      expect(skus(await page({ sku_prefix: 'AB', limit: 10 }))).toEqual(['AB-1', 'AB-2', 'AB-3']);
      expect(skus(await page({ sku_prefix: 'AB', warehouse: 'WH-B' }))).toEqual(['AB-3']);
    });
  });

  describe('audit and tokens', () => {
    it('audit events keep their request id and reason; the store audit takes events', async () => {
      const store = await seedStore();
      const order = await insert({ store_id: store.id });
      await write((tx) =>
        tx.appendAudit([
          {
            order_id: order.id,
            at: '2026-01-01 00:00:00',
            actor: 'alice',
            action: 'cancel',
            details: {},
            request_id: 'req-1',
            reason: 'duplicate',
          },
        ]),
      );
      const [event] = await read((tx) => tx.listAudit(order.id));
      expect(event).toMatchObject({ actor: 'alice', request_id: 'req-1', reason: 'duplicate' });
      await write((tx) =>
        tx.appendStoreAudit([
          {
            store_id: store.id,
            at: '2026-01-01 00:00:00',
            actor: 'alice',
            action: 'set_on_hand',
            reason: null,
            request_id: 'req-2',
            details: { sku: 'S1' },
          },
        ]),
      );
    });

    it('touchToken sets the last use; retireToken renames the token and sets its expiry', async () => {
      const store = await seedStore();
      const created = await write((tx) => tx.insertToken(token(store.id, 'partner')));
      await write((tx) => tx.touchToken(created.id, '2026-01-02 00:00:00'));
      expect((await read((tx) => tx.findTokenByHash(created.hash)))?.last_used_at).toBe(
        '2026-01-02 00:00:00',
      );
      expect(
        await write((tx) =>
          tx.retireToken(store.id, 'partner', 'partner~1', '2026-01-03 00:00:00'),
        ),
      ).toBe(true);
      expect(
        await write((tx) => tx.retireToken(store.id, 'nobody', 'x', '2026-01-03 00:00:00')),
      ).toBe(false);
      expect(await read((tx) => tx.findTokenByHash(created.hash))).toMatchObject({
        name: 'partner~1',
        expires_at: '2026-01-03 00:00:00',
      });
    });
  });
}
