import { QUEUES } from '@fulfil/core';

/**
 * A seeded generator of malformed requests for every endpoint. Each request is built from a
 * valid one and broken on purpose (a wrong type, a missing or over-long field, a NUL, an unknown
 * item, an out-of-scope warehouse, a truncated body, a wrong root, a bad content type, a bad page
 * or date…), so that the server must refuse it: whatever it answers, nothing may change.
 * The same seed gives the same requests, which is what makes a failure replayable.
 */

/** mulberry32: small, fast and good enough to pick test cases. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number): number => Math.floor(next() * below);
  const pick = <T>(options: readonly T[]): T => options[int(options.length)] as T;
  const chance = (probability: number): boolean => next() < probability;
  return { next, int, pick, chance };
}

export type Random = ReturnType<typeof createRandom>;

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** What was done to it, for the failure message. */
  label: string;
}

/** What the generator needs of the database it fuzzes: real ids, so requests reach the domain. */
export interface FuzzWorld {
  tokens: {
    /** Unscoped, every resource. */
    all: string;
    /** `partner`, scoped to the warehouse `own`. */
    partner: string;
    /** `erp`, scoped to the warehouse `own`. */
    erp: string;
  };
  own: string;
  /** A warehouse of the store outside the scoped tokens' scope. */
  other: string;
  /** One order per stage, all at warehouse `own`, with their item ids. */
  orders: Record<
    'pending_accept' | 'pending_allocation' | 'pending_shipment' | 'pending_invoice',
    { number: string; items: { id: number; qty: number }[] }
  >;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The kind of a field decides how it can be broken. */
type FieldKind = 'order_id' | 'code' | 'item_id' | 'qty' | 'items' | 'money';

/**
 * A field every value of `wrongValue` breaks. Optional or possibly empty text fields
 * (carrier_title, additional_data…) are left out: an empty XML element is a valid value there.
 */
interface Target {
  /** Path of keys and indexes from the body's root. */
  path: (string | number)[];
  kind: FieldKind;
  /** Required fields can also be left out. */
  required: boolean;
}

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** The token that can reach validation. */
  token: keyof FuzzWorld['tokens'];
  /** A valid body, or null for GET. */
  body: ((world: FuzzWorld) => JsonObject) | null;
  targets: Target[];
}

const LIMIT: Record<FieldKind, number> = {
  order_id: 128,
  code: 128,
  item_id: 0,
  qty: 0,
  items: 0,
  money: 0,
};

function items(entries: { id: number; qty: number }[], withQty: boolean): Json[] {
  return entries.map((item): Json => {
    const entry: JsonObject = { item_id: item.id };
    if (withQty) entry.qty = item.qty;
    return entry;
  });
}

const itemTargets = (root: string, withQty: boolean): Target[] => [
  { path: [root, 'items'], kind: 'items', required: true },
  { path: [root, 'items', 0, 'item_id'], kind: 'item_id', required: true },
  ...(withQty ? [{ path: [root, 'items', 0, 'qty'], kind: 'qty', required: true } as Target] : []),
];

