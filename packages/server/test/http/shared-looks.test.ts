import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { type HeldToken, LongPolls, type Look } from '../../src/http/long-poll.js';
import { databaseKinds } from '../databases/open.js';
import { oneWarehouseStore, servedPerDescribe } from '../limits/support.js';

/**
 * Held requests that would read the same thing share one look (long-poll.ts): a commit wakes a
 * thousand followers of one feed for one read, as it wakes the waiters of a queue.
 */

const token: HeldToken = {
  key: 'default/channel',
  identity: 'default/channel',
  check: () => Promise.resolve(),
  expiresInMs: undefined,
};

describe('shared looks', () => {
  it('waiters of one key look once at first and once a change; other keys on their own', async () => {
    let notify: (store: number | null) => void = () => {};
    const polls = new LongPolls(
      { maxWaitMs: 60_000, jitter: 0, perToken: 100, total: 100 },
      {
        queues: (listener) => {
          notify = listener;
          return () => {};
        },
      },
    );
    let looks = 0;
    let ready = false;
    const look = async (): Promise<Look<string>> => {
      looks += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { result: ready ? 'new' : 'nothing', ready, pending: false, storeId: 1 };
    };
    const held = Array.from({ length: 20 }, () => polls.hold(token, 60, look, undefined, 'feed'));
    const alone = polls.hold(token, 60, look, undefined, 'other');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(looks).toBe(2);
    // Come after that look ended, with no change since: what it found is still what there is.
    const late = polls.hold(token, 60, look, undefined, 'feed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(looks).toBe(2);
    ready = true;
    notify(1);
    expect(await Promise.all([...held, late])).toEqual(Array(21).fill('new'));
    expect(await alone).toBe('new');
    expect(looks).toBe(4);
    polls.close();
  });
});

for (const kind of databaseKinds()) {
  describe(`held feed polls sharing their look on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore({ 'SKU-1': 100 }));

    it('every one of them has the sales order a commit brings, with the same cursor', async () => {
      const { cursor } = await served.get('/V1/salesOrders?after=0');
      // As many as one token may hold at once.
      const held = Array.from({ length: 10 }, () =>
        served.get(`/V1/salesOrders?since=${encodeURIComponent(cursor as string)}&wait=20`),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const taken = await served.post('/V1/salesOrders', {
        sales_order: fixtures.salesOrder('1501', [{ sku: 'SKU-1', qty: 1 }]),
      });
      expect(taken.status).toBe(201);
      const answers = await Promise.all(held);
      for (const answer of answers) {
        expect(
          answer.body.map((view: { sales_order_number: string }) => view.sales_order_number),
        ).toEqual(['1501']);
      }
      expect(new Set(answers.map((answer) => answer.cursor)).size).toBe(1);
    });
  });
}
