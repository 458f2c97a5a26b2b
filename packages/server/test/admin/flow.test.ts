import { describe, expect, test } from 'vitest';
import { call, TOKENS } from '../http/support.js';
import { adminCall, adminServerPerTest, login } from './support.js';

/** What an operator does through the admin API, end to end over HTTP (docs/admin-api.md). */

const serve = adminServerPerTest();

describe('orders', () => {
  test('finds an order by its sales order number and reads its timeline, actors and request ids', async () => {
    const server = await serve();
    const { session } = await login(server, 'oscar', server.secrets.operator);
    const found = await adminCall(server, 'GET', '/stores/default/orders?q=000123', { session });
    expect(found.status).toBe(200);
    expect(
      found.body.orders.map(
        (o: { fulfillment_order_number: string }) => o.fulfillment_order_number,
      ),
    ).toEqual(['000123-1']);
    expect(found.body.total).toEqual({ count: 1, capped: false });
    expect(found.body.next).toBeNull();

    const detail = await adminCall(server, 'GET', '/stores/default/orders/000123-1', { session });
    const item = detail.body.order.items[0];
    // A partner's accept through /V1 lands on the timeline under the token's name.
    const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      headers: { 'x-request-id': 'partner-req-1' },
      json: { order: { order_id: '000123-1', items: [{ item_id: item.id, qty: item.qty }] } },
    });
    expect(accepted.status).toBe(200);
    const failed = await adminCall(server, 'POST', '/stores/default/orders/000123-1/fail', {
      session,
      json: { reason: 'label printer on fire' },
      headers: { 'x-request-id': 'op-req-7' },
    });
    expect(failed.status).toBe(200);
    expect(failed.headers.get('x-request-id')).toBe('op-req-7');
    expect(failed.body.failure).toMatchObject({
      reason: 'label printer on fire',
      abandoned: false,
    });
    const requeued = await adminCall(server, 'POST', '/stores/default/orders/000123-1/requeue', {
      session,
      json: { reason: 'printer fixed' },
    });
    expect(requeued.status).toBe(200);
    expect(requeued.body.failure).toBeNull();
    const generatedId = requeued.headers.get('x-request-id');
    expect(generatedId).toMatch(/^[0-9a-f]{16}$/);
    const timeline = requeued.body.timeline.map(
      ({ actor, action, reason, request_id }: Record<string, unknown>) => ({
        actor,
        action,
        reason,
        request_id,
      }),
    );
    expect(timeline).toEqual([
      { actor: 'seed', action: 'intake', reason: null, request_id: null },
      { actor: 'partner-a', action: 'accept', reason: null, request_id: 'partner-req-1' },
      { actor: 'oscar', action: 'fail', reason: 'label printer on fire', request_id: 'op-req-7' },
      { actor: 'oscar', action: 'requeue', reason: 'printer fixed', request_id: generatedId },
    ]);
    // Requeueing again is a wrong stage, 400, and writes nothing.
    const again = await adminCall(server, 'POST', '/stores/default/orders/000123-1/requeue', {
      session,
      json: {},
    });
    expect(again.status).toBe(400);
    const after = await adminCall(server, 'GET', '/stores/default/orders/000123-1', { session });
    expect(after.body.timeline).toHaveLength(4);
  });

  test('bad filters are 400 naming the field; a hostile query is only text', async () => {
    const server = await serve();
    const secret = server.secrets.viewer;
    for (const query of [
      'status=nope',
      'queue=x',
      'created_from=2026-02-30',
      'limit=0',
      'limit=201',
      'after=abc',
    ]) {
      const reply = await adminCall(server, 'GET', `/stores/default/orders?${query}`, { secret });
      expect(reply.status, query).toBe(400);
      expect(reply.body.code).toBe(1001);
    }
    const hostile = await adminCall(
      server,
      'GET',
      `/stores/default/orders?q=${encodeURIComponent("' or 1=1 --<img src=x onerror=alert(1)>")}`,
      { secret },
    );
    expect(hostile.status).toBe(200);
    expect(hostile.body.orders).toEqual([]);
  });

  test('the per-order partials override lets one order be accepted in part', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const detail = await adminCall(server, 'GET', '/stores/default/orders/100001001-1', { secret });
    const [first] = detail.body.order.items;
    const partial = {
      order: { order_id: '100001001-1', items: [{ item_id: first.id, qty: first.qty }] },
    };
    const refused = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: partial,
    });
    expect(refused.status).toBe(400);
    const allowed = await adminCall(
      server,
      'POST',
      '/stores/default/orders/100001001-1/allow-partial',
      {
        secret,
        json: { allow: true },
      },
    );
    expect(allowed.status).toBe(200);
    expect(allowed.body.timeline.at(-1)).toMatchObject({ actor: 'oscar', action: 'allow_partial' });
    const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: partial,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('partially_accepted');
  });

  test('a track shipped wrong is corrected on the timeline, by the operator, with the request id', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const detail = await adminCall(server, 'GET', '/stores/default/orders/000123-1', { secret });
    const items = detail.body.order.items.map((item: { id: number; qty: number }) => ({
      item_id: item.id,
      qty: item.qty,
    }));
    const order_id = '000123-1';
    for (const [token, path, json] of [
      [TOKENS.partnerA, 'accept', { order: { order_id, items } }],
      [TOKENS.erp, 'allocate', { allocation: { order_id, items } }],
      [
        TOKENS.partnerA,
        'ship',
        {
          shipment: {
            order_id,
            items,
            tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: 'WRONG-1' }],
          },
        },
      ],
    ] as const) {
      const done = await call(server, 'POST', `/V1/fulfillmentOrder/${path}`, { token, json });
      expect(done.status, path).toBe(200);
    }
    const shipped = await adminCall(server, 'GET', `/stores/default/orders/${order_id}`, {
      secret,
    });
    const [shipment] = shipped.body.shipments;
    const correction = {
      shipment: shipment.id,
      tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: 'RIGHT-2' }],
      reason: 'typed from the wrong label',
    };
    const viewer = await adminCall(
      server,
      'POST',
      `/stores/default/orders/${order_id}/correct-tracks`,
      {
        secret: server.secrets.viewer,
        json: correction,
      },
    );
    expect(viewer.status).toBe(403);
    const corrected = await adminCall(
      server,
      'POST',
      `/stores/default/orders/${order_id}/correct-tracks`,
      {
        secret,
        json: correction,
        headers: { 'x-request-id': 'op-track-1' },
      },
    );
    expect(corrected.status).toBe(200);
    expect(corrected.body.shipments[0].tracks).toEqual(correction.tracks);
    expect(corrected.body.timeline.at(-1)).toMatchObject({
      actor: 'oscar',
      action: 'correct_tracks',
      reason: 'typed from the wrong label',
      request_id: 'op-track-1',
    });
    // The partner's retry with the right track now matches what is recorded.
    const retried = await call(server, 'POST', '/V1/fulfillmentOrder/ship', {
      token: TOKENS.partnerA,
      json: { shipment: { order_id, items, tracks: correction.tracks } },
    });
    expect(retried.status).toBe(200);
  });
});

