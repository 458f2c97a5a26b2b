import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LedgerEntry, MemoryLabelLedger } from '@fulfil/core';

/**
 * A local fake of ShipEngine's label endpoints, answering as the vendor's OpenAPI document says
 * (shipengine.test.ts validates every request and answer against it), with a ledger of labels.
 */

export function shipEngineLabel(entry: LedgerEntry, externalId: string) {
  return {
    label_id: entry.carrier_label_id,
    status: entry.status === 'live' ? 'completed' : 'voided',
    shipment_id: `se-shipment-${entry.carrier_label_id}`,
    ship_date: '2026-08-01T00:00:00Z',
    created_at: '2026-08-01T09:00:00Z',
    shipment_cost: { currency: 'usd', amount: 8.5 },
    insurance_cost: { currency: 'usd', amount: 0 },
    tracking_number: entry.tracking_number,
    is_return_label: false,
    rma_number: null,
    is_international: false,
    batch_id: 'se-0',
    carrier_id: 'se-123',
    charge_event: 'carrier_default',
    service_code: 'usps_priority_mail',
    package_code: 'package',
    voided: entry.status === 'voided',
    voided_at: entry.status === 'voided' ? '2026-08-01T10:00:00Z' : null,
    label_format: 'pdf',
    display_scheme: 'label',
    label_layout: '4x6',
    trackable: true,
    label_image_id: null,
    carrier_code: 'stamps_com',
    tracking_status: 'in_transit',
    label_download: {
      href: `https://api.shipengine.com/v1/downloads/${entry.carrier_label_id}.pdf`,
      pdf: `https://api.shipengine.com/v1/downloads/${entry.carrier_label_id}.pdf`,
    },
    form_download: null,
    insurance_claim: null,
    packages: [
      {
        package_code: 'package',
        weight: { value: 1, unit: 'pound' },
        dimensions: { unit: 'inch', length: 0, width: 0, height: 0 },
        insured_value: { currency: 'usd', amount: 0 },
        tracking_number: entry.tracking_number,
        label_messages: { reference1: null, reference2: null, reference3: null },
        external_package_id: externalId,
      },
    ],
  };
}

export interface FakeShipEngine {
  url: string;
  ledger: MemoryLabelLedger;
  /** Every request and answer, for checking against the document. */
  exchanges: {
    method: string;
    path: string;
    route: string;
    request: unknown;
    status: number;
    response: unknown;
  }[];
  close(): Promise<void>;
}

export async function startFakeShipEngine(apiKey: string): Promise<FakeShipEngine> {
  const ledger = new MemoryLabelLedger();
  const fake: FakeShipEngine = {
    url: '',
    ledger,
    exchanges: [],
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const request = raw ? JSON.parse(raw) : undefined;
    const path = req.url ?? '';
    const method = (req.method ?? '').toLowerCase();
    const answer = (route: string, status: number, response: unknown) => {
      fake.exchanges.push({ method, path, route, request, status, response });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response));
    };
    const error = (route: string, status: number, code: string, message: string) =>
      answer(route, status, {
        request_id: '00000000-0000-4000-8000-000000000001',
        errors: [
          { error_source: 'shipengine', error_type: 'validation', error_code: code, message },
        ],
      });
    if (req.headers['api-key'] !== apiKey)
      return error('unauthorized', 401, 'unauthorized', 'bad key');
    const byId = (id: string) => ledger.entries().find((e) => e.carrier_label_id === id);
    const voidMatch = /^\/v1\/labels\/([^/]+)\/void$/.exec(path);
    const trackMatch = /^\/v1\/labels\/([^/]+)\/track$/.exec(path);
    const findMatch = /^\/v1\/labels\/external_shipment_id\/([^/]+)$/.exec(path);
    if (method === 'post' && path === '/v1/labels') {
      const reference = request.shipment.external_shipment_id as string;
      return answer('/v1/labels', 200, shipEngineLabel(ledger.issue(reference), reference));
    }
    if (method === 'put' && voidMatch) {
      const id = decodeURIComponent(voidMatch[1] as string);
      const approved = ledger.void(id);
      return answer('/v1/labels/{label_id}/void', 200, {
        approved,
        message: approved ? 'Request for refund submitted.' : 'No such label.',
      });
    }
    if (method === 'get' && trackMatch) {
      const entry = byId(decodeURIComponent(trackMatch[1] as string));
      return answer('/v1/labels/{label_id}/track', 200, {
        tracking_number: entry?.tracking_number ?? '',
        status_code: 'IT',
        status_description: 'In Transit',
        carrier_status_code: '1',
        carrier_status_description: 'In transit',
        ship_date: '2026-08-01T00:00:00Z',
        estimated_delivery_date: '2026-08-03T00:00:00Z',
        actual_delivery_date: '2026-08-03T00:00:00Z',
        exception_description: '',
        events: [
          {
            occurred_at: '2026-08-01T12:00:00Z',
            carrier_occurred_at: '2026-08-01T12:00:00Z',
            description: 'Accepted',
            city_locality: 'Austin',
            state_province: 'TX',
            postal_code: '78756',
            country_code: 'US',
            company_name: '',
            signer: '',
            event_code: 'OA',
            latitude: 30.3,
            longitude: -97.7,
          },
        ],
      });
    }
    if (method === 'get' && findMatch) {
      const reference = decodeURIComponent(findMatch[1] as string);
      const entry = ledger
        .entries()
        .filter((e) => e.reference === reference)
        .at(-1);
      const route = '/v1/labels/external_shipment_id/{external_shipment_id}';
      return entry
        ? answer(route, 200, shipEngineLabel(entry, reference))
        : error(route, 404, 'invalid_identifier', 'No label with that external shipment id.');
    }
    return error('unknown', 404, 'invalid_identifier', path);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
