import { describe, expect, it } from 'vitest';
import { fixtures, ManualClock, startFulfil } from '../src/index.js';

describe('startFulfil', () => {
  it('serves the default seed over HTTP, with its tokens, until close()', async () => {
    const fulfil = await startFulfil();
    try {
      expect(fulfil.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(fulfil.storeCode).toBe('default');
      expect(fulfil.tokens).toEqual(fixtures.SEED_TOKENS);
      const response = await fetch(`${fulfil.url}/rest/default/V1/warehouses`, {
        headers: { Authorization: `Bearer ${fulfil.tokens.erp}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ name: 'Partner A', code: 'WH-A', active: true }]);
    } finally {
      await fulfil.close();
      await fulfil.close();
    }
    await expect(fetch(`${fulfil.url}/rest/default/V1/warehouses`)).rejects.toThrow();
  });

  it('loads the seed it is given and runs on the clock it is given', async () => {
    const clock = new ManualClock('2026-05-01T08:00:00Z');
    const fulfil = await startFulfil({
      clock,
      seed: fixtures.seed({ code: 'shop', orders: [fixtures.salesOrder('7001')] }),
    });
    try {
      expect(fulfil.storeCode).toBe('shop');
      const order = await fulfil.engine.getOrder('shop', '7001-1');
      expect(order.created_at).toBe('2026-05-01 08:00:00');
    } finally {
      await fulfil.close();
    }
  });

  it('refuses a bad seed and leaves nothing running', async () => {
    await expect(startFulfil({ seed: { stores: [] } })).rejects.toMatchObject({
      code: 'invalid_seed',
    });
  });
});
