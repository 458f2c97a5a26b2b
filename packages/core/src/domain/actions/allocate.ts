import { fieldError } from '../errors.js';
import type { FulfillmentOrder, StockDelta, Warehouse } from '../types.js';
import { assertInFlow, selectItems } from './item-selection.js';
import { type ActionContext, type ActionOutcome, touch, unchanged } from './outcome.js';

/** An allocation once parsed; a line's `warehouse_code` moves it to another warehouse. */
export interface ParsedAllocation {
  order_id: string;
  items: { item_id: number; qty?: number; warehouse_code?: string }[];
}

export interface AllocateContext extends ActionContext {
  /**
   * The warehouses the caller may name (a scoped token: its own), to check transfer sources and
   * whether a courier ships the order; one outside them is refused as if it did not exist.
   */
  warehouses: readonly Warehouse[];
}

/**
 * POST allocate: the ERP confirms stock; the lines move to pending_shipment. An entry may name
 * another source warehouse (an inter-warehouse transfer): the reservation moves with it. Orders of
 * a courier warehouse become due for courier dispatch.
 */
export function allocate(
  order: FulfillmentOrder,
  input: ParsedAllocation,
  context: AllocateContext,
): ActionOutcome {
  assertInFlow(order, 'allocation');
  const selection = selectItems(order, input.items, 'allocate', 'allocation', context.settings);
  for (const { entry, item, index } of selection.applied) {
    if (entry.warehouse_code !== undefined && entry.warehouse_code !== item.warehouse_code) {
      throw fieldError(
        'conflicts_with_applied',
        `Item ${item.id} was already allocated from ${item.warehouse_code}; %fieldName cannot change it.`,
        `allocation.items[${index}].warehouse_code`,
        entry.warehouse_code,
      );
    }
  }
  if (selection.pending.length === 0) return unchanged(order);

  const stock: StockDelta[] = [];
  const sources = new Map<number, string>();
  for (const { entry, item, index } of selection.pending) {
    const source = entry.warehouse_code ?? item.warehouse_code;
    if (source !== item.warehouse_code) {
      const warehouse = context.warehouses.find((candidate) => candidate.code === source);
      if (!warehouse?.active) {
        throw fieldError(
          'invalid_request',
          'Warehouse %fieldValue of %fieldName is not an active warehouse of this store.',
          `allocation.items[${index}].warehouse_code`,
          source,
        );
      }
      stock.push(
        { warehouse_code: item.warehouse_code, sku: item.sku, on_hand: 0, reserved: -item.qty },
        { warehouse_code: source, sku: item.sku, on_hand: 0, reserved: item.qty },
      );
    }
    sources.set(item.id, source);
  }

  const items = order.items.map((item) => {
    const source = sources.get(item.id);
    return source === undefined
      ? item
      : { ...item, status: 'pending_shipment' as const, warehouse_code: source };
  });
  const byCourier =
    context.warehouses.find((warehouse) => warehouse.code === order.warehouse_code)
      ?.fulfilled_by === 'courier';
  const courier = byCourier ? { ...order.courier, next_attempt_at: context.now } : order.courier;
  return {
    order: touch({ ...order, items, courier, allocated_at: context.now }, context.now),
    changed: true,
    stock,
    rejected: [],
    details: {
      items: [...sources].map(([item_id, warehouse_code]) => ({ item_id, warehouse_code })),
    },
  };
}
