import type { CourierFactory } from '@fulfil/core';
import { createHttpCourier } from './http-courier.js';
import { createShipEngineCourier } from './shipengine-courier.js';

/**
 * The courier types `fulfil serve` and the CLI offer besides the engine's own `simulated`, by the
 * `type` a store's settings name (docs/couriers.md).
 */
export function builtInCouriers(
  env: NodeJS.ProcessEnv = process.env,
): Record<string, CourierFactory> {
  return { http: createHttpCourier({ env }), shipengine: createShipEngineCourier({ env }) };
}
