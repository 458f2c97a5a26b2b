import type { ComponentChildren } from 'preact';
import type { OrderSummary } from '../api.js';
import { Badge } from '../ui/badge.js';
import { DataTable } from '../ui/data-table.js';
import { age, dateTime, money } from '../ui/format.js';
import { STATUS } from '../ui/words.js';
import { DeadlineBadge } from './deadline-badge.js';
import { OrderLink } from './order-link.js';

/** The columns an operator scans in a list of orders; on a phone each row is a card. */
export function OrderRows({
  store,
  orders,
  currency,
  empty,
  selection,
}: {
  store: string;
  orders: readonly OrderSummary[];
  currency: string | null;
  empty: ComponentChildren;
  /** Rows an operator can tick, for an action on those orders. */
  selection?: { selected: ReadonlySet<string>; toggle: (number: string, on: boolean) => void };
}) {
  return (
    <DataTable<OrderSummary>
      label="Orders"
      rows={orders}
      rowKey={(order) => order.fulfillment_order_number}
      empty={empty}
      columns={[
        selection !== undefined && {
          title: 'Select',
          cell: (order) => (
            <input
              type="checkbox"
              aria-label={`Select ${order.fulfillment_order_number}`}
              checked={selection.selected.has(order.fulfillment_order_number)}
              onChange={(event) =>
                selection.toggle(order.fulfillment_order_number, event.currentTarget.checked)
              }
            />
          ),
        },
        {
          title: 'Order',
          primary: true,
          cell: (order) => <OrderLink store={store} number={order.fulfillment_order_number} />,
        },
        {
          title: 'Customer',
          cell: (order) => (
            <>
              <span class="customer">{order.customer_name}</span>
              <br />
              <small>{order.customer_email}</small>
            </>
          ),
        },
        {
          title: 'Status',
          cell: (order) => (
            <Badge tone={STATUS[order.status].tone} title={order.status}>
              {order.failure?.abandoned ? 'Abandoned' : STATUS[order.status].words}
            </Badge>
          ),
        },
        {
          title: 'Deadline',
          cell: (order) => (
            <DeadlineBadge status={order.deadline_status} fulfillBy={order.fulfill_by} />
          ),
        },
        { title: 'Warehouse', cell: (order) => order.warehouse_code },
        { title: 'Total', numeric: true, cell: (order) => money(order.grand_total, currency) },
        {
          title: 'Age',
          cell: (order) => (
            <time dateTime={order.created_at} title={dateTime(order.created_at)}>
              {age(order.created_at)}
            </time>
          ),
        },
      ]}
    />
  );
}
