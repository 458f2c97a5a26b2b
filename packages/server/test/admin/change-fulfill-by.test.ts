import { describe, expect, test } from 'vitest';
import { adminCall, adminServerPerTest } from './support.js';

/**
 * An operator changes `fulfill_by` (docs/deadlines.md): one order or a filter's worth, always
 * with a reason, each change on the order's timeline; bad input is 400 naming the field.
 */

const serve = adminServerPerTest();

describe('changing fulfill_by', () => {
  test('one order, with a reason, on its timeline', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const path = '/stores/default/orders/100001001-1';
    const before = (await adminCall(server, 'GET', path, { secret })).body.deadline.fulfill_by;
    expect(before).toBe('2026-01-01 17:00:00');

    const changed = await adminCall(server, 'POST', `${path}/fulfill-by`, {
      secret,
      json: { fulfill_by: '2026-01-05T09:00:00+01:00', reason: 'customer asked for Monday' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.deadline.fulfill_by).toBe('2026-01-05 08:00:00');
    const entry = changed.body.timeline.at(-1);
    expect(entry).toMatchObject({
      action: 'change_fulfill_by',
      actor: 'oscar',
      reason: 'customer asked for Monday',
      details: { fulfill_by: '2026-01-05 08:00:00', before },
    });

    for (const [json, field] of [
      [{ fulfill_by: '2026-01-05T09:00:00Z' }, 'reason'],
      [{ fulfill_by: '2026-01-05T09:00:00Z', reason: '  ' }, 'reason'],
      [{ fulfill_by: 'Monday', reason: 'x' }, 'fulfill_by'],
    ] as const) {
      const refused = await adminCall(server, 'POST', `${path}/fulfill-by`, { secret, json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    const viewer = await adminCall(server, 'POST', `${path}/fulfill-by`, {
      secret: server.secrets.viewer,
      json: { fulfill_by: '2026-01-05T09:00:00Z', reason: 'x' },
    });
    expect(viewer.status).toBe(403);
  });

  test('in bulk over a filter: a dry run counts, a run changes each', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const body = {
      filter: { warehouse: 'WH-A' },
      fulfill_by: '2026-01-02T12:00:00Z',
      reason: 'the warehouse was closed',
    };
    const dry = await adminCall(server, 'POST', '/stores/default/bulk-fulfill-by', {
      secret,
      json: { ...body, dry_run: true },
    });
    expect(dry.body).toEqual({ count: 3, selected: 3 });
    const run = await adminCall(server, 'POST', '/stores/default/bulk-fulfill-by', {
      secret,
      json: { ...body, dry_run: false },
    });
    expect(run.body.results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'done',
      'done',
      'done',
    ]);
    const list = await adminCall(server, 'GET', '/stores/default/orders?warehouse=WH-A', {
      secret,
    });
    expect(list.body.orders.map((order: { fulfill_by: string }) => order.fulfill_by)).toEqual([
      '2026-01-02 12:00:00',
      '2026-01-02 12:00:00',
      '2026-01-02 12:00:00',
    ]);
    const again = await adminCall(server, 'POST', '/stores/default/bulk-fulfill-by', {
      secret,
      json: { ...body, dry_run: true },
    });
    expect(again.body).toEqual({ count: 0, selected: 3 });
  });

  test('in bulk over a list of orders: each listed one changes, an unknown one is skipped', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const bulk = (json: object) =>
      adminCall(server, 'POST', '/stores/default/bulk-fulfill-by', { secret, json });
    const body = { fulfill_by: '2026-01-03T08:00:00Z', reason: 'promised to the customer' };
    const orders = ['100001001-1', 'NO-SUCH-ORDER', '100001001-1'];
    expect((await bulk({ ...body, orders, dry_run: true })).body).toEqual({
      count: 1,
      selected: 2,
    });
    const run = await bulk({ ...body, orders, dry_run: false });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results).toEqual([
      { order: '100001001-1', outcome: 'done' },
      { order: 'NO-SUCH-ORDER', outcome: 'skipped', reason: expect.any(String) },
    ]);
    const detail = await adminCall(server, 'GET', '/stores/default/orders/100001001-1', {
      secret,
    });
    expect(detail.body.deadline.fulfill_by).toBe('2026-01-03 08:00:00');

    // Both ways of naming the orders, neither, an empty or too long list: 400, nothing changes.
    for (const json of [
      { ...body, orders, filter: {}, dry_run: false },
      { ...body, dry_run: false },
      { ...body, orders: [], dry_run: false },
      { ...body, orders: Array.from({ length: 201 }, (_, i) => `FO-${i}`), dry_run: false },
      { ...body, orders: ['100001001-1'], dry_run: false, reason: ' ' },
    ]) {
      const refused = await bulk(json);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    }
    const after = await adminCall(server, 'GET', '/stores/default/orders/100001001-1', {
      secret,
    });
    expect(
      after.body.timeline.filter((e: { action: string }) => e.action === 'change_fulfill_by'),
    ).toHaveLength(1);
  });
});
