import type {
  CarrierAccount,
  Courier,
  CourierCallOptions,
  CourierFactory,
  CourierOutcome,
  CourierSettings,
  IssuedLabel,
  TrackingEvent,
} from '@fulfil/core';
import { secretFromEnvironment } from './environment.js';
import { isRecord, outcomeOfStatus, sendJson, text } from './http-outcome.js';
import { signRequest } from './signature.js';

/**
 * The HTTP courier (docs/couriers.md, docs/http-courier.openapi.yaml): for an in-house or regional
 * carrier bridge. Every call is a signed JSON POST to the carrier account's `url` plus the
 * operation's path; the answer's HTTP status decides the outcome: 2xx ok; 429 and 503 retriable
 * (with Retry-After); 500, 502, 504, a timeout or a dropped connection unknown (the request may
 * have been acted on); any other 4xx permanent.
 */

type Operation = 'create_shipment' | 'void_label' | 'track_label' | 'find_shipment';

const PATHS: Record<Operation, string> = {
  create_shipment: '/shipments',
  find_shipment: '/shipments/lookup',
  void_label: '/labels/void',
  track_label: '/labels/track',
};

export interface HttpCourierOptions {
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Seconds since the epoch, for the signature. */
  nowSeconds?: () => number;
}

/** A label as the bridge answered it; null when it is not one. */
export function readLabel(value: unknown): IssuedLabel | null {
  if (!isRecord(value)) return null;
  const id = text(value.carrier_label_id);
  const tracking = text(value.tracking_number);
  if (!id || !tracking) return null;
  return {
    carrier_label_id: id,
    tracking_number: tracking,
    tracking_url: text(value.tracking_url),
    carrier_code: text(value.carrier_code),
    document: text(value.document),
    document_format: text(value.document_format),
    document_url: text(value.document_url),
  };
}

export function createHttpCourier(options: HttpCourierOptions = {}): CourierFactory {
  return (_settings: CourierSettings, account: CarrierAccount): Courier => {
    if (!account.url) throw new Error('the carrier account of type http lacks url');
    const base = account.url.replace(/\/+$/, '');
    const secret = secretFromEnvironment(account, options.env);
    const send = options.fetch ?? fetch;
    const now = options.nowSeconds ?? (() => Date.now() / 1000);

    async function call(
      operation: Operation,
      payload: Record<string, unknown>,
      { signal }: CourierCallOptions,
      idempotencyKey?: string,
    ): Promise<CourierOutcome<{ body: Record<string, unknown> }>> {
      const body = JSON.stringify({ operation, ...payload });
      const answered = await sendJson(send, `${base}${PATHS[operation]}`, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          'fulfil-signature': signRequest(secret, body, now()),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body,
      });
      if ('unknown' in answered) return { kind: 'unknown', message: answered.unknown };
      const detail = isRecord(answered.body) ? answered.body : {};
      const status = answered.response.status;
      const outcome = outcomeOfStatus(
        answered.response,
        text(detail.code) ?? String(status),
        text(detail.message) ?? `HTTP ${status}`,
      );
      return outcome.kind === 'ok' ? { kind: 'ok', body: detail } : outcome;
    }

    const malformed = (what: string): CourierOutcome<never> => ({
      kind: 'unknown',
      message: `the courier answered ok without ${what}`,
    });

    return {
      account: base,
      async createShipment(request, callOptions) {
        const answer = await call(
          'create_shipment',
          { ...request },
          callOptions,
          request.reference,
        );
        if (answer.kind !== 'ok') return answer;
        const label = readLabel(answer.body.label);
        return label ? { kind: 'ok', label } : malformed('a label');
      },
      async voidLabel(carrierLabelId, callOptions) {
        const answer = await call('void_label', { carrier_label_id: carrierLabelId }, callOptions);
        return answer.kind === 'ok' ? { kind: 'ok' } : answer;
      },
      async track(carrierLabelId, callOptions) {
        const answer = await call('track_label', { carrier_label_id: carrierLabelId }, callOptions);
        if (answer.kind !== 'ok') return answer;
        const events = Array.isArray(answer.body.events)
          ? answer.body.events.filter(isRecord).map(
              (event): TrackingEvent => ({
                at: text(event.at) ?? '',
                status: text(event.status) ?? '',
                description: text(event.description) ?? '',
              }),
            )
          : [];
        return { kind: 'ok', status: text(answer.body.status) ?? 'unknown', events };
      },
      async findShipment(reference, callOptions) {
        const answer = await call('find_shipment', { reference }, callOptions);
        if (answer.kind !== 'ok') return answer;
        if (!Array.isArray(answer.body.labels)) return malformed('labels');
        const labels = answer.body.labels.map(readLabel);
        if (labels.some((label) => label === null)) return malformed('well-formed labels');
        return { kind: 'ok', labels: labels as IssuedLabel[] };
      },
    };
  };
}
