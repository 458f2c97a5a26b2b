import { runCourierContract } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { createShipEngineCourier } from '../../src/couriers/shipengine-courier.js';
import { startFakeShipEngine } from './fake-shipengine.js';
import { requestErrors, responseErrors } from './shipengine-document.js';
import { account, parcelRequest, settings } from './shipengine-settings.js';

const KEY = 'TEST_shipengine_key_0123456789';

const call = () => ({ signal: new AbortController().signal, deadline: new Date() });

runCourierContract('shipengine', async () => {
  const fake = await startFakeShipEngine(KEY);
  return {
    courier: createShipEngineCourier({ env: { SHIPENGINE_API_KEY: KEY } })(
      settings,
      account(fake.url),
    ),
    cleanup: () => fake.close(),
  };
});

describe('docs/couriers.md: ShipEngine, held to the vendor document', () => {
  it('every request and answer of every call conforms to the shipengine-openapi schemas', async () => {
    const fake = await startFakeShipEngine(KEY);
    try {
      const courier = createShipEngineCourier({ env: { SHIPENGINE_API_KEY: KEY } })(
        settings,
        account(fake.url),
      );
      const request = parcelRequest(2);
      const { reference } = request;
      const created = await courier.createShipment(request, call());
      expect(created).toMatchObject({ kind: 'ok', label: { carrier_label_id: 'se-1' } });
      expect(await courier.findShipment(reference, call())).toMatchObject({
        kind: 'ok',
        labels: [{ carrier_label_id: 'se-1' }],
      });
      expect(await courier.track('se-1', call())).toMatchObject({ kind: 'ok', status: 'IT' });
      expect(await courier.voidLabel('se-1', call())).toEqual({ kind: 'ok' });
      expect(await courier.findShipment(reference, call())).toEqual({ kind: 'ok', labels: [] });
      expect(await courier.findShipment('never/shipment-1/1', call())).toEqual({
        kind: 'ok',
        labels: [],
      });

      expect(fake.exchanges.map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
        'post /v1/labels 200',
        'get /v1/labels/external_shipment_id/{external_shipment_id} 200',
        'get /v1/labels/{label_id}/track 200',
        'put /v1/labels/{label_id}/void 200',
        'get /v1/labels/external_shipment_id/{external_shipment_id} 200',
        'get /v1/labels/external_shipment_id/{external_shipment_id} 404',
      ]);
      const violations = fake.exchanges.flatMap((e) => [
        ...(e.request === undefined ? [] : requestErrors(e.route, e.method, e.request)),
        ...responseErrors(e.route, e.method, String(e.status), e.response),
      ]);
      expect(violations).toEqual([]);
      // The checker does find violations: a request without the shipment's address is one.
      const [first] = fake.exchanges;
      const broken = JSON.parse(JSON.stringify(first?.request));
      delete broken.shipment.ship_to.postal_code;
      expect(requestErrors('/v1/labels', 'post', broken)).not.toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("the API key comes from the environment variable the installation's account names", () => {
    const factory = createShipEngineCourier({ env: {} });
    expect(() => factory(settings, account('http://127.0.0.1:1'))).toThrow(
      'the environment variable SHIPENGINE_API_KEY (secret_env) is not set',
    );
  });
});
