import type { DeadlineStatus, OrderStatus, QueueName } from '@fulfil/core';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type OrderPage, query, seg, type Warehouse } from '../api.js';
import { may, type StorePageProps, useCurrency } from '../context.js';
import { href, navigate } from '../router.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { EmptyState } from '../ui/empty-state.js';
import { Field } from '../ui/field.js';
import { FilterBar } from '../ui/filter-bar.js';
import { capped } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { usePagedList } from '../ui/paged.js';
import { DEADLINE, QUEUE, STATUS } from '../ui/words.js';
import { Bulk } from './bulk.js';
import { BulkDeadline } from './bulk-deadline.js';
import {
  chipLabel,
  FILTER_FIELDS,
  type FilterField,
  filterOf,
  type OrderFilter,
  sameFilter,
} from './order-filter.js';
import { OrderRows } from './order-rows.js';

const QUEUES = Object.keys(QUEUE) as QueueName[];
const STATUSES = Object.keys(STATUS) as OrderStatus[];
const DEADLINES = Object.keys(DEADLINE) as DeadlineStatus[];

/** The search form: the text search first, the narrowing filters beside it, each as wide as its content. */
function SearchForm({
  form,
  setForm,
  warehouses,
  onSearch,
}: {
  form: OrderFilter;
  setForm: (filter: OrderFilter) => void;
  warehouses: readonly Warehouse[];
  onSearch: (event: Event) => void;
}) {
  const text = (name: FilterField) => ({
    name,
    value: form[name] ?? '',
    onInput: (event: Event) =>
      setForm({ ...form, [name]: (event.currentTarget as HTMLInputElement).value }),
  });
  const choice = (name: FilterField) => ({
    name,
    value: form[name] ?? '',
    onChange: (event: Event) =>
      setForm({ ...form, [name]: (event.currentTarget as HTMLSelectElement).value }),
  });
  return (
    <form class="stack" onSubmit={onSearch} aria-label="Search orders">
      <div class="form-row">
        <Field label="Order number, customer name or e-mail" size="long">
          <input type="search" {...text('q')} />
        </Field>
        <Button type="submit" variant="primary">
          Search
        </Button>
      </div>
      <div class="form-row">
        <Field label="Status">
          <select {...choice('status')}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS[status].words}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Queue">
          <select {...choice('queue')}>
            <option value="">Any</option>
            {QUEUES.map((queue) => (
              <option key={queue} value={queue}>
                {QUEUE[queue]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Warehouse">
          <select {...choice('warehouse')}>
            <option value="">Any</option>
            {warehouses.map((warehouse) => (
              <option key={warehouse.code} value={warehouse.code}>
                {warehouse.code}: {warehouse.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Deadline">
          <select {...choice('deadline')}>
            <option value="">Any</option>
            {DEADLINES.map((status) => (
              <option key={status} value={status}>
                {DEADLINE[status].words}
              </option>
            ))}
          </select>
        </Field>
        <Field label="SKU">
          <input {...text('sku')} />
        </Field>
        <Field label="Created from" hint="YYYY-MM-DD">
          <input {...text('created_from')} />
        </Field>
        <Field label="Created before" hint="YYYY-MM-DD">
          <input {...text('created_to')} />
        </Field>
      </div>
    </form>
  );
}

/**
 * Every order of the store, newest first, by any filter (Polaris' index with filters): the
 * filters applied as removable chips, the count, a table that becomes cards on a phone, and a
 * bulk action over exactly what the filter selects.
 */
export function OrdersPage({
  store,
  params,
  role,
  pastDue = false,
}: StorePageProps & { pastDue?: boolean }) {
  // Past due: the overdue orders, the most urgent first (docs/deadlines.md).
  const filter = pastDue ? { ...filterOf(params), deadline: 'overdue' } : filterOf(params);
  const sort = pastDue ? { sort: 'fulfill_by' } : {};
  const filterKey = JSON.stringify(filter);
  const [form, setForm] = useState(filter);
  /** The filter this page navigated to last: its arrival must not undo what was typed since. */
  const applied = useRef(filter);
  // Back and forward (or a link) change the filter under the page: the form follows.
  useEffect(() => {
    if (!sameFilter(filter, applied.current)) setForm(filter);
    applied.current = filter;
  }, [filterKey]);
  const [round, setRound] = useState(0);
  const currency = useCurrency(store);
  const warehouses = useLoad(
    () => api<{ warehouses: Warehouse[] }>('GET', `stores/${seg(store)}/warehouses`),
    store,
  );
  const list = usePagedList(
    (after) =>
      api<OrderPage>(
        'GET',
        `stores/${seg(store)}/orders${query({ ...filter, ...sort, after, limit: 50 })}`,
      ),
    `${store} ${filterKey} ${round}`,
  );
  const { pages } = list;
  const last = pages[pages.length - 1];
  const apply = (next: OrderFilter) => {
    const chosen = Object.fromEntries(
      Object.entries(next).filter(([, value]) => value?.trim()),
    ) as Record<string, string>;
    setForm(chosen);
    applied.current = chosen;
    navigate(href([store, pastDue ? 'past-due' : 'orders'], chosen));
  };
  const orders = pages.flatMap((page) => page.orders);
  // The orders ticked for a new deadline: those of this filter only.
  const [ticked, setTicked] = useState<{ key: string; numbers: ReadonlySet<string> }>({
    key: filterKey,
    numbers: new Set(),
  });
  const selected = ticked.key === filterKey ? ticked.numbers : new Set<string>();
  const toggle = (number: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(number);
    else next.delete(number);
    setTicked({ key: filterKey, numbers: next });
  };
  const operator = may(role, 'operator');
  const chips = FILTER_FIELDS.filter((name) => filter[name]).map((name) => ({
    label: chipLabel(name, filter[name] as string),
    onRemove: () => apply({ ...filter, [name]: '' }),
  }));
  return (
    <Page
      title={pastDue ? 'Past due' : 'Orders'}
      subtitle={
        <p>
          Store {store}
          {pastDue && ': orders past their deadline and not shipped, the most urgent first'}
        </p>
      }
    >
      <Card label="Search and filters">
        <SearchForm
          form={form}
          setForm={setForm}
          warehouses={warehouses.data?.warehouses ?? []}
          onSearch={(event) => {
            event.preventDefault();
            apply(form);
          }}
        />
        <FilterBar chips={chips} onClearAll={() => apply({})} />
      </Card>
      <ErrorBanner error={list.error} />
      <Card flush label="Orders found">
        {pages[0] && (
          <p role="status" class="list-count">
            {capped(pages[0].total)} {pages[0].total.count === 1 ? 'order' : 'orders'}
            {orders.length < pages[0].total.count ? `, ${orders.length} shown` : ''}
          </p>
        )}
        {pages[0] && (
          <OrderRows
            store={store}
            orders={orders}
            currency={currency}
            {...(operator ? { selection: { selected, toggle } } : {})}
            empty={
              <EmptyState title="No order matches">
                {chips.length
                  ? 'Remove a filter to see more orders.'
                  : 'Orders appear here when a sales channel or a seed file sends them.'}
              </EmptyState>
            }
          />
        )}
        {last?.next && (
          <div class="list-more">
            <Button onClick={list.more} busy={list.busy}>
              Show more
            </Button>
          </div>
        )}
      </Card>
      {operator && (
        <BulkDeadline
          store={store}
          selected={[...selected]}
          onDone={() => {
            setTicked({ key: filterKey, numbers: new Set() });
            setRound((n) => n + 1);
          }}
        />
      )}
      {operator && (
        // A new filter starts a new dry run: a count confirmed must be the count of this filter.
        <Bulk
          key={filterKey}
          store={store}
          filter={filter}
          actions={['cancel', 'requeue', 'abandon']}
          stale={!sameFilter(form, filter)}
          onDone={() => setRound((n) => n + 1)}
        />
      )}
    </Page>
  );
}
