import { readFile } from 'node:fs/promises';
import { createEngine } from '@fulfil/core';
import { startHttpServer } from '@fulfil/server';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { describe, expect, it } from 'vitest';
import { runOnce } from './partner-worker.js';

describe('examples/partner-worker.ts', () => {
  it('accepts what waits for acceptance, then ships what the ERP allocated', async () => {
    const seed = JSON.parse(await readFile(new URL('./demo-seed.json', import.meta.url), 'utf8'));
    const engine = createEngine({ repository: await openSqliteRepository(':memory:') });
    await engine.loadSeed(seed);
    const server = await startHttpServer({ engine, port: 0, log: () => {} });
    try {
      const options = {
        baseUrl: server.url,
        storeCode: 'default',
        token: 'demo-partner-milan-9f4c2e7a1b6d3f8e0a5c7b2d4e6f8a1c',
      };
      const first = await runOnce(options);
      expect(first.accepted.length).toBeGreaterThan(10);
      expect(first.shipped).toEqual([]);
      expect(first.errors).toEqual([]);

      // The ERP's part, done here through the engine: allocate everything accepted.
      const operator = engine.operator('default');
      for (const order of await engine.poll(operator, 'pending_allocation')) {
        await engine.allocate(operator, {
          allocation: {
            order_id: order.fulfillment_order_number,
            items: order.items.map((item) => ({ item_id: item.id })),
          },
        });
      }

      const second = await runOnce(options);
      expect(second.accepted).toEqual([]);
      expect(second.shipped).toEqual(first.accepted);
      const invoiceable = await engine.poll(operator, 'pending_invoice');
      expect(invoiceable.map((order) => order.fulfillment_order_number)).toEqual(first.accepted);
    } finally {
      await server.close();
      await engine.close();
    }
  });
});