const ENDPOINTS: Endpoint[] = [
  {
    name: 'stock',
    method: 'POST',
    path: '/V1/stockItems',
    token: 'partner',
    body: (w) => ({ stock_items: [{ warehouse_code: w.own, sku: 'FUZZ-SKU', qty: 3 }] }),
    targets: [
      { path: ['stock_items'], kind: 'items', required: true },
      { path: ['stock_items', 0, 'warehouse_code'], kind: 'code', required: true },
      { path: ['stock_items', 0, 'sku'], kind: 'code', required: true },
      { path: ['stock_items', 0, 'qty'], kind: 'qty', required: true },
    ],
  },
  {
    name: 'accept',
    method: 'POST',
    path: '/V1/fulfillmentOrder/accept',
    token: 'partner',
    body: (w) => ({
      order: {
        order_id: w.orders.pending_accept.number,
        items: items(w.orders.pending_accept.items, true),
      },
    }),
    targets: [
      { path: ['order', 'order_id'], kind: 'order_id', required: true },
      ...itemTargets('order', true),
    ],
  },
  {
    name: 'reject',
    method: 'POST',
    path: '/V1/fulfillmentOrder/reject',
    token: 'partner',
    body: (w) => ({
      order: {
        order_id: w.orders.pending_accept.number,
        items: items(w.orders.pending_accept.items, false),
      },
    }),
    targets: [
      { path: ['order', 'order_id'], kind: 'order_id', required: true },
      ...itemTargets('order', false),
    ],
  },
  {
    name: 'allocate',
    method: 'POST',
    path: '/V1/fulfillmentOrder/allocate',
    token: 'erp',
    body: (w) => ({
      allocation: {
        order_id: w.orders.pending_allocation.number,
        items: w.orders.pending_allocation.items.map((item) => ({
          item_id: item.id,
          warehouse_code: w.own,
        })),
      },
    }),
    targets: [
      { path: ['allocation', 'order_id'], kind: 'order_id', required: true },
      ...itemTargets('allocation', false),
      { path: ['allocation', 'items', 0, 'warehouse_code'], kind: 'code', required: false },
    ],
  },
  {
    name: 'ship',
    method: 'POST',
    path: '/V1/fulfillmentOrder/ship',
    token: 'partner',
    body: (w) => ({
      shipment: {
        order_id: w.orders.pending_shipment.number,
        items: items(w.orders.pending_shipment.items, false),
        carrier_tracking_number: 'TRACK-1',
        carrier_title: 'Carrier',
        tracks: [{ carrier_code: 'dhl', title: 'DHL', track_number: 'T-2' }],
      },
    }),
    targets: [
      { path: ['shipment', 'order_id'], kind: 'order_id', required: true },
      ...itemTargets('shipment', false),
      { path: ['shipment', 'tracks', 0, 'track_number'], kind: 'code', required: true },
    ],
  },
  {
    name: 'invoice',
    method: 'POST',
    path: '/V1/fulfillmentOrder/invoice',
    token: 'erp',
    body: (w) => ({
      invoice: {
        order_id: w.orders.pending_invoice.number,
        items: items(w.orders.pending_invoice.items, false),
        invoice_number: 'FUZZ-INV-1',
        shipping_amount_incl_tax: 5,
        additional_data: 'note',
      },
    }),
    targets: [
      { path: ['invoice', 'order_id'], kind: 'order_id', required: true },
      ...itemTargets('invoice', false),
      { path: ['invoice', 'invoice_number'], kind: 'code', required: true },
      { path: ['invoice', 'shipping_amount_incl_tax'], kind: 'money', required: false },
    ],
  },
];

// ── building blocks of bad values ─────────────────────────────────────────────────────────

const ODD_CHARACTERS = [
  'é',
  '漢',
  '😀',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\ud800',
  '<',
  '&',
  '"',
  '\\',
];

/** `length` characters (code points, as limits count them), many of them unusual. */
function oddString(random: Random, length: number): string {
  const characters: string[] = [];
  while (characters.length < length) {
    characters.push(random.chance(0.5) ? 'x' : random.pick(ODD_CHARACTERS));
  }
  return characters.join('');
}

/**
 * Deep nesting is written into the serialised body, not built as an object: neither
 * JSON.stringify nor our XML writer should be what runs out of stack.
 */
const DEEP = /"?__deep_(\d+)__"?/g;

function deepNesting(random: Random): Json {
  return `__deep_${random.pick([64, 1_000, 5_000])}__`;
}

function expandJson(text: string): string {
  return text.replace(DEEP, (_whole, depth: string) => {
    const n = Number(depth);
    return `${'[{"a":'.repeat(n)}"deep"${'}]'.repeat(n)}`;
  });
}

function expandXml(text: string): string {
  return text.replace(DEEP, (_whole, depth: string) => {
    const n = Number(depth);
    return `${'<a>'.repeat(n)}deep${'</a>'.repeat(n)}`;
  });
}

/**
 * A value the field cannot take, in JSON and in XML alike (where every value arrives as text and
 * is typed by the schema: `42` would be a fine sku there, so strings are broken otherwise).
 */
