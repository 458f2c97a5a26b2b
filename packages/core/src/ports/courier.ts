import type { CarrierAccount } from '../domain/carrier-accounts.js';
import type { ItemResource, OrderResource } from '../domain/resources.js';
import type { CourierSettings } from '../domain/types.js';

/**
 * The carrier lifecycle port (docs/couriers.md): create a parcel's label, void a label, track a
 * label, and look up what the carrier holds under the reference Fulfil gave. Every call answers a
 * {@link CourierOutcome}; an adapter never throws for a carrier's answer (a throw is taken as
 * `unknown`, the safe reading).
 */

/**
 * What a call came to:
 * - `ok`: done, with the call's answer;
 * - `retriable`: refused for now, nothing was created or changed; try again after `wait_ms` when
 *   the carrier named a wait. `throttled` marks a rate limit (HTTP 429): it never uses up an
 *   attempt;
 * - `permanent`: refused for good (bad address, unknown service): the carrier's code and message;
 * - `unknown`: the request may have reached the carrier and no answer came back (timeout, dropped
 *   connection): what it asked for may or may not have happened.
 */
export type CourierOutcome<TOk extends object = object> =
  | ({ kind: 'ok' } & TOk)
  | { kind: 'retriable'; wait_ms?: number; throttled?: boolean; code?: string; message: string }
  | { kind: 'permanent'; code: string; message: string }
  | { kind: 'unknown'; message: string };

/** Any outcome but `ok`. */
export type CourierFailure = Exclude<CourierOutcome, { kind: 'ok' }>;

/** One parcel of a shipment: Fulfil books one label per parcel. */
export interface CourierParcel {
  /** 1-based. */
  index: number;
  count: number;
  items: ItemResource[];
}

export interface CreateShipmentRequest {
  /**
   * Fulfil's reference of this parcel's label, `<order>/shipment-<n>/<parcel>`: the same for
   * every attempt at it. It is also the idempotency key; `findShipment` looks it up.
   */
  reference: string;
  /** The order as the API shows it: amounts in API units (a cash-on-delivery amount is 12.5). */
  order: OrderResource;
  parcel: CourierParcel;
}

/** A label as the carrier issued it. */
export interface IssuedLabel {
  carrier_label_id: string;
  tracking_number: string;
  tracking_url: string | null;
  /**
   * The carrier that carries the parcel, as the carrier named it (`ups`, `DHL Express`); the
   * shipment's track is read from it (tracking-urls.ts: `carrierTrack`). Absent or null when the
   * carrier did not say: the track then names the carrier account.
   */
  carrier_code?: string | null;
  /** The printable document (base64 for binary formats), or null when only `document_url` is. */
  document: string | null;
  /** `pdf`, `png`, `zpl`, … */
  document_format: string | null;
  document_url: string | null;
}

export interface TrackingEvent {
  at: string;
  status: string;
  description: string;
}

/** Each call's options: the deadline after which the adapter must give up and answer `unknown`. */
export interface CourierCallOptions {
  /** Aborts at `deadline`. */
  signal: AbortSignal;
  /** By the engine's clock: before the claim's lease runs out, by a margin. */
  deadline: Date;
}

/** A carrier account. */
export interface Courier {
  /** The carrier account this courier bills, for rate limiting: one limiter per account. */
  readonly account: string;
  /**
   * Buys the label of one parcel. Guarantee: `ok` means exactly this label exists; `retriable`
   * and `permanent` mean no label was bought by this call; `unknown` means one may have been.
   * Sent twice with the same reference, a carrier that honours idempotency answers the first
   * label again.
   */
  createShipment(
    request: CreateShipmentRequest,
    options: CourierCallOptions,
  ): Promise<CourierOutcome<{ label: IssuedLabel }>>;
  /**
   * Voids (refunds) a label. Guarantee: `ok` means the label is void, including when it already
   * was; any other answer means it may still be live.
   */
  voidLabel(carrierLabelId: string, options: CourierCallOptions): Promise<CourierOutcome>;
  /** The label's tracking events, oldest first. Reads only. */
  track(
    carrierLabelId: string,
    options: CourierCallOptions,
  ): Promise<CourierOutcome<{ status: string; events: TrackingEvent[] }>>;
  /**
   * The live (not voided) labels the carrier holds under `reference`; `ok` with none when it
   * holds none. Guarantee: a label bought by a call that ended before this one started is listed.
   */
  findShipment(
    reference: string,
    options: CourierCallOptions,
  ): Promise<CourierOutcome<{ labels: IssuedLabel[] }>>;
}

/**
 * Builds the courier of a store from its settings and the installation's carrier account it
 * picked (docs/couriers.md); the engine holds one factory per courier type. Where the calls go
 * and which environment variable holds the secret come from the account alone, never from the
 * store's settings. A missing secret throws, which dispatch records as a `permanent` refusal the
 * operator sees on the order.
 */
export type CourierFactory = (settings: CourierSettings, account: CarrierAccount) => Courier;

/** The longest carrier code or message Fulfil records, in characters. */
export const CARRIER_TEXT_LIMIT = 500;

/** The carrier's text as recorded: verbatim up to `limit` characters. */
export function boundCarrierText(text: string, limit = CARRIER_TEXT_LIMIT): string {
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}

/** A failure as one line: `kind: [code] message`, bounded. */
export function describeCourierFailure(failure: CourierFailure): string {
  const code = 'code' in failure && failure.code ? `[${boundCarrierText(failure.code)}] ` : '';
  return `${failure.kind}: ${code}${boundCarrierText(failure.message)}`;
}

/** The carrier's code and message as the timeline records them, verbatim and bounded. */
export function carrierDetails(failure: CourierFailure) {
  const code = 'code' in failure ? failure.code : undefined;
  return {
    kind: failure.kind,
    ...(code !== undefined ? { code: boundCarrierText(code) } : {}),
    message: boundCarrierText(failure.message),
  };
}

/** What the engine reports of each carrier call, for metrics (docs/monitoring.md). */
export interface CourierCallEvent {
  carrier: string;
  op: 'create' | 'void' | 'track' | 'find';
  kind: CourierOutcome['kind'];
  ms: number;
}
