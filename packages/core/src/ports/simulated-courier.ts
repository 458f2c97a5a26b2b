import type { Courier, CourierFactory } from './courier.js';

/**
 * The built-in `simulated` courier (docs/behaviour.md): books every shipment with a generated track
 * number, except when a line's sku is in `fail_skus`, to rehearse the failure path. It answers
 * after `delay_ms`, to rehearse a slow courier (and dispatchers racing on one order).
 */
export const simulatedCourier: CourierFactory = (config): Courier => ({
  async ship({ order, items, idempotency_key }) {
    if (config.delay_ms > 0) await new Promise((done) => setTimeout(done, config.delay_ms));
    const refused = items.find((item) => config.fail_skus.includes(item.sku));
    if (refused) return { ok: false, error: `simulated courier refuses sku ${refused.sku}` };
    const digest = [...idempotency_key].reduce(
      (hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0,
      7,
    );
    return {
      ok: true,
      tracks: [
        {
          carrier_code: 'simulated',
          title: 'Simulated courier',
          track_number: `SIM-${order.fulfillment_order_number}-${digest.toString(36).toUpperCase()}`,
        },
      ],
    };
  },
});
