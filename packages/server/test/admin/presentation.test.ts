import { describe, expect, test } from 'vitest';
import { adminCall, adminServerPerTest } from './support.js';

/**
 * What the console reads to present a store (docs/admin-api.md, docs/console.md): the actions an
 * order offers, a dry run that counts what the action will act on, the store's currency, and
 * the orders that waited longer than the store allows.
 */

const serve = adminServerPerTest();
const HOUR = 3_600_000;

describe('the order detail', () => {
  test('names the interventions that apply to the order as it stands', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const actions = async (number: string) =>
      (await adminCall(server, 'GET', `/stores/default/orders/${number}`, { secret })).body.actions;
    const act = (number: string, action: string, json: unknown = {}) =>
      adminCall(server, 'POST', `/stores/default/orders/${number}/${action}`, { secret, json });

    expect(await actions('100001002-1')).toEqual([
      'fail',
      'cancel',
      'hold',
      'allow_partial',
      'move_lines',
    ]);
    await act('100001002-1', 'fail', { reason: 'no such street' });
    expect(await actions('100001002-1')).toEqual([
      'requeue',
      'abandon',
      'cancel',
      'allow_partial',
      'move_lines',
    ]);
    await act('100001002-1', 'abandon');
    expect(await actions('100001002-1')).toEqual(['cancel', 'allow_partial', 'move_lines']);
    await act('100001002-1', 'cancel');
    expect(await actions('100001002-1')).toEqual([]);
  });
});

describe('bulk', () => {
  test('a dry run counts the orders the action will act on, of those the filter selects', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    for (const number of ['100001001-1', '100001002-1', '100001003-1']) {
      await adminCall(server, 'POST', `/stores/default/orders/${number}/fail`, {
        secret,
        json: { reason: 'flood' },
      });
    }
    await adminCall(server, 'POST', '/stores/default/orders/100001003-1/abandon', {
      secret,
      json: {},
    });
    const dryRun = async (action: string) =>
      (
        await adminCall(server, 'POST', `/stores/default/bulk/${action}`, {
          secret,
          json: { filter: { status: 'failed' }, dry_run: true },
        })
      ).body;
    // The abandoned order stays failed: requeueing or abandoning it again would skip it.
    expect(await dryRun('requeue')).toEqual({ count: 2, selected: 3 });
    expect(await dryRun('abandon')).toEqual({ count: 2, selected: 3 });
    expect(await dryRun('cancel')).toEqual({ count: 3, selected: 3 });
    const run = await adminCall(server, 'POST', '/stores/default/bulk/requeue', {
      secret,
      json: { filter: { status: 'failed' }, dry_run: false },
    });
    const outcomes = run.body.results.map((result: { outcome: string }) => result.outcome);
    expect(outcomes.filter((outcome: string) => outcome === 'done')).toHaveLength(2);
  });
});

describe('store settings', () => {
  test('the currency is an ISO 4217 code, or none', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const put = (settings: unknown) =>
      adminCall(server, 'PUT', '/stores/default', { secret, json: { settings } });
    const read = async () =>
      (await adminCall(server, 'GET', '/stores/default', { secret })).body.settings;
    expect((await read()).currency).toBeNull();
    expect((await put({ currency: 'EUR' })).status).toBe(200);
    expect((await read()).currency).toBe('EUR');
    for (const wrong of ['EURO', 'eur', 'XQZ', 978]) {
      const refused = await put({ currency: wrong });
      expect(refused.status, String(wrong)).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('currency');
    }
    // A refused change changed nothing.
    expect((await read()).currency).toBe('EUR');
    expect((await put({ currency: null })).status).toBe(200);
    expect((await read()).currency).toBeNull();
  });

  test('each queue has an age past which the dashboard calls for a person', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const put = (hours: unknown) =>
      adminCall(server, 'PUT', '/stores/default', {
        secret,
        json: { settings: { attention_after_hours: hours } },
      });
    const thresholds = async () =>
      (await adminCall(server, 'GET', '/stores/default', { secret })).body.settings
        .attention_after_hours;
    expect(await thresholds()).toEqual({
      pending_accept: 24,
      pending_allocation: 24,
      pending_shipment: 48,
      pending_invoice: 72,
      pending_cancellation: 4,
    });
    expect((await put({ pending_accept: 6, pending_invoice: null })).status).toBe(200);
    expect((await put({ pending_shipment: 12 })).status).toBe(200);
    expect(await thresholds()).toEqual({
      pending_accept: 6,
      pending_allocation: 24,
      pending_shipment: 12,
      pending_invoice: null,
      pending_cancellation: 4,
    });
    expect((await put({ pending_cancellation: 1 })).status).toBe(200);
    for (const wrong of [0, 1.5, -2, 9000, '6']) {
      expect((await put({ pending_accept: wrong })).status, String(wrong)).toBe(400);
      expect((await put({ pending_cancellation: wrong })).status, String(wrong)).toBe(400);
    }
    expect(await thresholds()).toMatchObject({ pending_accept: 6, pending_cancellation: 1 });
  });
});

describe('the dashboard', () => {
  test('counts the orders that waited in each queue longer than the store allows', async () => {
    const server = await serve();
    const secret = server.secrets.viewer;
    const queue = async (name: string) => {
      const dashboard = await adminCall(server, 'GET', '/dashboard', { secret });
      const store = dashboard.body.stores.find(
        (s: { store_code: string }) => s.store_code === 'default',
      );
      return store.queues.find((q: { queue: string }) => q.queue === name);
    };
    expect((await queue('pending_accept')).attention).toMatchObject({
      after_hours: 24,
      orders: 0,
    });
    expect((await queue('failed')).attention).toBeNull();
    server.clock.advance(25 * HOUR);
    const waiting = (await queue('pending_accept')).attention;
    expect(waiting).toMatchObject({ after_hours: 24, orders: 4, capped: false });
    // The list of exactly those orders: the queue, created before `since`.
    const listed = await adminCall(
      server,
      'GET',
      `/stores/default/orders?queue=pending_accept&created_to=${encodeURIComponent(waiting.since)}`,
      { secret },
    );
    expect(listed.body.total.count).toBe(waiting.orders);
    await adminCall(server, 'PUT', '/stores/default', {
      secret: server.secrets.admin,
      json: { settings: { attention_after_hours: { pending_accept: null } } },
    });
    expect((await queue('pending_accept')).attention).toBeNull();
  });
});
