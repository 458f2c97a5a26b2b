import type { OrderStatus } from '@fulfil/core';
import { useEffect, useState } from 'preact/hooks';
import { api, type OrderPage, type OrderSummary, query, seg } from '../api.js';
import { href, navigate } from '../router.js';
import { count, ErrorText, Field, may, PageTitle, Table, useAction } from '../ui.js';
import { Bulk } from './bulk.js';

/** The search fields docs/admin-api.md names, as the form offers them. */
const FIELDS = [
  ['q', 'Order number, customer name or e-mail', 'text'],
  ['status', 'Status', 'status'],
  ['queue', 'Queue', 'queue'],
  ['warehouse', 'Warehouse', 'text'],
  ['sku', 'SKU', 'text'],
  ['created_from', 'Created from', 'date'],
  ['created_to', 'Created before', 'date'],
] as const;

const QUEUES = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
] as const;
// The browser bundle cannot take @fulfil/core's ORDER_STATUSES (a value: it would bring valibot
// along); the type keeps this list to statuses the engine has.
const STATUSES: readonly OrderStatus[] = [
  ...QUEUES,
  'invoiced',
  'partially_accepted',
  'partially_allocated',
  'partially_shipped',
  'partially_invoiced',
  'rejected',
  'canceled',
  'failed',
];
const CHOICES: Record<string, readonly string[]> = { queue: QUEUES, status: STATUSES };

export function filterOf(params: URLSearchParams): Record<string, string> {
  const filter: Record<string, string> = {};
  for (const [name] of FIELDS) {
    const value = params.get(name);
    if (value) filter[name] = value;
  }
  return filter;
}

export function OrderLink({ store, order }: { store: string; order: OrderSummary }) {
  return (
    <a href={href([store, 'orders', order.fulfillment_order_number])}>
      {order.fulfillment_order_number}
    </a>
  );
}

export function OrderRows({ store, orders }: { store: string; orders: OrderSummary[] }) {
  return (
    <Table
      label="Orders"
      head={['Order', 'Sales order', 'Customer', 'Status', 'Warehouse', 'Total', 'Created']}
      numeric={['Total']}
    >
      {orders.map((order) => (
        <tr key={order.fulfillment_order_number}>
          <td>
            <OrderLink store={store} order={order} />
          </td>
          <td>{order.sales_order_number}</td>
          <td>
            <span class="customer">{order.customer_name}</span>
            <br />
            <small>{order.customer_email}</small>
          </td>
          <td>
            {order.status}
            {order.failure && (
              <>
                <br />
                <small>
                  {order.failure.stage}: {order.failure.reason}
                </small>
              </>
            )}
          </td>
          <td>{order.warehouse_code}</td>
          <td class="num">{order.grand_total ?? '—'}</td>
          <td>{order.created_at}</td>
        </tr>
      ))}
    </Table>
  );
}

export function OrdersPage({
  store,
  params,
  role,
}: {
  store: string;
  params: URLSearchParams;
  role: string;
}) {
  const filter = filterOf(params);
  const filterKey = JSON.stringify(filter);
  const [form, setForm] = useState(filter);
  const [pages, setPages] = useState<OrderPage[]>([]);
  const [round, setRound] = useState(0);
  const load = useAction();
  const path = (after?: string) =>
    `stores/${seg(store)}/orders${query({ ...filter, after, limit: 50 })}`;
  useEffect(() => {
    setPages([]);
    load.run(() => api<OrderPage>('GET', path())).then((page) => page && setPages([page]));
  }, [store, filterKey, round]);
  const last = pages[pages.length - 1];
  const more = async () => {
    if (!last?.next) return;
    const page = await load.run(() => api<OrderPage>('GET', path(last.next as string)));
    if (page) setPages((shown) => [...shown, page]);
  };
  const search = (event: Event) => {
    event.preventDefault();
    const chosen = Object.fromEntries(Object.entries(form).filter(([, value]) => value));
    navigate(href([store, 'orders'], chosen));
  };
  const orders = pages.flatMap((page) => page.orders);
  return (
    <>
      <PageTitle>Orders of {store}</PageTitle>
      <form class="filters" onSubmit={search} aria-label="Search orders">
        {FIELDS.map(([name, label, kind]) => (
          <Field key={name} label={label}>
            {CHOICES[kind] ? (
              <select
                name={name}
                value={form[name] ?? ''}
                onChange={(event) => setForm({ ...form, [name]: event.currentTarget.value })}
              >
                <option value="">any</option>
                {CHOICES[kind].map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
              </select>
            ) : (
              <input
                name={name}
                placeholder={kind === 'date' ? 'YYYY-MM-DD' : undefined}
                value={form[name] ?? ''}
                onInput={(event) => setForm({ ...form, [name]: event.currentTarget.value })}
              />
            )}
          </Field>
        ))}
        <button type="submit">Search</button>
      </form>
      <ErrorText error={load.error} />
      {pages[0] && (
        <p role="status">
          {count(pages[0].total)} {pages[0].total.count === 1 ? 'order' : 'orders'} match; showing{' '}
          {orders.length}.
        </p>
      )}
      <OrderRows store={store} orders={orders} />
      {last?.next && (
        <button type="button" onClick={more} disabled={load.busy}>
          More
        </button>
      )}
      {may(role, 'operator') && (
        // A new filter starts a new dry run: a count confirmed must be the count of this filter.
        <Bulk
          key={filterKey}
          store={store}
          filter={filter}
          actions={['cancel', 'requeue', 'abandon']}
          onDone={() => setRound((n) => n + 1)}
        />
      )}
    </>
  );
}
