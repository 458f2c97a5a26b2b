import type { FulfillmentOrder } from '@fulfil/core';
import { call, ERP, PARTNER, type Reply } from '../scale-out/support.js';
import { KeyLocks } from './key-locks.js';
import type { AcknowledgedAction, Ledger, OrderAction } from './ledger.js';
import type { ServerSlot } from './server-slot.js';

/**
 * The crash test's load: order drivers taking orders through all five actions, and a stream of
 * stock syncs, all over HTTP against whichever server holds the slot. A request cut off by a kill
 * is sent again, unchanged, to the next server until it gets an answer: what a well-behaved
 * integrator does, and what makes every action end acknowledged or refused, never unknown.
 */

const WAREHOUSE = 'WH-A';

/** How an order is driven; the kind is chosen by the order's position. */
export const ORDER_KINDS = ['full', 'reject', 'mixed', 'partial', 'allocated', 'accepted'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

interface Step {
  action: OrderAction;
  items: { item_id: number; qty?: number }[];
  track?: string;
  invoice_number?: string;
  shipping_amount_incl_tax?: number;
}

/** The steps of `kind` for an order of two lines. */
function stepsOf(kind: OrderKind, order: FulfillmentOrder): Step[] {
  const [first, second] = order.items;
  if (!first || !second) throw new Error(`order ${order.fulfillment_order_number} needs two lines`);
  const all = [first, second];
  const number = order.fulfillment_order_number;
  const ids = (lines: typeof all) => lines.map((line) => ({ item_id: line.id }));
  const accept: Step = {
    action: 'accept',
    items: all.map((line) => ({ item_id: line.id, qty: line.qty })),
  };
  const allocate: Step = { action: 'allocate', items: ids(all) };
  const ship = (lines: typeof all, n: number): Step => ({
    action: 'ship',
    items: lines.map((line) => ({ item_id: line.id, qty: line.qty })),
    track: `TRK-${number}-${n}`,
  });
  const invoice = (lines: typeof all, n: number, shipping: number): Step => ({
    action: 'invoice',
    items: ids(lines),
    invoice_number: `INV-${number}-${n}`,
    shipping_amount_incl_tax: shipping,
  });
  switch (kind) {
    case 'full':
      return [accept, allocate, ship(all, 1), invoice(all, 1, 5)];
    case 'reject':
      return [{ action: 'reject', items: ids(all) }];
    case 'mixed':
      return [
        {
          action: 'accept',
          items: [
            { item_id: first.id, qty: first.qty },
            { item_id: second.id, qty: 0 },
          ],
        },
        { action: 'allocate', items: ids([first]) },
        ship([first], 1),
        invoice([first], 1, 5),
      ];
    case 'partial':
      return [
        accept,
        allocate,
        ship([first], 1),
        invoice([first], 1, 5),
        ship([second], 2),
        invoice([second], 2, 0),
      ];
    case 'allocated':
      return [accept, allocate];
    case 'accepted':
      return [accept];
  }
}

function requestOf(step: Step, number: string): { path: string; token: string; body: unknown } {
  const items = step.items;
  switch (step.action) {
    case 'accept':
    case 'reject':
      return {
        path: `fulfillmentOrder/${step.action}`,
        token: PARTNER,
        body: { order: { order_id: number, items } },
      };
    case 'allocate':
      return {
        path: 'fulfillmentOrder/allocate',
        token: ERP,
        body: { allocation: { order_id: number, items } },
      };
    case 'ship':
      return {
        path: 'fulfillmentOrder/ship',
        token: PARTNER,
        body: {
          shipment: {
            order_id: number,
            items,
            carrier_tracking_number: step.track,
            carrier_title: 'Crash Carrier',
          },
        },
      };
    case 'invoice':
      return {
        path: 'fulfillmentOrder/invoice',
        token: ERP,
        body: {
          invoice: {
            order_id: number,
            items,
            invoice_number: step.invoice_number,
            shipping_amount_incl_tax: step.shipping_amount_incl_tax,
          },
        },
      };
  }
}

export interface LoadOptions {
  slot: ServerSlot;
  ledger: Ledger;
  /** The seeded orders, each with two lines; the i-th is driven as ORDER_KINDS[i % 6]. */
  orders: readonly FulfillmentOrder[];
  /** Skus the stock sync stream sets, two a batch. */
  skus: readonly string[];
  drivers: number;
}

export interface LoadReport {
  /** Requests cut off by a kill (no answer), each sent again until one came. */
  cutOff: number;
  /** Answers that were neither 2xx nor expected: every one is a failure of the test. */
  refused: string[];
  ordersDriven: number;
}

/** Runs the load until `stop()`; `stop` resolves once every request in flight has its answer. */
export function startLoad({ slot, ledger, orders, skus, drivers }: LoadOptions): {
  stop(): Promise<LoadReport>;
} {
  const locks = new KeyLocks();
  const report: LoadReport = { cutOff: 0, refused: [], ordersDriven: 0 };
  let stopping = false;

  /** Sends until an answer comes, through every kill on the way. */
  const send = async (token: string, path: string, body: unknown): Promise<Reply> => {
    for (;;) {
      const { url, generation } = await slot.current();
      try {
        return await call(url, token, 'POST', path, body);
      } catch {
        report.cutOff += 1;
        await slot.after(generation);
      }
    }
  };

  const acknowledged = (reply: Reply, what: string): boolean => {
    if (reply.status >= 200 && reply.status < 300) return true;
    report.refused.push(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
    return false;
  };

  const runStep = async (order: FulfillmentOrder, step: Step): Promise<boolean> => {
    const number = order.fulfillment_order_number;
    const { path, token, body } = requestOf(step, number);
    const lines = step.items.map((entry) => {
      const line = order.items.find((item) => item.id === entry.item_id);
      if (!line) throw new Error(`item ${entry.item_id} is not in ${number}`);
      return line;
    });
    const onHandKeys = step.action === 'ship' ? lines.map((line) => line.sku) : [];
    return locks.with(onHandKeys, async () => {
      if (!acknowledged(await send(token, path, body), `${step.action} ${number}`)) return false;
      const action: AcknowledgedAction = { action: step.action, order: number, items: step.items };
      if (step.track) action.track = step.track;
      if (step.invoice_number) action.invoice_number = step.invoice_number;
      ledger.acknowledge(action);
      if (step.action === 'ship') {
        for (const line of lines) {
          ledger.changeOnHand(line.warehouse_code, line.sku, { kind: 'ship', qty: line.qty });
        }
      }
      return true;
    });
  };

  let next = 0;
  const driver = async () => {
    while (!stopping && next < orders.length) {
      const index = next++;
      const order = orders[index] as FulfillmentOrder;
      report.ordersDriven += 1;
      for (const step of stepsOf(ORDER_KINDS[index % ORDER_KINDS.length] as OrderKind, order)) {
        if (stopping || !(await runStep(order, step))) break;
      }
    }
  };

  const syncStream = async () => {
    for (let round = 0; !stopping; round++) {
      const batch = [skus[(2 * round) % skus.length], skus[(2 * round + 1) % skus.length]].map(
        (sku, k) => ({ warehouse_code: WAREHOUSE, sku: sku as string, qty: 5000 + 10 * round + k }),
      );
      await locks.with(
        batch.map((entry) => entry.sku),
        async () => {
          const reply = await send(PARTNER, 'stockItems', { stock_items: batch });
          if (!acknowledged(reply, `stock sync round ${round}`)) return;
          ledger.stockSyncs += 1;
          for (const entry of batch) {
            ledger.changeOnHand(entry.warehouse_code, entry.sku, { kind: 'sync', qty: entry.qty });
          }
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const running = Promise.all([...Array.from({ length: drivers }, driver), syncStream()]);
  // When a test fails before stop(), closing the slot ends the load with this rejection: expected.
  running.catch(() => {});
  return {
    async stop() {
      stopping = true;
      await running;
      return report;
    },
  };
}
