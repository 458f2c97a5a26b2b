import { fixtures } from '@fulfil/core/testing';
import fc from 'fast-check';

/**
 * What the holds race (holds-race.property.test.ts) plays: three sales orders a run, each taken
 * in and brought to a stage, then several actors at once (a channel, a partner, an ERP) sending
 * ship (all lines, or one), accept and reject cancellation, hold, release, cancel, accept and allocate steps on them,
 * each actor one step after the other, each step through one of two servers.
 */

export const { channel: CHANNEL, partner: PARTNER, erp: ERP } = fixtures.SEED_TOKENS;
/** What was received of each SKU, before any run: stock on hand is this less what shipped. */
export const RECEIVED = 100_000;
export const SKUS = ['SKU-1', 'SKU-2'];
/** The orders of one run. */
export const ORDERS = 3;

/** The store every server serves: partial acceptance, no reroute, RECEIVED of every SKU. */
export function raceSeed() {
  return fixtures.seed({
    settings: { partial_items: true, partial_qty: false, reroute: false },
    stock: SKUS.map((sku) => ({ warehouse_code: 'WH-A', sku, qty: RECEIVED })),
  });
}

const OPS = [
  'accept',
  'allocate',
  'ship',
  'shipLine',
  'cancel',
  'cancelLine',
  'acceptCancellation',
  'rejectCancellation',
  'hold',
  'release',
] as const;
export type Op = (typeof OPS)[number];

export interface Step {
  op: Op;
  order: number;
  handle: number;
  server: number;
}

const step = fc.record({
  op: fc.constantFrom(...OPS),
  order: fc.integer({ min: 0, max: ORDERS - 1 }),
  handle: fc.integer({ min: 0, max: 1 }),
  server: fc.integer({ min: 0, max: 1 }),
});

/**
 * How far each order is before the race (0: awaiting acceptance, 1: accepted, 2: allocated),
 * and the actors, each with its steps.
 */
export const plan = fc.record({
  stages: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: ORDERS, maxLength: ORDERS }),
  actors: fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), {
    minLength: 2,
    maxLength: 5,
  }),
});
export type Plan = typeof plan extends fc.Arbitrary<infer T> ? T : never;

/** A step of a written plan: on `order`, handle 0, the server alternating by order. */
function at(op: Op, order: number): Step {
  return { op, order, handle: 0, server: order % 2 };
}

/** One plan that surely reaches every outcome, run besides the random ones. */
export const EVERY_OUTCOME: Plan = {
  stages: [2, 1, 0],
  actors: [
    [at('cancel', 0), at('shipLine', 0), at('ship', 0)],
    [at('allocate', 1), at('cancel', 1), at('acceptCancellation', 1)],
    [
      at('hold', 2),
      at('release', 2),
      at('accept', 2),
      at('cancel', 2),
      at('rejectCancellation', 2),
    ],
  ],
};

/** What the runs must have come to, together: every action, and a ship over an open request. */
export const OUTCOMES = [
  'accept',
  'accept_cancellation',
  'allocate',
  'cancel',
  'hold',
  'reject_cancellation',
  'release',
  'ship',
  'shipped over a request',
  'shipped part of a request',
].sort();

/** The timeline's name of what a step does, when it does something. */
export const ACTION_OF: Record<Op, string> = {
  accept: 'accept',
  allocate: 'allocate',
  ship: 'ship',
  shipLine: 'ship',
  cancel: 'cancel',
  cancelLine: 'cancel',
  acceptCancellation: 'accept_cancellation',
  rejectCancellation: 'reject_cancellation',
  hold: 'hold',
  release: 'release',
};

/** The `x-request-id` of the race's `sent`-th step of run `run`: no other request's starts so. */
export const raceRequestId = (run: number, sent: number): string => `race-${run}-${sent}`;
export const isRaceRequest = (id: string | null | undefined): boolean =>
  id?.startsWith('race-') === true;

/** One order of a run, as intake answered it. */
export interface Placed {
  salesOrder: string;
  number: string;
  lines: number[];
}

/** The token, path under /rest/default, and body of a step on `placed`. */
export function requestOf(op: Op, placed: Placed, handle: number): [string, string, unknown] {
  const lines = placed.lines.map((item_id) => ({ item_id, qty: 1 }));
  const order_id = placed.number;
  const sales_order_number = placed.salesOrder;
  switch (op) {
    case 'accept':
      return [PARTNER, '/V1/fulfillmentOrder/accept', { order: { order_id, items: lines } }];
    case 'allocate':
      return [ERP, '/V1/fulfillmentOrder/allocate', { allocation: { order_id, items: lines } }];
    case 'ship':
      return [PARTNER, '/V1/fulfillmentOrder/ship', { shipment: { order_id, items: lines } }];
    case 'shipLine':
      return [
        PARTNER,
        '/V1/fulfillmentOrder/ship',
        { shipment: { order_id, items: [lines[handle]] } },
      ];
    case 'cancel':
      return [
        CHANNEL,
        '/V1/salesOrder/cancel',
        { cancellation: { sales_order_number, reason: 'customer' } },
      ];
    case 'cancelLine':
      return [
        CHANNEL,
        '/V1/salesOrder/cancel',
        {
          cancellation: {
            sales_order_number,
            reason: 'fraud',
            items: [{ fulfillment_order_number: order_id, item_id: placed.lines[handle] }],
          },
        },
      ];
    case 'acceptCancellation':
      return [PARTNER, '/V1/fulfillmentOrder/acceptCancellation', { cancellation: { order_id } }];
    case 'rejectCancellation':
      return [
        PARTNER,
        '/V1/fulfillmentOrder/rejectCancellation',
        { cancellation: { order_id, message: 'packed' } },
      ];
    case 'hold':
      return [
        CHANNEL,
        '/V1/salesOrder/hold',
        { hold: { sales_order_number, handle: `h${handle}`, reason: 'high_risk_of_fraud' } },
      ];
    case 'release':
      return [
        CHANNEL,
        '/V1/salesOrder/release',
        { release: { sales_order_number, handle: `h${handle}` } },
      ];
  }
}
