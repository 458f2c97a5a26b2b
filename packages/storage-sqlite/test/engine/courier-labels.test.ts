import {
  type Courier,
  type CourierFactory,
  createEngine,
  createSimulatedCarrier,
  type Engine,
  ManualClock,
  type SimulatedCall,
  type SimulatedFault,
  unverified,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';

/** docs/couriers.md: labels, the void queue, rate limits and carrier errors, call by call. */

let engine: Engine;
afterEach(() => engine.close());

const NONE = { shipped: [], retrying: [], failed: [], voided: [], void_failed: [] };

/** An engine whose store ships through `courier`, with one allocated order of `lines` lines. */
async function open(
  factory: CourierFactory,
  options: { lines?: number; max_attempts?: number; lease_ms?: number } = {},
) {
  const clock = new ManualClock('2026-06-01T09:00:00Z');
  engine = createEngine({
    repository: await openSqliteRepository(':memory:'),
    clock,
    couriers: { test: factory },
    carrierAccounts: { test: { type: 'test' } },
    courier: { lease_ms: options.lease_ms ?? 120_000 },
  });
  const lines = options.lines ?? 1;
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        settings: {
          courier: {
            account: 'test',
            max_attempts: options.max_attempts ?? 3,
            rate_per_second: 1000,
          },
        },
        warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
        stock: [1, 2, 3].map((n) => ({ warehouse_code: 'HQ', sku: `SKU-${n}`, qty: 10 })),
        orders: [
          fixtures.salesOrder(
            '800',
            Array.from({ length: lines }, (_, n) => ({ sku: `SKU-${n + 1}`, qty: 1 })),
            { warehouse_code: 'HQ' },
          ),
        ],
      },
    ],
  });
  const order = await engine.getOrder('default', '800-1');
  await engine.allocate(engine.operator('default'), {
    allocation: { order_id: '800-1', items: order.items.map((item) => ({ item_id: item.id })) },
  });
  return clock;
}

/** A simulated carrier whose calls fail as `script` says, call by call (then succeed). */
function scripted(script: (call: SimulatedCall, n: number) => SimulatedFault | null) {
  let n = 0;
  const calls: SimulatedCall[] = [];
  const carrier = createSimulatedCarrier({
    throttle_wait_ms: 600_000,
    faults: (call) => {
      calls.push(call);
      return script(call, n++);
    },
  });
  return { ...carrier, calls };
}

