import type { CarrierAccount, Courier, CourierSettings } from '@fulfil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpCourier } from '../../src/couriers/http-courier.js';
import { signRequest, verifySignature } from '../../src/couriers/signature.js';
import { type FakeHttpCourier, startFakeHttpCourier } from './fake-http-courier.js';

const SECRET = 'bridge-secret-0123456789abcdef';

const settings: CourierSettings = {
  type: 'http',
  account: 'bridge',
  fail_skus: [],
  max_attempts: 3,
  delay_ms: 0,
};

/** The installation's account of the bridge at `url`. */
const account = (url: string): CarrierAccount => ({
  type: 'http',
  url,
  secret_env: 'BRIDGE_SECRET',
});

const call = () => ({ signal: new AbortController().signal, deadline: new Date() });

const request = {
  reference: '100-1/shipment-1/1',
  order: {} as never,
  parcel: { index: 1, count: 1, items: [] },
};

let fake: FakeHttpCourier;
afterEach(() => fake?.close());

async function open(): Promise<Courier> {
  fake = await startFakeHttpCourier(SECRET);
  return createHttpCourier({ env: { BRIDGE_SECRET: SECRET } })(settings, account(fake.url));
}

describe('docs/couriers.md: the HTTP courier', () => {
  it('creates, finds, tracks and voids a label through a receiver that verifies every signature', async () => {
    const courier = await open();
    const created = await courier.createShipment(request, call());
    expect(created).toMatchObject({ kind: 'ok', label: { carrier_label_id: 'se-1' } });
    expect(fake.requests[0]?.headers['idempotency-key']).toBe(request.reference);
    expect(await courier.findShipment(request.reference, call())).toMatchObject({
      kind: 'ok',
      labels: [{ carrier_label_id: 'se-1' }],
    });
    expect(await courier.track('se-1', call())).toMatchObject({ kind: 'ok', status: 'in_transit' });
    expect(await courier.voidLabel('se-1', call())).toEqual({ kind: 'ok' });
    expect(await courier.findShipment(request.reference, call())).toEqual({
      kind: 'ok',
      labels: [],
    });
    expect(fake.requests.map((r) => r.status)).toEqual([201, 200, 200, 200, 200]);
  });

  it('a replayed request is refused once outside the window, and an altered body at once', async () => {
    const courier = await open();
    await courier.createShipment(request, call());
    const sent = fake.requests[0];
    if (!sent) throw new Error('nothing was sent');
    const header = sent.headers['fulfil-signature'] as string;
    const t = Number(/t=(\d+)/.exec(header)?.[1]);
    expect(verifySignature({ secret: SECRET, header, body: sent.body, nowSeconds: t })).toEqual({
      ok: true,
      timestamp: t,
    });
    // The same bytes six minutes later: a replay.
    expect(
      verifySignature({ secret: SECRET, header, body: sent.body, nowSeconds: t + 301 }),
    ).toEqual({ ok: false, reason: 'expired' });
    // One character changed.
    const altered = sent.body.replace('shipment-1', 'shipment-2');
    expect(verifySignature({ secret: SECRET, header, body: altered, nowSeconds: t })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    // Another secret, and a header that is not one.
    expect(verifySignature({ secret: 'other', header, body: sent.body, nowSeconds: t }).ok).toBe(
      false,
    );
    expect(verifySignature({ secret: SECRET, header: 'v1=zz', body: sent.body })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    // And over the wire: the receiver answers 401 to a replay, and nothing is issued.
    const replay = async (body: string, signature: string) =>
      fetch(`${fake.url}/shipments`, {
        method: 'POST',
        headers: { 'fulfil-signature': signature, 'content-type': 'application/json' },
        body,
      });
    expect((await replay(sent.body, signRequest(SECRET, sent.body, t - 3600))).status).toBe(401);
    expect((await replay(altered, header)).status).toBe(401);
    expect(fake.ledger.entries()).toHaveLength(1);
  });

  it('maps HTTP statuses to outcomes, with the carrier code and message', async () => {
    const courier = await open();
    const answer = (status: number, headers?: Record<string, string>) => {
      fake.answer = () => ({
        status,
        body: { code: `E${status}`, message: `said ${status}` },
        ...(headers ? { headers } : {}),
      });
    };
    answer(429, { 'retry-after': '7' });
    expect(await courier.createShipment(request, call())).toEqual({
      kind: 'retriable',
      throttled: true,
      wait_ms: 7000,
      code: 'E429',
      message: 'said 429',
    });
    answer(503);
    expect(await courier.createShipment(request, call())).toEqual({
      kind: 'retriable',
      code: 'E503',
      message: 'said 503',
    });
    answer(500);
    expect(await courier.createShipment(request, call())).toEqual({
      kind: 'unknown',
      message: 'E500: said 500',
    });
    answer(422);
    expect(await courier.createShipment(request, call())).toEqual({
      kind: 'permanent',
      code: 'E422',
      message: 'said 422',
    });
    fake.answer = () => ({ status: 200, body: { label: { carrier_label_id: 1 } } });
    expect((await courier.createShipment(request, call())).kind).toBe('unknown');
  });

  it('a timeout or a refused connection is unknown', async () => {
    const courier = await open();
    fake.hold = true;
    const deadline = new AbortController();
    const pending = courier.createShipment(request, {
      signal: deadline.signal,
      deadline: new Date(),
    });
    await fake.held();
    deadline.abort();
    expect((await pending).kind).toBe('unknown');
    await fake.close();
    expect((await courier.findShipment('x', call())).kind).toBe('unknown');
    fake = await startFakeHttpCourier(SECRET);
  });

  it("the secret comes from the environment variable the installation's account names; a missing one is a clear error", () => {
    const factory = createHttpCourier({ env: {} });
    expect(() => factory(settings, account('http://127.0.0.1:1'))).toThrow(
      'the environment variable BRIDGE_SECRET (secret_env) is not set',
    );
    expect(() => factory(settings, { type: 'http', secret_env: 'BRIDGE_SECRET' })).toThrow(
      'the carrier account of type http lacks url',
    );
  });
});
