import { touch } from '../domain/actions/outcome.js';
import { DomainError, fieldError } from '../domain/errors.js';
import { freedReservations } from '../domain/item-stage.js';
import type { Item } from '../domain/types.js';
import { MoveLinesInput } from '../schemas/admin.js';
import { parseWith } from '../schemas/parse.js';
import { operatorActorOf, requireRole } from './admin-access.js';
import { type OrderDetail, orderDetail } from './admin-orders.js';
import type { EngineDeps } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import { applyToOrder } from './order-actions.js';
import { openPartAt } from './reroute.js';

/**
 * Moves lines no warehouse has accepted yet (`pending_accept`) to another active warehouse of
 * the store, as a reroute does: they leave this order as rejected and open a new fulfillment
 * order of the same sales order there. One transaction; both orders' timelines record it.
 */
export async function moveLines(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  body: unknown,
): Promise<OrderDetail> {
  requireRole(operator, 'operator', storeCode);
  const input = parseWith(MoveLinesInput, body);
  const actor = operatorActorOf(operator, storeCode, input.reason ?? null);
  await applyToOrder(
    deps,
    actor,
    'move_lines',
    input,
    { order_id: number, body: 'order' },
    async (order, { tx, store, context }) => {
      const [target] = await tx.listWarehouses(store.id, [input.warehouse_code]);
      if (!target?.active) {
        throw fieldError(
          'invalid_request',
          'Warehouse %fieldValue does not exist or is not active.',
          'warehouse_code',
          input.warehouse_code,
        );
      }
      const wanted = new Set(input.items);
      const moved: Item[] = [];
      const items = order.items.map((item) => {
        if (!wanted.has(item.id)) return item;
        if (item.status !== 'pending_accept') {
          throw new DomainError(
            'wrong_stage',
            `Item ${item.id} is ${item.status}; only lines pending accept move.`,
          );
        }
        if (item.warehouse_code === target.code) {
          throw fieldError(
            'invalid_request',
            'Item %fieldValue is at that warehouse already.',
            'items',
            String(item.id),
          );
        }
        moved.push(item);
        return { ...item, status: 'rejected' as const };
      });
      const unknown = input.items.find((id) => !order.items.some((item) => item.id === id));
      if (unknown !== undefined) {
        throw fieldError(
          'unknown_item',
          'Item %fieldValue is not in this order.',
          'items',
          String(unknown),
        );
      }
      // Both ends of the move under their rows' locks first, in one order: the target's is
      // written before the source's, which would otherwise take them out of order.
      await tx.lockStock(
        store.id,
        moved.flatMap((item) => [
          { warehouse_code: item.warehouse_code, sku: item.sku },
          { warehouse_code: target.code, sku: item.sku },
        ]),
      );
      const opened = await openPartAt(tx, store, order, target, moved, context.now, {
        actor: actor.name,
        action: 'move_lines',
        request_id: actor.request_id ?? null,
      });
      return {
        order: touch({ ...order, items }, context.now),
        changed: true,
        // The reservation moves with the lines: freed here, taken at the target by openPartAt.
        stock: freedReservations(moved),
        rejected: [],
        details: {
          items: moved.map((item) => item.id),
          to: target.code,
          moved_to: opened.fulfillment_order_number,
        },
      };
    },
  );
  return orderDetail(deps, operator, storeCode, number);
}
