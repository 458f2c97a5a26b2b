import { activeHolds, placeHold, releaseHold } from '../domain/actions/holds.js';
import { touch } from '../domain/actions/outcome.js';
import type { RoutingDecision } from '../domain/routing/explanation.js';
import { explainEach, type RoutingRecord } from '../domain/routing/record.js';
import type { RoutingSettings } from '../domain/routing/rules.js';
import { parseTimestamp, type Timestamp } from '../domain/timestamp.js';
import type { FulfillmentOrder, Item, StockDelta, Store } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import type { EngineDeps } from './deps.js';
import { openPartAt } from './reroute.js';
import { RoutingFacts } from './routing-facts.js';

/**
 * Short stock held (docs/routing.md, Short lines): with the store's `when_short` at `hold`, an
 * order a line of which no warehouse has the stock for is taken in on hold `short-stock`
 * (reason `inventory_out_of_stock`), and the stock write that makes every line of it routable
 * releases it and routes its lines again, in that write's transaction.
 */

export const SHORT_STOCK_HOLD = {
  handle: 'short-stock',
  reason: 'inventory_out_of_stock',
} as const;

/** Whether intake takes the order in on hold: the store holds short orders, and one is short. */
export function holdsShort(settings: RoutingSettings, routing: RoutingRecord): boolean {
  return (
    settings.when_short === 'hold' &&
    routing.by === 'rules' &&
    routing.decision.lines.some((line) => line.short)
  );
}

/** A new fulfillment order, on hold `short-stock`. */
export function heldShort(order: FulfillmentOrder, by: string, at: Timestamp): FulfillmentOrder {
  const short = [...new Set(order.items.map((item) => item.sku))].join(', ');
  return placeHold(
    order,
    { ...SHORT_STOCK_HOLD, note: `Not enough stock to route every line (${short}).` },
    by,
    at,
  ).order;
}

/** What a live unshipped line holds reserved at its warehouse (docs/behaviour.md, Stock). */
function reservationOf(item: Item): StockDelta {
  return { warehouse_code: item.warehouse_code, sku: item.sku, on_hand: 0, reserved: item.qty };
}

/** The most orders on hold one stock write looks at (the store's oldest first). */
const HELD_LOOKED_AT = 1_000;

/**
 * After a stock write of `skus`, inside its transaction: every sales order held `short-stock`
 * with a line of those skus is routed again on the stock as the write left it; when no line is
 * short any more, its hold is released and each line that the rules now send elsewhere moves to
 * a new fulfillment order there (as a reroute: rejected here, opened there, both on the
 * timeline). Lines stay whole on a release. Returns the sales orders released.
 */
export async function releaseRoutable(
  deps: EngineDeps,
  tx: RepositoryTx,
  store: Store,
  skus: readonly string[],
  now: Timestamp,
): Promise<string[]> {
  const written = new Set(skus);
  const bySalesOrder = new Map<string, string[]>();
  for (const held of await tx.heldOrders(store.id, HELD_LOOKED_AT)) {
    if (!activeHolds(held).some((hold) => hold.handle === SHORT_STOCK_HOLD.handle)) continue;
    const numbers = bySalesOrder.get(held.sales_order_number) ?? [];
    numbers.push(held.fulfillment_order_number);
    bySalesOrder.set(held.sales_order_number, numbers);
  }
  if (bySalesOrder.size === 0) return [];
  let facts: RoutingFacts | null = null;
  const released: string[] = [];
  for (const [salesOrderNumber, numbers] of bySalesOrder) {
    const orders: FulfillmentOrder[] = [];
    for (const number of numbers.sort()) {
      const order = await tx.lockOrder(store.id, number);
      if (order) orders.push(order);
    }
    const lines = orders.flatMap((order) =>
      order.items
        .filter((item) => item.status === 'pending_accept')
        .map((item) => ({ order, item })),
    );
    if (!lines.some(({ item }) => written.has(item.sku))) continue;
    facts ??= await RoutingFacts.read(tx, store, parseTimestamp(now) ?? new Date());
    await facts.loadStock(lines.map(({ item }) => item.sku));
    // The held lines' own reservations are theirs to route again: counted back while deciding.
    const own = lines.map(({ item }) => reservationOf(item));
    facts.apply(own.map((delta) => ({ ...delta, reserved: -delta.reserved })));
    const [record] = await tx.findSalesOrders(store.id, [salesOrderNumber]);
    const first = orders[0] as FulfillmentOrder;
    const decision = deps.decide({
      ...facts.snapshot({
        lines: lines.map(({ item }) => ({ sku: item.sku, qty: item.qty })),
        pinned: record?.received?.warehouse_code || null,
        destination: await facts.destination(
          record?.received?.shipping_address ?? first.shipping_address,
          deps.locate,
        ),
        short_lines: 'leave',
      }),
      split_lines: false,
    });
    facts.apply(own);
    if (decision.lines.some((line) => line.short || line.parts.length === 0)) continue;
    await releaseAndMove(tx, store, orders, lines, decision, facts, now);
    released.push(salesOrderNumber);
  }
  return released;
}