describe('docs/couriers.md: labels and the carrier', () => {
  it('labels are stored with the shipment and print again without calling the carrier', async () => {
    const carrier = scripted(() => null);
    await open(carrier.factory, { lines: 2 });
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, shipped: ['800-1'] });
    const labels = await engine.reprintLabel('default', '800-1');
    expect(labels.map((label) => [label.parcel_index, label.status])).toEqual([
      [1, 'live'],
      [2, 'live'],
    ]);
    expect(labels.every((label) => label.document?.startsWith('^XA'))).toBe(true);
    const { shipments } = await engine.getOrderHistory('default', '800-1');
    expect(shipments[0]?.tracks.map((track) => track.track_number)).toEqual(
      labels.map((label) => label.tracking_number),
    );
    const calls = carrier.calls.length;
    await engine.reprintLabel('default', '800-1');
    expect(carrier.calls.length).toBe(calls);
    expect(carrier.ledger.entries()).toHaveLength(2);
  });

  it('a 429 waits at least what the carrier asked and never uses up an attempt', async () => {
    let throttles = 5;
    const carrier = scripted(() => (throttles-- > 0 ? 'throttle' : null));
    const clock = await open(carrier.factory, { max_attempts: 1 });
    for (let round = 0; round < 5; round++) {
      expect(await engine.dispatchCourier()).toEqual({ ...NONE, retrying: ['800-1'] });
      const { courier } = await engine.getOrderHistory('default', '800-1');
      expect(courier.attempts).toBe(0);
      // The carrier asked for ten minutes: nothing happens a second before.
      clock.advance(599_000);
      expect(await engine.dispatchCourier()).toEqual(NONE);
      clock.advance(1_000);
    }
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, shipped: ['800-1'] });
  });

  it('a multi-parcel shipment that fails for good voids the parcels already labelled', async () => {
    const carrier = scripted((call) =>
      call.op === 'create' && call.target.endsWith('/3') ? 'refuse' : null,
    );
    await open(carrier.factory, { lines: 3, max_attempts: 1 });
    expect(await engine.dispatchCourier()).toEqual({
      ...NONE,
      failed: ['800-1'],
      voided: ['800-1'],
    });
    expect(carrier.ledger.entries().map((entry) => entry.status)).toEqual(['voided', 'voided']);
    const history = await engine.getOrderHistory('default', '800-1');
    expect(history.failure?.reason).toBe(
      'courier: permanent: [invalid_address] the address is invalid',
    );
    const fail = history.audit.find((event) => event.action === 'fail');
    expect(fail?.details).toMatchObject({
      carrier: { kind: 'permanent', code: 'invalid_address', message: 'the address is invalid' },
    });
    expect(history.audit.filter((event) => event.action === 'label_void')).toHaveLength(2);
    expect(await engine.reprintLabel('default', '800-1')).toEqual([]);
    // Nor does the admin API hand a voided label's document out to print.
    const { secret } = await engine.admin.createOperator({ name: 'vera', role: 'viewer' });
    const viewer = await engine.admin.authenticateOperator(secret);
    const [voided] = await engine.listLabels('default', '800-1');
    expect(voided?.status).toBe('voided');
    await expect(
      engine.admin.labelDocument(viewer, 'default', '800-1', String(voided?.id)),
    ).rejects.toMatchObject({ code: 'wrong_stage' });
  });

  it('canceling voids live labels through the dispatcher; a refused void is retried and shown', async () => {
    let voidRefusals = 1;
    const carrier = scripted((call) => {
      if (call.op === 'create' && call.target.endsWith('/2')) return 'server_error';
      if (call.op === 'void' && voidRefusals-- > 0) return 'refuse';
      return null;
    });
    const clock = await open(carrier.factory, { lines: 2 });
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, retrying: ['800-1'] });
    expect(carrier.ledger.entries().map((e) => e.status)).toEqual(['live']);
    await engine.cancelOrder('default', '800-1');
    // Canceling is one transaction: it never calls the carrier itself.
    expect(carrier.ledger.entries().map((e) => e.status)).toEqual(['live']);
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, void_failed: ['800-1'] });
    const [label] = await engine.listLabels('default', '800-1');
    expect(label).toMatchObject({
      status: 'void_failed',
      void_attempts: 1,
      last_error: 'permanent: [invalid_address] the address is invalid',
    });
    const history = await engine.getOrderHistory('default', '800-1');
    expect(history.audit.at(-1)).toMatchObject({
      action: 'label_void_failed',
      details: { carrier: { code: 'invalid_address', message: 'the address is invalid' } },
    });
    clock.advance(30_000);
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, voided: ['800-1'] });
    expect(carrier.ledger.entries().map((e) => e.status)).toEqual(['voided']);
  });

  it("a channel's cancel of a courier warehouse's order is at once, with its live labels voided", async () => {
    const carrier = scripted((call) =>
      call.op === 'create' && call.target.endsWith('/2') ? 'server_error' : null,
    );
    await open(carrier.factory, { lines: 2 });
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, retrying: ['800-1'] });
    // No partner to ask: no request, every line canceled now.
    const view = await engine.cancelSalesOrder(engine.operator('default'), {
      cancellation: { sales_order_number: '800', reason: 'customer' },
    });
    expect(view.status).toBe('canceled');
    expect(view.cancellation_requests).toEqual([]);
    expect((await engine.listLabels('default', '800-1')).map((label) => label.status)).toEqual([
      'voiding',
    ]);
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, voided: ['800-1'] });
    expect(carrier.ledger.entries().map((e) => e.status)).toEqual(['voided']);
  });

  it("the carrier's message is recorded verbatim, bounded to 500 characters", async () => {
    const message = `<b>"${'x'.repeat(2_000)}`;
    const refusing: CourierFactory = (settings, account) => ({
      ...createSimulatedCarrier().factory(settings, account),
      createShipment: async () => ({ kind: 'permanent', code: 'E42', message }),
    });
    await open(refusing, { max_attempts: 1 });
    await engine.dispatchCourier();
    const history = await engine.getOrderHistory('default', '800-1');
    const fail = history.audit.find((event) => event.action === 'fail');
    expect(fail?.details).toMatchObject({ carrier: { message: `${message.slice(0, 499)}…` } });
    expect(history.failure?.reason).toContain(`[E42] <b>"xxx`);
  });

  it('every carrier call of an attempt is given up before the lease runs out', async () => {
    const signals: AbortSignal[] = [];
    const deadlines: Date[] = [];
    const leases: (string | null)[] = [];
    const hanging: CourierFactory = (settings, account) => ({
      ...createSimulatedCarrier().factory(settings, account),
      createShipment: async (_request, { signal, deadline }) => {
        signals.push(signal);
        deadlines.push(deadline);
        leases.push((await engine.getOrderHistory('default', '800-1')).courier.next_attempt_at);
        // Answers only when the deadline gives the call up, as a carrier that never answers.
        return new Promise((done) =>
          signal.addEventListener('abort', () => done({ kind: 'unknown', message: 'timeout' })),
        );
      },
    });
    await open(hanging, { lease_ms: 1_000 });
    // The clock does not move: the claim still holds when the call is given up, so the attempt
    // is recorded (an answer after the lease would be ignored).
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, retrying: ['800-1'] });
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    // The claim leased the order for a second; the call had to end a quarter of it before.
    expect(leases).toEqual(['2026-06-01 09:00:01']);
    expect(deadlines.map((d) => d.toISOString())).toEqual(['2026-06-01T09:00:00.750Z']);
    const [label] = await engine.listLabels('default', '800-1');
    expect(label?.status).toBe('pending');
  });

  it('store settings hold no secret and name no variable: the installation declares them', async () => {
    await open(createSimulatedCarrier().factory);
    await expect(
      engine.upsertStore(
        'default',
        unverified({
          courier: { secret_env: 'BRIDGE_SECRET', secret: 's3cret', api_key: 'sk_live' },
        }),
      ),
    ).rejects.toThrow(/courier.account/);
    const store = await engine.upsertStore(
      'default',
      unverified({ courier: { account: 'test', secret: 's3cret', api_key: 'sk_live' } }),
    );
    expect(store.settings.courier).toMatchObject({ type: 'test', account: 'test' });
    expect(JSON.stringify(await engine.getStore('default'))).not.toMatch(/s3cret|sk_live/);
  });

  it('a courier that cannot be built (a secret missing) is a refusal the operator sees, not a crash', async () => {
    const unconfigured: CourierFactory = (): Courier => {
      throw new Error('the environment variable SHIPENGINE_API_KEY is not set');
    };
    await open(unconfigured, { max_attempts: 1 });
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, failed: ['800-1'] });
    const { failure } = await engine.getOrderHistory('default', '800-1');
    expect(failure?.reason).toBe(
      'courier: permanent: [courier_configuration] the environment variable SHIPENGINE_API_KEY is not set',
    );
  });
});
