import {
  ITEM_TRANSITIONS,
  type ItemAction,
  type ItemStatus,
  type OperatorPrincipal,
} from '@fulfil/core';
import { describe, expect, it } from 'vitest';
import { type Harness, openHarness, salesOrder } from './harness.js';

/**
 * A complete timeline (docs/admin-api.md): driven from the transition table itself, each
 * transition of the state machine, from each state it leaves, writes exactly one timeline entry
 * naming who acted and what they did, with the request that did it.
 */

const OPERATOR: OperatorPrincipal = {
  name: 'oscar',
  role: 'operator',
  store_code: null,
  request_id: 'req-oscar',
};

/** The actions that bring a fresh order's line to each state, in order. */
const PATH_TO: Record<ItemStatus, ItemAction[]> = {
  pending_accept: [],
  pending_allocation: ['accept'],
  pending_shipment: ['accept', 'allocate'],
  pending_invoice: ['accept', 'allocate', 'ship'],
  invoiced: ['accept', 'allocate', 'ship', 'invoice'],
  rejected: ['reject'],
  canceled: ['cancel'],
};

/** Who performs each action, as the timeline must name them. */
const ACTOR: Record<ItemAction, string> = {
  accept: 'partner-a',
  reject: 'partner-a',
  allocate: 'erp',
  ship: 'partner-a',
  invoice: 'erp',
  cancel: 'oscar',
};

let sequence = 0;

async function perform(
  h: Harness,
  action: ItemAction,
  order_id: string,
  item_id: number,
  requestId: string,
) {
  const items = [{ item_id, qty: 1 }];
  const partner = { ...h.partnerA, request_id: requestId };
  const erp = { ...h.erp, request_id: requestId };
  switch (action) {
    case 'accept':
      return h.engine.accept(partner, { order: { order_id, items } });
    case 'reject':
      return h.engine.reject(partner, { order: { order_id, items } });
    case 'allocate':
      return h.engine.allocate(erp, { allocation: { order_id, items } });
    case 'ship':
      return h.engine.ship(partner, { shipment: { order_id, items } });
    case 'invoice':
      return h.engine.invoice(erp, {
        invoice: {
          order_id,
          items,
          invoice_number: `INV-${order_id}`,
          shipping_amount_incl_tax: 5,
        },
      });
    case 'cancel':
      return h.engine.admin.intervene(
        { ...OPERATOR, request_id: requestId },
        'default',
        order_id,
        'cancel',
        {},
      );
  }
}

/**
 * A line a partner has accepted is canceled by its answer to the operator's request: the request
 * is set up first, and the partner's accept is the move, under its own name.
 */
function byRequest(action: ItemAction, state: ItemStatus): boolean {
  return action === 'cancel' && state !== 'pending_accept';
}

async function move(
  h: Harness,
  action: ItemAction,
  state: ItemStatus,
  number: string,
  itemId: number,
) {
  if (!byRequest(action, state)) return perform(h, action, number, itemId, `req-${action}`);
  await perform(h, 'cancel', number, itemId, 'setup-cancel');
  return h.engine.acceptCancellation(
    { ...h.partnerA, request_id: `req-${action}` },
    { cancellation: { order_id: number } },
  );
}

/** A new one-line order at WH-A whose line has reached `state`. */
async function orderAt(h: Harness, state: ItemStatus) {
  sequence++;
  const [order] = await h.engine.intake(
    'default',
    salesOrder(String(9000 + sequence), [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
  );
  const number = order?.fulfillment_order_number as string;
  const itemId = order?.items[0]?.id as number;
  for (const step of PATH_TO[state]) await perform(h, step, number, itemId, `setup-${step}`);
  return { number, itemId };
}

describe('every transition of the state machine writes one timeline entry', () => {
  const cases = Object.entries(ITEM_TRANSITIONS).flatMap(([action, { from }]) =>
    from.map((state) => [action as ItemAction, state] as const),
  );

  it.each(cases)('%s from %s', async (action, state) => {
    const h = await openHarness({ reroute: false });
    const { number, itemId } = await orderAt(h, state);
    const before = await h.engine.admin.order(OPERATOR, 'default', number);
    await move(h, action, state, number, itemId);
    const after = await h.engine.admin.order(OPERATOR, 'default', number);
    const added = after.timeline.slice(before.timeline.length);
    const asked = byRequest(action, state);
    // The operator's request is one entry of its own, the partner's answer the move.
    expect(added).toHaveLength(asked ? 2 : 1);
    expect(added.at(-1)).toMatchObject(
      asked
        ? { actor: 'partner-a', action: 'accept_cancellation', request_id: `req-${action}` }
        : { actor: ACTOR[action], action, request_id: `req-${action}` },
    );
    // The line did make the move the table says.
    expect(after.order.items[0]?.status).toBe(ITEM_TRANSITIONS[action].to);
  });
});

describe('every operator action writes one timeline entry', () => {
  const actions: [
    string,
    ItemStatus,
    (h: Harness, number: string, itemId: number) => Promise<unknown>,
  ][] = [
    [
      'fail',
      'pending_allocation',
      (h, number) => h.engine.admin.fail(OPERATOR, 'default', number, { reason: 'why' }),
    ],
    [
      'requeue',
      'pending_allocation',
      async (h, number) => {
        await h.engine.failOrder('default', number, 'setup');
        return h.engine.admin.intervene(OPERATOR, 'default', number, 'requeue', { reason: 'back' });
      },
    ],
    [
      'abandon',
      'pending_allocation',
      async (h, number) => {
        await h.engine.failOrder('default', number, 'setup');
        return h.engine.admin.intervene(OPERATOR, 'default', number, 'abandon', {});
      },
    ],
    [
      'allow_partial',
      'pending_accept',
      (h, number) => h.engine.admin.allowPartial(OPERATOR, 'default', number, { allow: true }),
    ],
    [
      'move_lines',
      'pending_accept',
      (h, number, itemId) =>
        h.engine.admin.moveLines(OPERATOR, 'default', number, {
          items: [itemId],
          warehouse_code: 'WH-B',
        }),
    ],
  ];

  it.each(actions)('%s', async (action, state, run) => {
    const h = await openHarness({ reroute: false });
    const { number, itemId } = await orderAt(h, state);
    await run(h, number, itemId);
    const { timeline } = await h.engine.admin.order(OPERATOR, 'default', number);
    const mine = timeline.filter((entry) => entry.actor === 'oscar');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ action, request_id: 'req-oscar' });
  });
});