/** Releases the hold of each order and moves every line the decision sends elsewhere. */
async function releaseAndMove(
  tx: RepositoryTx,
  store: Store,
  orders: readonly FulfillmentOrder[],
  lines: readonly { order: FulfillmentOrder; item: Item }[],
  decision: RoutingDecision,
  facts: RoutingFacts,
  now: Timestamp,
): Promise<void> {
  const targetOf = new Map<Item, string>();
  for (const [index, { item }] of lines.entries())
    targetOf.set(item, decision.lines[index]?.parts[0]?.warehouse_code as string);
  await facts.countRouted(
    [...new Set(lines.map(({ item }) => targetOf.get(item) as string))].filter(
      (code) => !orders.some((order) => order.warehouse_code === code),
    ),
    false,
  );
  for (const order of orders) {
    const released = releaseHold(order, SHORT_STOCK_HOLD.handle, 'system', now);
    const moving = new Map<string, { items: Item[]; decisions: RoutingDecision[] }>();
    const items = released.order.items.map((item) => {
      const target = lines.find((line) => line.item.id === item.id);
      const code = target ? targetOf.get(target.item) : undefined;
      if (!code || code === order.warehouse_code) return item;
      const group = moving.get(code) ?? { items: [], decisions: [] };
      group.items.push(item);
      group.decisions.push({
        ...decision,
        lines: decision.lines.filter((_, index) => lines[index]?.item.id === item.id),
      });
      moving.set(code, group);
      return { ...item, status: 'rejected' as const };
    });
    const movedTo: string[] = [];
    for (const [code, group] of moving) {
      const warehouse = facts.warehouse(code);
      if (!warehouse) continue;
      // The reservation moves with the lines: freed here, taken there (by openPartAt).
      const freed = group.items.map(reservationOf).map((delta) => ({
        ...delta,
        reserved: -delta.reserved,
      }));
      await tx.adjustStock(store.id, freed);
      facts.apply(freed);
      facts.apply(group.items.map((item) => reservationOf({ ...item, warehouse_code: code })));
      const opened = await openPartAt(tx, store, order, warehouse, group.items, now, {
        actor: 'system',
        action: 'reroute',
        routing: explainEach(
          group.decisions.map((one) => ({
            ...one,
            lines: one.lines.map((line) => ({ ...line, line: 0 })),
          })),
        ),
      });
      movedTo.push(opened.fulfillment_order_number);
    }
    const saved = await tx.saveOrder(
      movedTo.length ? touch({ ...released.order, items }, now) : released.order,
    );
    await tx.appendAudit([
      {
        order_id: saved.id,
        at: now,
        actor: 'system',
        action: 'release',
        details: {
          ...released.details,
          why: 'stock',
          ...(movedTo.length ? { rerouted_to: movedTo } : {}),
        },
      },
    ]);
  }
}