describe('stock and tokens', () => {
  test('setting on hand changes available; reserved stays', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const set = await adminCall(server, 'PUT', '/stores/default/stock/WH-A/SKU-1', {
      secret,
      json: { on_hand: 7 },
    });
    expect(set.status).toBe(200);
    const listed = await adminCall(
      server,
      'GET',
      '/stores/default/stock?sku=SKU-1&warehouse=WH-A',
      { secret },
    );
    // The seeded orders waiting at WH-A hold 3 reserved since they were routed; the set keeps it.
    expect(listed.body.items).toEqual([
      {
        warehouse_code: 'WH-A',
        sku: 'SKU-1',
        on_hand: 7,
        reserved: 3,
        safety_stock: 0,
        available: 4,
        quarantined: 0,
      },
    ]);
    const bad = await adminCall(server, 'PUT', '/stores/default/stock/WH-A/SKU-1', {
      secret,
      json: { on_hand: -1 },
    });
    expect(bad.status).toBe(400);
    const unknown = await adminCall(server, 'PUT', '/stores/default/stock/NOPE/SKU-1', {
      secret,
      json: { on_hand: 1 },
    });
    expect(unknown.status).toBe(404);
  });

  test('a set with change_from applies only while the on hand is still that figure', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const put = (json: unknown) =>
      adminCall(server, 'PUT', '/stores/default/stock/WH-A/SKU-1', { secret, json });
    expect((await put({ on_hand: 7 })).status).toBe(200);
    const stale = await put({ on_hand: 9, change_from: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe(1409);
    expect(stale.body.parameters).toEqual([{ fieldName: 'change_from', fieldValue: '7' }]);
    expect(stale.body.detail).toBe('change_from was 5, but the on hand is 7 now.');
    const applied = await put({ on_hand: 9, change_from: 7 });
    expect(applied.status).toBe(200);
    expect(applied.body.on_hand).toBe(9);
    // A sku the warehouse never had: 0 on hand.
    const fresh = await adminCall(server, 'PUT', '/stores/default/stock/WH-A/NEW-SKU', {
      secret,
      json: { on_hand: 3, change_from: 0 },
    });
    expect(fresh.status).toBe(200);
  });

  test('a token created here works on /V1 until revoked; a rotated one overlaps, then ends', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const created = await adminCall(server, 'POST', '/stores/default/tokens', {
      secret,
      json: { name: 'new-partner', acl: 'partner', warehouses: ['WH-A'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const listed = await adminCall(server, 'GET', '/stores/default/tokens', { secret });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    expect(
      (await call(server, 'GET', '/V1/warehouses', { token: created.body.token })).status,
    ).toBe(200);

    const rotated = await adminCall(server, 'POST', '/stores/default/tokens/new-partner/rotate', {
      secret,
      json: { overlap_seconds: 3600 },
    });
    expect(rotated.status).toBe(201);
    expect(
      (await call(server, 'GET', '/V1/warehouses', { token: rotated.body.token })).status,
    ).toBe(200);
    expect(
      (await call(server, 'GET', '/V1/warehouses', { token: created.body.token })).status,
    ).toBe(200);
    server.clock.advance(3601_000);
    expect(
      (await call(server, 'GET', '/V1/warehouses', { token: created.body.token })).status,
    ).toBe(401);
    expect(
      (await call(server, 'GET', '/V1/warehouses', { token: rotated.body.token })).status,
    ).toBe(200);

    const revoked = await adminCall(server, 'POST', '/stores/default/tokens/new-partner/revoke', {
      secret,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.info.revoked_at).not.toBeNull();
    expect(
      (await call(server, 'GET', '/V1/warehouses', { token: rotated.body.token })).status,
    ).toBe(401);
  });

  test('a sales channel’s token limited to warehouses, refused by every call it would make, is refused at creation', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const tokens = async () =>
      (await adminCall(server, 'GET', '/stores/default/tokens', { secret })).body;
    const before = await tokens();
    for (const acl of ['channel', ['Fulfil_SalesOrder::api_read', 'Fulfil_Return::api_create']]) {
      const refused = await adminCall(server, 'POST', '/stores/default/tokens', {
        secret,
        json: { name: 'shop-a', acl, warehouses: ['WH-A'] },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.parameters).toEqual([
        expect.objectContaining({ fieldName: 'warehouses' }),
      ]);
    }
    expect(await tokens()).toEqual(before);
    // A token that also polls a partner's queues keeps its scope: those calls work.
    const mixed = await adminCall(server, 'POST', '/stores/default/tokens', {
      secret,
      json: { name: 'mixed', acl: 'all', warehouses: ['WH-A'] },
    });
    expect(mixed.status).toBe(201);
  });
});

describe('bulk', () => {
  test('acts on exactly the orders of a filter spanning three pages, never on the others; repeating is harmless', async () => {
    const server = await serve();
    const { engine } = server;
    const secret = server.secrets.operator;
    // 230 failed orders at WH-B among 120 failed at WH-A and the seed's live ones.
    const orders = Array.from({ length: 350 }, (_, i) => ({
      number: `7${String(i).padStart(5, '0')}`,
      warehouse: i % 3 === 0 && i < 360 && i % 9 !== 0 ? 'WH-A' : 'WH-B',
    }));
    for (const { number, warehouse } of orders) {
      await engine.intake('default', {
        ...(await import('../http/support.js')).salesOrder(Number(number), number, warehouse, [
          ['SKU-1', 1],
        ]),
      });
      await engine.failOrder('default', `${number}-1`, 'flood');
    }
    const matching = orders.filter((o) => o.warehouse === 'WH-B').map((o) => `${o.number}-1`);
    expect(matching.length).toBeGreaterThan(200);
    const filter = { status: 'failed', warehouse: 'WH-B' };

    // The search pages through the same set: three pages of 100.
    const paged: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({ ...filter, limit: '100', ...(after ? { after } : {}) });
      const page = await adminCall(server, 'GET', `/stores/default/orders?${query}`, { secret });
      paged.push(
        ...page.body.orders.map(
          (o: { fulfillment_order_number: string }) => o.fulfillment_order_number,
        ),
      );
      after = page.body.next;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect([...paged].sort()).toEqual([...matching].sort());

    const dry = await adminCall(server, 'POST', '/stores/default/bulk/requeue', {
      secret,
      json: { filter, dry_run: true },
    });
    expect(dry.body).toEqual({ count: matching.length, selected: matching.length });
    const run = await adminCall(server, 'POST', '/stores/default/bulk/requeue', {
      secret,
      json: { filter, dry_run: false, reason: 'flood over' },
    });
    expect(run.status).toBe(200);
    const done = run.body.results
      .filter((r: { outcome: string }) => r.outcome === 'done')
      .map((r: { order: string }) => r.order);
    expect([...done].sort()).toEqual([...matching].sort());
    expect(run.body.results).toHaveLength(matching.length);
    // The others are still failed; the touched ones are not.
    const stillFailed = await adminCall(
      server,
      'GET',
      '/stores/default/orders?status=failed&limit=200',
      { secret },
    );
    const failedNow = stillFailed.body.orders.map(
      (o: { fulfillment_order_number: string }) => o.fulfillment_order_number,
    );
    expect([...failedNow].sort()).toEqual(
      orders
        .filter((o) => o.warehouse === 'WH-A')
        .map((o) => `${o.number}-1`)
        .sort(),
    );
    const sample = await adminCall(server, 'GET', `/stores/default/orders/${matching[0]}`, {
      secret,
    });
    expect(sample.body.timeline.at(-1)).toMatchObject({
      actor: 'oscar',
      action: 'requeue',
      reason: 'flood over',
    });

    // The same bulk over the orders requeued: the filter now selects none of them.
    const again = await adminCall(server, 'POST', '/stores/default/bulk/requeue', {
      secret,
      json: { filter, dry_run: false },
    });
    expect(again.body.results).toEqual([]);
    // Over a filter that still selects them, each is skipped with its reason.
    const byNumber = await adminCall(server, 'POST', '/stores/default/bulk/requeue', {
      secret,
      json: { filter: { q: matching[0] }, dry_run: false },
    });
    expect(byNumber.body.results).toEqual([
      { order: matching[0], outcome: 'skipped', reason: expect.stringContaining('not failed') },
    ]);
  });
});

describe('sales orders', () => {
  test('an operator holds, releases and cancels a sales order by the rules a channel follows', async () => {
    const server = await serve();
    const { session } = await login(server, 'oscar', server.secrets.operator);
    const base = '/stores/default/sales-orders/000123';
    const bad = await adminCall(server, 'POST', `${base}/hold`, {
      session,
      json: { reason: 'awaiting_payment' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.parameters).toEqual([expect.objectContaining({ fieldName: 'handle' })]);
    const held = await adminCall(server, 'POST', `${base}/hold`, {
      session,
      json: { handle: 'address', reason: 'incorrect_address', note: 'no house number' },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body).toMatchObject({ handle: 'address', held: ['000123-1'] });
    expect(held.body.sales_order.holds[0]).toMatchObject({ placed_by: 'oscar', status: 'active' });
    const released = await adminCall(server, 'POST', `${base}/release`, {
      session,
      json: { handle: 'address' },
    });
    expect(released.status).toBe(200);
    expect(released.body.holds[0]).toMatchObject({ released_by: 'oscar', status: 'released' });

    const detail = await adminCall(server, 'GET', '/stores/default/orders/000123-1', { session });
    const items = detail.body.order.items.map((item: { id: number; qty: number }) => ({
      item_id: item.id,
      qty: item.qty,
    }));
    const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: { order: { order_id: '000123-1', items } },
    });
    expect(accepted.status).toBe(200);
    const canceled = await adminCall(server, 'POST', `${base}/cancel`, {
      session,
      json: { reason: 'customer' },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.cancellation_requests[0]).toMatchObject({
      status: 'open',
      requested_by: 'oscar',
    });
    const after = await adminCall(server, 'GET', '/stores/default/orders/000123-1', { session });
    expect(
      after.body.timeline.map(({ actor, action }: Record<string, unknown>) => [actor, action]),
    ).toEqual([
      ['seed', 'intake'],
      ['oscar', 'hold'],
      ['oscar', 'release'],
      ['partner-a', 'accept'],
      ['oscar', 'cancel'],
    ]);
  });
});
