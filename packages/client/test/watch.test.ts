import { type FulfilInstance, fixtures, startFulfil } from '@fulfil/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type FulfillmentOrder, type WatchOptions } from '../src/index.js';

/** `watch()` against a real server (docs/polling.md): long polls, cursors, starting over. */

const started: FulfilInstance[] = [];
afterEach(async () => {
  for (const fulfil of started.splice(0)) await fulfil.close();
});

async function serve(count: number): Promise<FulfilInstance> {
  const orders = Array.from({ length: count }, (_, i) =>
    fixtures.salesOrder(String(3000 + i), [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
  );
  const fulfil = await startFulfil({ seed: fixtures.seed({ orders }) });
  started.push(fulfil);
  return fulfil;
}

function takeIn(fulfil: FulfilInstance, number: string) {
  return fulfil.engine.intake(
    fulfil.storeCode,
    fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
  );
}

/** A client whose waits are recorded and pass at once: no test waits on a clock. */
function clientOf(fulfil: FulfilInstance) {
  const sleeps: number[] = [];
  let requests = 0;
  const client = createClient({
    baseUrl: fulfil.url,
    storeCode: fulfil.storeCode,
    token: fulfil.tokens.partner as string,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    fetch: (url, init) => {
      requests++;
      return globalThis.fetch(url, init as RequestInit);
    },
  });
  return { client, sleeps, requests: () => requests };
}

/** Takes `count` orders from the watch, running `between` after each one taken. */
async function take(
  watch: AsyncGenerator<FulfillmentOrder>,
  count: number,
  between: (taken: number) => Promise<void> = async () => {},
): Promise<string[]> {
  const numbers: string[] = [];
  while (numbers.length < count) {
    const next = await watch.next();
    if (next.done) break;
    numbers.push(next.value.fulfillment_order_number);
    await between(numbers.length);
  }
  return numbers;
}

describe('watch()', () => {
  it('yields the queue, then each new order as a long poll brings it', async () => {
    const fulfil = await serve(120);
    const { client } = clientOf(fulfil);
    const watch = client.watch('pending_accept', { wait: 20 });
    const first = await take(watch, 120);
    expect(new Set(first).size).toBe(120);
    // The watch now waits in a long poll: the intake wakes it.
    const next = watch.next();
    await takeIn(fulfil, '4001');
    expect((await next).value?.fulfillment_order_number).toBe('4001-1');
    await watch.return();
  });

  it('resumes from a persisted cursor: only what changed after it', async () => {
    const fulfil = await serve(3);
    const { client, requests } = clientOf(fulfil);
    const cursors: string[] = [];
    const options: WatchOptions = { wait: 20, onCursor: (cursor) => cursors.push(cursor) };
    const watch = client.watch('pending_accept', options);
    const seen = await take(watch, 3);
    // The pass still reads its last (empty) page, then the first long poll goes out.
    for (const [number, requestsOut] of [
      ['4001', 2],
      ['4002', 1],
    ] as const) {
      const sent = requests();
      const next = watch.next();
      // Once that long poll is out, everything before it was handed over with its cursor.
      while (requests() < sent + requestsOut) await new Promise((resolve) => setImmediate(resolve));
      await takeIn(fulfil, number);
      seen.push((await next).value?.fulfillment_order_number as string);
    }
    await watch.return();
    expect(seen.slice(3)).toEqual(['4001-1', '4002-1']);
    expect(cursors.length).toBeGreaterThan(0);

    await takeIn(fulfil, '4003');
    const resumed = client.watch('pending_accept', { wait: 20, cursor: cursors.at(-1) as string });
    const numbers = await take(resumed, 1);
    await resumed.return();
    // What came after the last cursor handed over: never the orders of the first pass again.
    expect(['4001-1', '4002-1', '4003-1']).toContain(numbers[0]);
  });

  it('starts over by itself when the service can no longer serve its cursor (410)', async () => {
    const fulfil = await serve(2);
    const { client } = clientOf(fulfil);
    const foreign = Buffer.from('1.0123456789abcdef.5.-1').toString('base64url');
    const watch = client.watch('pending_accept', { wait: 20, cursor: foreign });
    expect(await take(watch, 2)).toEqual(['3000-1', '3001-1']);
    await watch.return();
  });

  it('without long polling, short polls back off while idle and reset on data', async () => {
    const fulfil = await serve(1);
    const { client, sleeps } = clientOf(fulfil);
    const watch = client.watch('pending_accept', { wait: 0, idleMinMs: 100, idleMaxMs: 400 });
    await take(watch, 1);
    const next = watch.next();
    // Every empty answer sleeps longer, up to the most; the order taken in ends the idling.
    while (sleeps.length < 4) await new Promise((resolve) => setImmediate(resolve));
    await takeIn(fulfil, '4001');
    expect((await next).value?.fulfillment_order_number).toBe('4001-1');
    expect(sleeps.slice(0, 4)).toEqual([100, 200, 400, 400]);
    const after = watch.next();
    const mark = sleeps.length;
    while (sleeps.length < mark + 1) await new Promise((resolve) => setImmediate(resolve));
    expect(sleeps[mark]).toBe(100);
    await takeIn(fulfil, '4002');
    await after;
    await watch.return();
  });

  it('queue() pages by after: an order accepted meanwhile moves no other one past the loop', async () => {
    const fulfil = await serve(205);
    const { client } = clientOf(fulfil);
    const numbers: string[] = [];
    for await (const order of client.queue('pending_accept')) {
      numbers.push(order.fulfillment_order_number);
      // Accepting what was read shifts every later order one place down the queue.
      await client.accept({
        order: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      });
    }
    expect(new Set(numbers).size).toBe(205);
  });
});
