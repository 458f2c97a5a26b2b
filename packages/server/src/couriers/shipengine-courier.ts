import type {
  CarrierAccount,
  Courier,
  CourierCallOptions,
  CourierFactory,
  CourierOutcome,
  CourierSettings,
  IssuedLabel,
} from '@fulfil/core';
import { secretFromEnvironment } from './environment.js';
import { isRecord, outcomeOfStatus, sendJson, text } from './http-outcome.js';
import type {
  ShipEngineCreateLabelRequest,
  ShipEngineError,
  ShipEngineLabel,
  ShipEngineTrackingInformation,
  ShipEngineVoidResult,
} from './shipengine-types.js';

/**
 * The ShipEngine adapter (docs/couriers.md): a label per parcel with `POST /v1/labels`, the
 * parcel's reference as `external_shipment_id`; void with `PUT /v1/labels/{id}/void`; track with
 * `GET /v1/labels/{id}/track`; look up with `GET /v1/labels/external_shipment_id/{id}`. Request
 * and response types are checked against the vendor's OpenAPI document in the tests.
 */

export const SHIPENGINE_BASE_URL = 'https://api.shipengine.com';

export interface ShipEngineOptions {
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

/**
 * ShipEngine's carrier codes that name a carrier the API knows by another code: the postal
 * services it resells (`stamps_com`, `endicia`) are USPS, its own accounts (`*_walleted`) the
 * carrier itself. Any other code is the carrier's as ShipEngine writes it (`ups`, `dhl_express`).
 */
const SHIPENGINE_CARRIERS: Readonly<Record<string, string>> = {
  stamps_com: 'usps',
  endicia: 'usps',
  usps_walleted: 'usps',
  ups_walleted: 'ups',
  fedex_walleted: 'fedex',
  fedex_uk: 'fedex',
  dhl_express_walleted: 'dhl_express',
  dhl_express_uk: 'dhl_express',
  dhl_express_au: 'dhl_express',
  dhl_express_ca: 'dhl_express',
};

/** The carrier of a ShipEngine label in the API's carrier codes; null when it names none. */
export function shipEngineCarrier(code: string | undefined): string | null {
  if (!code) return null;
  return Object.hasOwn(SHIPENGINE_CARRIERS, code) ? (SHIPENGINE_CARRIERS[code] as string) : code;
}

function asLabel(label: ShipEngineLabel): IssuedLabel {
  const download = label.label_download ?? {};
  return {
    carrier_label_id: label.label_id,
    tracking_number: label.tracking_number,
    tracking_url: null,
    carrier_code: shipEngineCarrier(label.carrier_code),
    document: null,
    document_format: label.label_format ?? 'pdf',
    document_url: download.pdf ?? download.href ?? null,
  };
}

function isLabel(value: unknown): value is ShipEngineLabel {
  return isRecord(value) && text(value.label_id) !== null && text(value.tracking_number) !== null;
}

/** The body of a label for one parcel, as `POST /v1/labels` takes it. */
export function createLabelRequest(
  settings: CourierSettings,
  request: Parameters<Courier['createShipment']>[0],
): ShipEngineCreateLabelRequest {
  const to = request.order.shipping_address;
  const weight = request.parcel.items.reduce((sum, item) => sum + item.qty, 0);
  return {
    shipment: {
      external_shipment_id: request.reference,
      carrier_id: settings.carrier_id ?? '',
      service_code: settings.service_code ?? '',
      ...(settings.warehouse_id ? { warehouse_id: settings.warehouse_id } : {}),
      ship_to: {
        name: `${to.firstname} ${to.lastname}`.trim(),
        phone: to.telephone,
        company_name: to.company || null,
        address_line1: to.street,
        city_locality: to.city,
        state_province: to.region,
        postal_code: to.postcode,
        country_code: to.country_id,
        address_residential_indicator: 'unknown',
      },
      // One pound a unit until Fulfil carries weights: the label's service decides the rest.
      packages: [{ weight: { value: Math.max(1, weight), unit: 'pound' } }],
      // The vendor's schema requires both addresses, even beside a warehouse_id.
      ...(settings.ship_from
        ? {
            ship_from: { ...settings.ship_from, address_residential_indicator: 'no' as const },
            return_to: { ...settings.ship_from, address_residential_indicator: 'no' as const },
          }
        : {}),
      ship_date: `${new Date().toISOString().slice(0, 10)}T00:00:00Z`,
      confirmation: 'none',
      customs: null,
      advanced_options: {},
      insurance_provider: 'none',
    },
    label_format: 'pdf',
    label_download_type: 'url',
  };
}

export function createShipEngineCourier(options: ShipEngineOptions = {}): CourierFactory {
  return (settings: CourierSettings, account: CarrierAccount): Courier => {
    const apiKey = secretFromEnvironment(account, options.env);
    for (const field of ['carrier_id', 'service_code'] as const)
      if (!settings[field]) throw new Error(`the courier settings lack ${field}`);
    if (!settings.warehouse_id && !settings.ship_from)
      throw new Error('the courier settings lack warehouse_id or ship_from');
    const base = (account.url ?? SHIPENGINE_BASE_URL).replace(/\/+$/, '');
    const send = options.fetch ?? fetch;

    async function call(
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      { signal }: CourierCallOptions,
      body?: unknown,
    ): Promise<CourierOutcome<{ body: unknown; status: number }>> {
      const answered = await sendJson(send, `${base}${path}`, {
        method,
        signal,
        headers: { 'api-key': apiKey, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if ('unknown' in answered) return { kind: 'unknown', message: answered.unknown };
      const { response } = answered;
      // A look-up of a reference nothing was bought under.
      if (response.status === 404 && method === 'GET' && path.includes('/external_shipment_id/'))
        return { kind: 'ok', body: null, status: 404 };
      const [error] = isRecord(answered.body)
        ? ((answered.body as Partial<ShipEngineError>).errors ?? [])
        : [];
      const outcome = outcomeOfStatus(
        response,
        text(error?.error_code) ?? String(response.status),
        text(error?.message) ?? `HTTP ${response.status}`,
      );
      return outcome.kind === 'ok'
        ? { kind: 'ok', body: answered.body, status: response.status }
        : outcome;
    }

    const malformed = { kind: 'unknown', message: 'ShipEngine answered without a label' } as const;
    const id = (value: string) => encodeURIComponent(value);

    return {
      account: `shipengine/${account.secret_env}`,
      async createShipment(request, callOptions) {
        const answer = await call(
          'POST',
          '/v1/labels',
          callOptions,
          createLabelRequest(settings, request),
        );
        if (answer.kind !== 'ok') return answer;
        return isLabel(answer.body) ? { kind: 'ok', label: asLabel(answer.body) } : malformed;
      },
      async voidLabel(labelId, callOptions) {
        const answer = await call('PUT', `/v1/labels/${id(labelId)}/void`, callOptions);
        if (answer.kind !== 'ok') return answer;
        const result = answer.body as Partial<ShipEngineVoidResult>;
        return result.approved === true
          ? { kind: 'ok' }
          : {
              kind: 'permanent',
              code: 'void_not_approved',
              message: text(result.message) ?? 'ShipEngine did not approve the void',
            };
      },
      async track(labelId, callOptions) {
        const answer = await call('GET', `/v1/labels/${id(labelId)}/track`, callOptions);
        if (answer.kind !== 'ok') return answer;
        const info = answer.body as Partial<ShipEngineTrackingInformation>;
        return {
          kind: 'ok',
          status: text(info.status_code) ?? 'UN',
          events: (info.events ?? []).map((event) => ({
            at: event.occurred_at,
            status: event.event_code ?? '',
            description: event.description ?? '',
          })),
        };
      },
      async findShipment(reference, callOptions) {
        const answer = await call(
          'GET',
          `/v1/labels/external_shipment_id/${id(reference)}`,
          callOptions,
        );
        if (answer.kind !== 'ok') return answer;
        if (answer.status === 404) return { kind: 'ok', labels: [] };
        if (!isLabel(answer.body)) return malformed;
        return { kind: 'ok', labels: answer.body.voided ? [] : [asLabel(answer.body)] };
      },
    };
  };
}
