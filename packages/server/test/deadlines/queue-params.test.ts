import { describe, expect, test } from 'vitest';
import { call, salesOrder, serverPerTest, TOKENS } from '../http/support.js';

/**
 * `include=fulfill_by` and `sort=fulfill_by` on queue GETs (docs/deadlines.md): extensions
 * invisible to a caller that sends neither (docs/polling.md); every reply is checked against
 * the OpenAPI document.
 */

const serve = serverPerTest();
const token = TOKENS.all;

const intake = (server: { url: string }, number: string, fulfillBy?: string) =>
  call(server, 'POST', '/V1/salesOrders', {
    token,
    json: {
      sales_order: {
        ...salesOrder(Number(number), number, 'WH-A', [['SKU-1', 1]]),
        ...(fulfillBy === undefined ? {} : { fulfill_by: fulfillBy }),
      },
    },
  });

describe('queue GETs with deadlines', () => {
  test('include and sort, keyset and since, and unchanged without them', async () => {
    const server = await serve();
    const queue = '/V1/fulfillmentOrders/pending_accept';
    const plain = await call(server, 'GET', queue, { token });
    expect(plain.status).toBe(200);
    expect(plain.body.every((order: object) => !('fulfill_by' in order))).toBe(true);
    const cursor = plain.headers.get('fulfil-cursor') as string;

    for (const [number, by] of [
      ['900001', '2026-01-03T10:00:00Z'],
      ['900002', '2026-01-01T09:00:00+01:00'],
      ['900003', '2026-01-02T00:00:00Z'],
    ] as const) {
      const taken = await intake(server, number, by);
      expect(taken.status, taken.text).toBe(201);
    }
    const refused = await intake(server, '900004', '3 January');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('fulfill_by');

    // Without the extensions: id order, no field.
    const unchanged = await call(server, 'GET', queue, { token });
    expect(unchanged.body.map((order: { id: number }) => order.id)).toEqual(
      unchanged.body.map((order: { id: number }) => order.id).sort((a: number, b: number) => a - b),
    );
    expect(unchanged.body.some((order: object) => 'fulfill_by' in order)).toBe(false);

    const sorted = await call(server, 'GET', `${queue}?sort=fulfill_by&include=fulfill_by`, {
      token,
    });
    expect(sorted.status).toBe(200);
    const deadlines = sorted.body.map((order: { fulfill_by: string }) => order.fulfill_by);
    expect(deadlines).toEqual([...deadlines].sort());
    const mine = sorted.body
      .filter((order: { sales_order_number: string }) => order.sales_order_number.startsWith('9'))
      .map((order: { sales_order_number: string; fulfill_by: string }) => [
        order.sales_order_number,
        order.fulfill_by,
      ]);
    expect(mine).toEqual([
      ['900002', '2026-01-01 08:00:00'],
      ['900003', '2026-01-02 00:00:00'],
      ['900001', '2026-01-03 10:00:00'],
    ]);
    // The seed's orders were taken in at 2026-01-01 00:00 UTC, a Thursday: the default calendar
    // gives them 17:00 UTC that day.
    expect(deadlines).toContain('2026-01-01 17:00:00');

    // after = the last id of the page before: the rest, in the same order.
    const first = sorted.body[0] as { id: number };
    const rest = await call(server, 'GET', `${queue}?sort=fulfill_by&after=${first.id}`, { token });
    expect(rest.body.map((order: { id: number }) => order.id)).toEqual(
      sorted.body.slice(1).map((order: { id: number }) => order.id),
    );
    expect(rest.body.some((order: object) => 'fulfill_by' in order)).toBe(false);

    // since: the changes after the cursor, the most urgent first.
    const changed = await call(
      server,
      'GET',
      `${queue}?since=${encodeURIComponent(cursor)}&sort=fulfill_by&include=fulfill_by`,
      { token },
    );
    expect(
      changed.body.map((order: { sales_order_number: string }) => order.sales_order_number),
    ).toEqual(['900002', '900003', '900001']);

    for (const [query, field] of [
      ['sort=deadline', 'sort'],
      ['include=everything', 'include'],
      ['sort=fulfill_by&after=999999', 'after'],
    ]) {
      const bad = await call(server, 'GET', `${queue}?${query}`, { token });
      expect(bad.status, query).toBe(400);
      expect(JSON.stringify(bad.body), query).toContain(field);
    }
  });
});
