import type { OrderDetail, OrderItem } from '../../api.js';
import { Badge } from '../../ui/badge.js';
import { Card } from '../../ui/card.js';
import { DataTable } from '../../ui/data-table.js';
import { money, plural } from '../../ui/format.js';
import { ITEM_STAGE, ITEM_STAGE_ORDER } from '../../ui/words.js';
import { OrderLink } from '../order-link.js';

/** Where a line that left the order went: the order it was moved or rerouted to. */
function destinations(detail: OrderDetail): Map<number, { to: string | null; number: string }> {
  const where = new Map<number, { to: string | null; number: string }>();
  for (const { details } of detail.timeline) {
    if (typeof details.moved_to === 'string' && Array.isArray(details.items)) {
      const to = typeof details.to === 'string' ? details.to : null;
      for (const id of details.items) {
        if (typeof id === 'number') where.set(id, { to, number: details.moved_to });
      }
    }
    const rerouted = Array.isArray(details.rerouted_to) ? details.rerouted_to : [];
    const [only] = rerouted;
    if (rerouted.length === 1 && typeof only === 'string' && Array.isArray(details.rejected)) {
      for (const line of details.rejected as { item_id?: unknown }[]) {
        if (typeof line.item_id === 'number') where.set(line.item_id, { to: null, number: only });
      }
    }
  }
  return where;
}

/**
 * The order's lines grouped by stage, in the order they move through (Medusa's unfulfilled and
 * fulfilled items): how many, of what, where, for how much; a line that left says where it went.
 */
export function ItemsCard({
  store,
  detail,
  currency,
}: {
  store: string;
  detail: OrderDetail;
  currency: string | null;
}) {
  const where = destinations(detail);
  const groups = ITEM_STAGE_ORDER.map((status) => ({
    status,
    items: detail.order.items.filter((item) => item.status === status),
  })).filter((group) => group.items.length > 0);
  return (
    <Card title="Items" flush>
      {groups.map(({ status, items }) => (
        <DataTable<OrderItem>
          key={status}
          label={`Items: ${ITEM_STAGE[status].words}`}
          caption={
            <span class="inline">
              <Badge tone={ITEM_STAGE[status].tone} title={status}>
                {ITEM_STAGE[status].words}
              </Badge>
              <span class="subtle">
                {plural(items.length, 'line')},{' '}
                {plural(
                  items.reduce((sum, item) => sum + item.qty, 0),
                  'unit',
                )}
              </span>
            </span>
          }
          rows={items}
          rowKey={(item) => item.id}
          fixed
          columns={[
            {
              title: 'Item',
              primary: true,
              cell: (item) => {
                const gone = where.get(item.id);
                return (
                  <>
                    {item.name}
                    <br />
                    <small>SKU {item.sku}</small>
                    {gone && (
                      <>
                        <br />
                        <small>
                          {gone.to ? `Moved to ${gone.to} as ` : 'Rerouted to '}
                          <OrderLink store={store} number={gone.number} />
                        </small>
                      </>
                    )}
                  </>
                );
              },
            },
            { title: 'Quantity', numeric: true, cell: (item) => item.qty },
            {
              title: 'Warehouse',
              cell: (item) => item.warehouse_code ?? detail.order.warehouse_code,
            },
            { title: 'Price', numeric: true, cell: (item) => money(item.price, currency) },
            { title: 'Total', numeric: true, cell: (item) => money(item.total_price, currency) },
          ]}
        />
      ))}
    </Card>
  );
}
