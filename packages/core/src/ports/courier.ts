import type { CourierSettings, Track } from '../domain/types.js';
import type { ItemResource, OrderResource } from '../schemas/resources.js';

export interface CourierShipmentRequest {
  /** The order as the API shows it: amounts in API units (a cash-on-delivery amount is 12.5). */
  order: OrderResource;
  /** The lines to book, those awaiting shipment. */
  items: ItemResource[];
  /**
   * Stable for one order and attempt number: a courier that honours it never creates two
   * shipments for one retry.
   */
  idempotency_key: string;
}

export type CourierResult = { ok: true; tracks: Track[] } | { ok: false; error: string };

/** A courier integration that books the physical shipment of an order the service ships itself. */
export interface Courier {
  ship(request: CourierShipmentRequest): Promise<CourierResult>;
}

/** Builds the courier of a store from its settings; the engine holds one factory per courier type. */
export type CourierFactory = (settings: CourierSettings) => Courier;