function wrongValue(random: Random, kind: FieldKind): Json {
  const common: Json[] = [null, {}, [], { nested: 'x' }, ['x']];
  const byKind: Record<FieldKind, Json[]> = {
    order_id: [true, 1.5, 'ord\u0000er'],
    code: ['', '   ', 'a\u0000b'],
    item_id: ['x', 0, -1, 1.5, 2 ** 53 + 2, 987_654_321, '', true],
    qty: ['x', -1, 1.5, 2 ** 53 + 2, '', true],
    items: ['x', 1],
    money: ['x', -1e15, 1e15, 0.00001, 4.99, true],
  };
  return random.pick([...common, ...byKind[kind]]);
}

function getParent(
  body: JsonObject,
  path: (string | number)[],
): { parent: Json; key: string | number } | null {
  let node: Json = body;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string | number, Json>)[key] as Json;
  }
  if (node === null || typeof node !== 'object') return null;
  return { parent: node, key: path[path.length - 1] as string | number };
}

function setAt(body: JsonObject, path: (string | number)[], value: Json | undefined): boolean {
  const found = getParent(body, path);
  if (!found) return false;
  const record = found.parent as Record<string | number, Json>;
  if (value === undefined) delete record[found.key];
  else record[found.key] = value;
  return true;
}

/** One change that makes the body invalid; returns its label. */
function breakField(random: Random, body: JsonObject, target: Target, world: FuzzWorld): string {
  const where = target.path.join('.');
  const choices: (() => string)[] = [
    () => {
      setAt(body, target.path, wrongValue(random, target.kind));
      return `wrong value at ${where}`;
    },
    () => {
      setAt(body, target.path, deepNesting(random));
      return `deep nesting at ${where}`;
    },
  ];
  if (target.required) {
    choices.push(() => {
      setAt(body, target.path, undefined);
      return `missing ${where}`;
    });
  }
  const limit = LIMIT[target.kind];
  if (limit > 0) {
    choices.push(
      () => {
        // Plain ends: trimming (which code fields do) must not bring it back under the limit.
        setAt(body, target.path, `x${oddString(random, limit - 1 + random.int(3))}x`);
        return `over-long ${where}`;
      },
      () => {
        setAt(body, target.path, 'x'.repeat(random.pick([3_000, 3_000, 100_000, 900_000])));
        return `huge ${where}`;
      },
      () => {
        setAt(body, target.path, `${oddString(random, 5)}\u0000${oddString(random, 5)}`);
        return `NUL in ${where}`;
      },
    );
  }
  if (target.kind === 'code' && where.endsWith('warehouse_code')) {
    choices.push(() => {
      setAt(body, target.path, random.pick([world.other, 'NO-SUCH-WAREHOUSE']));
      return `warehouse out of scope at ${where}`;
    });
  }
  if (target.kind === 'items') {
    choices.push(() => {
      const list = getParent(body, target.path);
      const entries = list ? (list.parent as Record<string, Json>)[list.key as string] : null;
      // An earlier break may have made it something else than a list: then it stays broken.
      if (Array.isArray(entries)) setAt(body, target.path, [...entries, ...entries]);
      return `an item listed twice at ${where}`;
    });
  }
  return random.pick(choices)();
}

