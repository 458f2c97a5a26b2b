import { readFile } from 'node:fs/promises';
import { createEngine } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { describe, expect, it } from 'vitest';
import { advanceDemo, queueCounts } from './advance-demo.js';

describe('examples/advance-demo.ts', () => {
  it('spreads the demo seed over every queue', async () => {
    const seed = JSON.parse(await readFile(new URL('./demo-seed.json', import.meta.url), 'utf8'));
    // No courier backoff, so that three dispatch rounds exhaust the simulated courier's attempts.
    const engine = createEngine({
      repository: await openSqliteRepository(':memory:'),
      courier: { retry_base_ms: 0 },
    });
    try {
      const report = await engine.loadSeed(seed);
      expect(report.orders.created).toHaveLength(30);
      expect(await queueCounts(engine, 'default')).toEqual({
        pending_accept: 25,
        pending_allocation: 5,
        pending_shipment: 0,
        pending_invoice: 0,
        failed: 0,
      });

      const counts = await advanceDemo(engine, seed, () => {});
      expect(counts.pending_accept).toBeGreaterThan(0);
      expect(counts.pending_allocation).toBeGreaterThan(0);
      expect(counts.pending_shipment).toBeGreaterThan(0);
      expect(counts.pending_invoice).toBeGreaterThan(0);
      expect((await engine.getOrder('default', '100005015-2')).warehouse_code).toBe('WH-TURIN');

      // What `fulfil serve`'s courier loop does: the order of the refused sku fails for good.
      for (let round = 0; round < 3; round++) await engine.dispatchCourier();
      const failed = await engine.poll(engine.operator('default'), 'failed');
      expect(failed.map((order) => order.items.map((item) => item.sku))).toContainEqual([
        'ESPRESSO-PRO',
      ]);
    } finally {
      await engine.close();
    }
  });
});
