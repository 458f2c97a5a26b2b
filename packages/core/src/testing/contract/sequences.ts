import { describe, expect, it } from 'vitest';
import type { ContractHarness } from './harness.js';

/** The repository contract: sequences. */
export function sequencesContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  describe('nextFulfillmentSequence', () => {
    it('counts 1, 2, 3 per sales order and store', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      const next = (storeId: number, number: string) =>
        write((tx) => tx.nextFulfillmentSequence(storeId, number));
      expect(await next(store.id, 'S-1')).toBe(1);
      expect(await next(store.id, 'S-1')).toBe(2);
      expect(await next(store.id, 'S-2')).toBe(1);
      expect(await next(other.id, 'S-1')).toBe(1);
      expect(await next(store.id, 'S-1')).toBe(3);
    });

    it('knownSalesOrders names the sales orders whose sequence was claimed, per store', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write(async (tx) => {
        await tx.nextFulfillmentSequence(store.id, 'S-1');
        await tx.nextFulfillmentSequence(store.id, 'S-3');
        await tx.nextFulfillmentSequence(other.id, 'S-2');
      });
      const many = Array.from({ length: 1200 }, (_, i) => `X-${i}`);
      const known = await read((tx) =>
        tx.knownSalesOrders(store.id, ['S-1', 'S-2', 'S-3', 'S-1', ...many]),
      );
      expect([...known].sort()).toEqual(['S-1', 'S-3']);
      expect(await read((tx) => tx.knownSalesOrders(store.id, []))).toEqual([]);
    });

    it('never hands out one number twice under concurrency', async () => {
      const store = await seedStore();
      const numbers = await Promise.all(
        Array.from({ length: 20 }, () =>
          write((tx) => tx.nextFulfillmentSequence(store.id, 'S-1')),
        ),
      );
      expect([...numbers].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });
  });

  describe('claimFulfillmentSequences', () => {
    it('claims count numbers per sales order in one call, continuing each sequence', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-2'));
      const claim = (storeId: number, claims: { sales_order_number: string; count: number }[]) =>
        write((tx) => tx.claimFulfillmentSequences(storeId, claims));
      // Answered in the order given, whatever order the rows were written in.
      expect(
        await claim(store.id, [
          { sales_order_number: 'S-3', count: 1 },
          { sales_order_number: 'S-2', count: 2 },
          { sales_order_number: 'S-1', count: 3 },
        ]),
      ).toEqual([1, 2, 1]);
      expect(await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-1'))).toBe(4);
      expect(await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-2'))).toBe(4);
      expect(await claim(other.id, [{ sales_order_number: 'S-1', count: 1 }])).toEqual([1]);
      expect(await claim(store.id, [])).toEqual([]);
      const many = Array.from({ length: 2500 }, (_, i) => ({
        sales_order_number: `M-${i}`,
        count: 1 + (i % 2),
      }));
      expect(await claim(store.id, many)).toEqual(many.map(() => 1));
      expect(await claim(store.id, many.slice(0, 3))).toEqual([2, 3, 2]);
      const known = await read((tx) =>
        tx.knownSalesOrders(store.id, ['S-1', 'S-2', 'S-3', 'M-2499', 'S-4']),
      );
      expect([...known].sort()).toEqual(['M-2499', 'S-1', 'S-2', 'S-3']);
    });

    it('refuses a claim that names one sales order twice, writing nothing', async () => {
      const store = await seedStore();
      await expect(
        write((tx) =>
          tx.claimFulfillmentSequences(store.id, [
            { sales_order_number: 'S-1', count: 1 },
            { sales_order_number: 'S-1', count: 1 },
          ]),
        ),
      ).rejects.toThrow(/twice/);
      expect(await read((tx) => tx.knownSalesOrders(store.id, ['S-1']))).toEqual([]);
    });

    it('never hands out one number twice when racing itself and nextFulfillmentSequence', async () => {
      const store = await seedStore();
      const numbers = new Map<string, number[]>([
        ['S-1', []],
        ['S-2', []],
        ['S-3', []],
      ]);
      const got = (number: string, first: number, count: number) => {
        for (let n = first; n < first + count; n++) numbers.get(number)?.push(n);
      };
      await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          if (i % 3 === 2) {
            got('S-2', await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-2')), 1);
            return;
          }
          // Half of the batches name the sales orders in the other order.
          const claims = [
            { sales_order_number: 'S-1', count: 2 },
            { sales_order_number: 'S-2', count: 1 },
            { sales_order_number: 'S-3', count: 3 },
          ];
          if (i % 2 === 1) claims.reverse();
          const firsts = await write((tx) => tx.claimFulfillmentSequences(store.id, claims));
          for (const [index, claim] of claims.entries()) {
            got(claim.sales_order_number, firsts[index] as number, claim.count);
          }
        }),
      );
      const upTo = (last: number) => Array.from({ length: last }, (_, i) => i + 1);
      const sorted = (list: number[] | undefined) => [...(list ?? [])].sort((a, b) => a - b);
      expect(sorted(numbers.get('S-1'))).toEqual(upTo(16 * 2));
      expect(sorted(numbers.get('S-2'))).toEqual(upTo(16 + 8));
      expect(sorted(numbers.get('S-3'))).toEqual(upTo(16 * 3));
    });
  });
}
