import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createMetrics } from '../../src/index.js';
import {
  advance,
  call,
  metricsOf,
  PATIENCE,
  sample,
  startTestServer,
  type TestServer,
  TOKENS,
} from '../http/support.js';

/**
 * A returns queue followed like a fulfillment queue (docs/polling.md): a partner's held poll of
 * pending_receipt answers as soon as a return to its warehouse is opened, with only that return.
 */

/** The poll's wait: it must be answered before this ends, however slow the machine. */
const WAIT_S = 25;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ server: { metrics: createMetrics() } });
});
afterAll(() => server.close());

test('a held since-poll of pending_receipt wakes when a return is opened, and shows only it', async () => {
  const shipped = await advance(server, '100001001-1', 'pending_invoice');
  const first = await call(server, 'GET', '/V1/returns/pending_receipt', {
    token: TOKENS.partnerA,
  });
  expect(first.body).toEqual([]);
  const cursor = first.headers.get('fulfil-cursor') as string;
  const started = Date.now();
  const held = call(server, 'GET', `/V1/returns/pending_receipt?since=${cursor}&wait=${WAIT_S}`, {
    token: TOKENS.partnerA,
  });
  // Held before the return is opened: it must wake, not find the return at once.
  await vi.waitFor(
    async () => expect(sample(await metricsOf(server), 'fulfil_long_polls_waiting')).toBe(1),
    PATIENCE,
  );
  const opened = await call(server, 'POST', '/V1/returns', {
    token: TOKENS.all,
    json: {
      return: {
        rma_number: 'RMA-LP',
        sales_order_number: '100001001',
        items: [
          {
            fulfillment_order_number: '100001001-1',
            item_id: shipped.items[0].id,
            qty: 1,
            reason: 'unwanted',
          },
        ],
      },
    },
  });
  expect(opened.status).toBe(201);
  const answer = await held;
  expect(answer.status).toBe(200);
  expect(answer.body.map((r: { rma_number: string }) => r.rma_number)).toEqual(['RMA-LP']);
  // Woken by the return, not by its wait ending.
  expect(Date.now() - started).toBeLessThan(WAIT_S * 1000);
  // Its cursor moves past it: the next since-poll without wait is empty.
  const next = await call(
    server,
    'GET',
    `/V1/returns/pending_receipt?since=${answer.headers.get('fulfil-cursor')}`,
    { token: TOKENS.partnerA },
  );
  expect(next.body).toEqual([]);
}, 60_000);