// ── serialising ───────────────────────────────────────────────────────────────────────────

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** docs/api.md's XML: arrays as `<item>` children; what XML cannot carry becomes odd text. */
function toXml(name: string, value: Json, depth = 0): string {
  if (depth > 200) return `<${name}>deep</${name}>`;
  if (value === null) return `<${name}/>`;
  if (Array.isArray(value)) {
    return `<${name}>${value.map((entry) => toXml('item', entry, depth + 1)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    const children = Object.entries(value)
      .map(([key, child]) => toXml(key, child, depth + 1))
      .join('');
    return `<${name}>${children}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

const XML_BREAKS: ((random: Random, xml: string) => [string, string])[] = [
  (_r, xml) => [`<!DOCTYPE r [<!ENTITY x "boom">]>${xml}`, 'XML with a DOCTYPE'],
  (_r, xml) => [
    xml.replace(/^<request>/, '<reqest>').replace(/<\/request>$/, '</reqest>'),
    'wrong XML root',
  ],
  (_r, xml) => [`${xml}<request/>`, 'two XML roots'],
  (_r, xml) => [xml.replace(/<\/request>$/, ''), 'unclosed XML root'],
  (_r, xml) => [xml.replace('>', ' a="1" a="2">'), 'duplicate XML attribute'],
  (_r, xml) => [xml.replace(/<(\w+)>/, '<$1><![CDATA[x'), 'unterminated CDATA'],
];

/** Replays of a JSON body that are not JSON, or not the right JSON. */
const JSON_BREAKS: ((random: Random, text: string) => [string, string])[] = [
  (_r, text) => [`[${text}]`, 'JSON root is an array'],
  (r, _t) => [r.pick(['null', '"text"', '42', 'true', '']), 'JSON root is not an object'],
  (_r, text) => [text.replace(/:/, '::'), 'JSON syntax error'],
  (_r, text) => [`${text.slice(0, -1)},}`, 'trailing comma'],
  (_r, text) => [text.replace(/\d+/, '1e400'), 'number past double range'],
  (_r, text) => [text.replace(/"/, "'"), 'single quotes'],
];

function truncate(random: Random, body: string): string {
  return body.slice(0, random.int(Math.max(1, body.length - 1)));
}

// ── the requests ──────────────────────────────────────────────────────────────────────────

const BAD_PAGES = [
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '99999999999999999999999',
  '',
  '%00',
  '1%00',
  '%F0',
  '１',
];
const BAD_DATES = [
  '2026-13-01 00:00:00',
  '2026-02-30 10:00:00',
  'yesterday',
  '2026-01-01T00:00:00Z',
  '2026-01-01',
  '%00',
  '9999999-01-01 00:00:00',
  'x'.repeat(5_000),
];

function query(random: Random): { text: string; label: string } {
  const page = random.chance(0.6) ? random.pick(BAD_PAGES) : String(1 + random.int(3));
  const date = random.chance(0.5) ? random.pick(BAD_DATES) : null;
  const parts = [`page=${page}`];
  if (date !== null) parts.push(`date=${encodeURIComponent(date).replace('%2500', '%00')}`);
  if (random.chance(0.2)) parts.push(`page=${random.pick(BAD_PAGES)}`);
  return { text: parts.join('&'), label: `query ${parts.join('&').slice(0, 60)}` };
}

function authHeaders(random: Random, world: FuzzWorld, token: keyof FuzzWorld['tokens']) {
  const roll = random.next();
  if (roll < 0.85)
    return { headers: { authorization: `Bearer ${world.tokens[token]}` }, label: '' };
  return random.pick([
    { headers: {} as Record<string, string>, label: 'no token' },
    { headers: { authorization: 'Bearer not-a-token' }, label: 'unknown token' },
    { headers: { authorization: `Basic ${world.tokens[token]}` }, label: 'Basic scheme' },
    { headers: { authorization: `Bearer ${world.tokens[token]} x` }, label: 'token with a tail' },
    { headers: { api_key: `${world.tokens[token]}x` }, label: 'wrong api_key' },
  ]);
}

function acceptHeader(random: Random): Record<string, string> {
  if (random.chance(0.7)) return {};
  return {
    accept: random.pick([
      'application/xml',
      'text/xml',
      '*/*',
      'image/png',
      'application/json;q=0',
      '',
    ]),
  };
}

function pollRequest(random: Random, world: FuzzWorld): FuzzRequest {
  const warehouses = random.chance(0.2);
  const queue = random.pick(QUEUES);
  const q = query(random);
  const auth = authHeaders(random, world, random.pick(['all', 'partner', 'erp'] as const));
  const path = warehouses ? `/V1/warehouses?${q.text}` : `/V1/fulfillmentOrders/${queue}?${q.text}`;
  return {
    method: 'GET',
    path,
    headers: { ...auth.headers, ...acceptHeader(random) },
    label: `GET ${warehouses ? 'warehouses' : queue} ${q.label} ${auth.label}`,
  };
}

function postRequest(random: Random, world: FuzzWorld): FuzzRequest {
  const endpoint = random.pick(ENDPOINTS);
  const body = (endpoint.body as (w: FuzzWorld) => JsonObject)(world);
  const labels = [`POST ${endpoint.name}`];
  // Always at least one broken field, so no request is valid.
  labels.push(breakField(random, body, random.pick(endpoint.targets), world));
  if (random.chance(0.3))
    labels.push(breakField(random, body, random.pick(endpoint.targets), world));
  if (random.chance(0.2)) {
    const root = body[Object.keys(body)[0] as string];
    const holder = root && typeof root === 'object' && !Array.isArray(root) ? root : body;
    holder[`unknown_${random.int(100)}`] = oddString(random, 20);
    labels.push('an unknown field');
  }
  const xml = random.chance(0.35);
  let text = xml ? expandXml(toXml('request', body)) : expandJson(JSON.stringify(body));
  if (xml && random.chance(0.3)) {
    const [broken, label] = random.pick(XML_BREAKS)(random, text);
    text = broken;
    labels.push(label);
  } else if (!xml && random.chance(0.3)) {
    const [broken, label] = random.pick(JSON_BREAKS)(random, text);
    text = broken;
    labels.push(label);
  }
  if (random.chance(0.1)) {
    text = truncate(random, text);
    labels.push('truncated body');
  }
  let contentType = xml ? random.pick(['application/xml', 'text/xml']) : 'application/json';
  if (random.chance(0.1)) {
    contentType = random.pick([
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'application/xml; charset=utf-16',
      '',
      'application/json, application/xml',
      'application/',
    ]);
    labels.push(`content-type "${contentType}"`);
  }
  const auth = authHeaders(random, world, endpoint.token);
  if (auth.label) labels.push(auth.label);
  // Sometimes bytes that are not UTF-8 at all.
  const encoded = new TextEncoder().encode(text);
  let payload: string | Uint8Array = text;
  if (random.chance(0.05)) {
    const bytes = new Uint8Array(encoded.length + 2);
    const at = random.int(encoded.length);
    bytes.set(encoded.subarray(0, at));
    bytes.set([0xff, 0xfe], at);
    bytes.set(encoded.subarray(at), at + 2);
    payload = bytes;
    labels.push('invalid UTF-8');
  }
  const headers: Record<string, string> = { ...auth.headers, ...acceptHeader(random) };
  if (contentType) headers['content-type'] = contentType;
  return { method: 'POST', path: endpoint.path, headers, body: payload, label: labels.join(', ') };
}

function oddRouteRequest(random: Random, world: FuzzWorld): FuzzRequest {
  const auth = { authorization: `Bearer ${world.tokens.all}` };
  return random.pick<FuzzRequest>([
    { method: 'DELETE', path: '/V1/stockItems', headers: auth, label: 'wrong method' },
    {
      method: 'PUT',
      path: '/V1/fulfillmentOrder/accept',
      headers: auth,
      body: '{}',
      label: 'wrong method',
    },
    { method: 'GET', path: '/V1/fulfillmentOrder/ship', headers: auth, label: 'wrong method' },
    {
      method: 'POST',
      path: '/V1/fulfillmentOrders/pending_accept',
      headers: auth,
      body: '{}',
      label: 'wrong method',
    },
    {
      method: 'GET',
      path: '/V1/fulfillmentOrders/no_such_queue',
      headers: auth,
      label: 'unknown queue',
    },
    { method: 'GET', path: `/V1/${oddString(random, 10)}`, headers: auth, label: 'unknown route' },
    {
      method: 'GET',
      path: '/V1/fulfillmentOrders/%E0%A4%A',
      headers: auth,
      label: 'broken percent-encoding',
    },
    { method: 'GET', path: '/V1/warehouses/../stockItems', headers: auth, label: 'dot segments' },
  ]);
}

/** Where the requests go: a store path, sometimes another store or a bad store code. */
function storePrefix(random: Random): string {
  if (random.chance(0.93)) return '/rest/default';
  return random.pick([
    '/rest/other',
    '/rest/%00',
    `/rest/${'s'.repeat(300)}`,
    '/rest/de%2Ffault',
    '/rest',
  ]);
}

/** The `index`-th request of the run seeded with `seed`: the same inputs, the same request. */
export function* malformedRequests(
  seed: number,
  count: number,
  world: FuzzWorld,
): Generator<FuzzRequest> {
  const random = createRandom(seed);
  for (let index = 0; index < count; index++) {
    const roll = random.next();
    const request =
      roll < 0.25
        ? pollRequest(random, world)
        : roll < 0.95
          ? postRequest(random, world)
          : oddRouteRequest(random, world);
    yield { ...request, path: `${storePrefix(random)}${request.path}` };
  }
}
