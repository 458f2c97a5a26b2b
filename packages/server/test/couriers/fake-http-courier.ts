import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LabelLedger, type LedgerEntry, MemoryLabelLedger } from '@fulfil/core';
import { verifySignature } from '../../src/couriers/signature.js';

/**
 * A carrier bridge speaking the HTTP courier protocol (docs/http-courier.openapi.yaml), as a
 * receiver would write one: it verifies every signature with the exported helper and refuses
 * what fails (401), and keeps a ledger of the labels it issues. `answer` scripts a status per
 * request; `hold` keeps a create hanging after issuing its label (a kill -9 test's moment).
 */
export interface FakeHttpCourier {
  url: string;
  ledger: LabelLedger;
  /** Every request: its path, headers and raw body, and what it was answered. */
  requests: { path: string; headers: IncomingMessage['headers']; body: string; status: number }[];
  answer: (
    path: string,
  ) => { status: number; headers?: Record<string, string>; body?: unknown } | null;
  /** When true, a create issues its label and never answers. */
  hold: boolean;
  /** Resolves when a held create has issued its label. */
  held(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeHttpCourier(
  secret: string,
  options: {
    ledger?: LabelLedger;
    nowSeconds?: () => number;
    /** The carrier its labels name (`carrier_code`); none when absent. */
    carrier?: string;
  } = {},
): Promise<FakeHttpCourier> {
  const ledger = options.ledger ?? new MemoryLabelLedger();
  let heldWaiters: (() => void)[] = [];
  const label = (entry: LedgerEntry) => ({
    carrier_label_id: entry.carrier_label_id,
    tracking_number: entry.tracking_number,
    tracking_url: `https://track.example/${entry.tracking_number}`,
    ...(options.carrier ? { carrier_code: options.carrier } : {}),
    document: Buffer.from(`label ${entry.tracking_number}`).toString('base64'),
    document_format: 'pdf',
    document_url: null,
  });
  const fake: FakeHttpCourier = {
    url: '',
    ledger,
    requests: [],
    answer: () => null,
    hold: false,
    held: () => new Promise((done) => heldWaiters.push(done)),
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '';
    const reply = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      fake.requests.push({ path, headers: request.headers, body, status });
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(value));
    };
    const check = verifySignature({
      secret,
      header: request.headers['fulfil-signature'] as string | undefined,
      body,
      ...(options.nowSeconds ? { nowSeconds: options.nowSeconds() } : {}),
    });
    if (!check.ok) return reply(401, { code: 'bad_signature', message: check.reason });
    const scripted = fake.answer(path);
    if (scripted) return reply(scripted.status, scripted.body ?? {}, scripted.headers);
    const payload = JSON.parse(body) as Record<string, string>;
    switch (path) {
      case '/shipments': {
        const entry = ledger.issue(payload.reference as string);
        if (fake.hold) {
          for (const done of heldWaiters) done();
          heldWaiters = [];
          return; // never answers
        }
        return reply(201, { label: label(entry) });
      }
      case '/shipments/lookup':
        return reply(200, {
          labels: ledger
            .entries()
            .filter((e) => e.reference === payload.reference && e.status === 'live')
            .map(label),
        });
      case '/labels/void':
        return ledger.void(payload.carrier_label_id as string)
          ? reply(200, {})
          : reply(404, { code: 'not_found', message: 'no such label' });
      case '/labels/track':
        return reply(200, { status: 'in_transit', events: [] });
      default:
        return reply(404, { code: 'not_found', message: path });
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
