import type { QueueName } from '@fulfil/core';
import { api, type Dashboard, type StoreDashboard, seg, type Warehouse } from '../api.js';
import { href } from '../router.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Card } from '../ui/card.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { Facts } from '../ui/facts.js';
import { age, dateTime, plural } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { QUEUE } from '../ui/words.js';

type Queue = StoreDashboard['queues'][number];

/** One thing that needs a person, as a link to exactly the orders it counts. */
interface Need {
  key: string;
  words: string;
  detail?: string;
  to: string;
}

/**
 * What needs a person in a store now: its open failures, the orders that waited in a queue
 * longer than the store allows, the cancellation requests left unanswered past the store's time,
 * the orders on hold, the failures of its courier warehouses. Each links to the list of exactly
 * those.
 */
function needsOf(store: StoreDashboard, warehouses: readonly Warehouse[]): Need[] {
  const code = store.store_code;
  const needs: Need[] = [];
  if (store.failed.open > 0) {
    needs.push({
      key: 'failed',
      words: `${plural(store.failed.open, 'failed order')} to requeue, cancel or abandon`,
      to: href([code, 'failed']),
    });
  }
  for (const queue of store.queues) {
    const waiting = queue.attention;
    if (!waiting || waiting.orders === 0) continue;
    needs.push({
      key: queue.queue,
      words: `${waiting.orders.toLocaleString()}${waiting.capped ? '+' : ''} ${waiting.orders === 1 ? 'order' : 'orders'} ${QUEUE[queue.queue].toLowerCase()} for over ${waiting.after_hours} h`,
      detail: `created before ${dateTime(waiting.since)}`,
      to: href([code, 'orders'], { queue: queue.queue, created_to: waiting.since }),
    });
  }
  const requests = store.cancellation_requests.attention;
  if (requests && requests.requests > 0) {
    needs.push({
      key: 'cancellation-requests',
      words: `${plural(requests.requests, 'cancellation request')} unanswered for over ${requests.after_hours} h`,
      detail: `asked before ${dateTime(requests.since)}`,
      to: href([code, 'holds'], { overdue: 'true' }),
    });
  }
  if (store.holds.orders > 0) {
    needs.push({
      key: 'holds',
      words: `${plural(store.holds.orders, 'order')} on hold (oldest ${age(store.holds.oldest_at)})`,
      detail: 'each waits for its hold to be released',
      to: href([code, 'holds']),
    });
  }
  for (const { warehouse_code, counts } of store.deadlines) {
    if (counts.overdue === 0) continue;
    needs.push({
      key: `overdue/${warehouse_code}`,
      words: `${plural(counts.overdue, 'order')} overdue at ${warehouse_code}`,
      detail: 'past their deadline and not shipped',
      to: href([code, 'past-due'], { warehouse: warehouse_code }),
    });
  }
  const failed = store.queues.find((queue) => queue.queue === 'failed')?.by_warehouse ?? [];
  for (const warehouse of warehouses.filter((known) => known.fulfilled_by === 'courier')) {
    const orders = failed.find((row) => row.warehouse_code === warehouse.code)?.orders ?? 0;
    if (orders === 0) continue;
    needs.push({
      key: `courier/${warehouse.code}`,
      words: `${plural(orders, 'courier failure')} at ${warehouse.code}`,
      detail: 'the courier could not ship them',
      to: href([code, 'failed'], { warehouse: warehouse.code }),
    });
  }
  return needs;
}

function NeedsAttention({ store, warehouses }: { store: StoreDashboard; warehouses: Warehouse[] }) {
  const needs = needsOf(store, warehouses);
  return (
    <Card
      title="Needs attention"
      label={`Needs attention in store ${store.store_code}`}
      badge={needs.length > 0 && <Badge tone="critical">{needs.length}</Badge>}
    >
      {needs.length === 0 ? (
        <EmptyState title="Nothing needs a person right now">
          Failed orders, orders waiting longer than the store allows, cancellation requests left
          unanswered, orders on hold and courier failures appear here.
        </EmptyState>
      ) : (
        <ul class="needs">
          {needs.map((need) => (
            <li key={need.key}>
              <a class="need-link" href={need.to}>
                {need.words}
              </a>
              {need.detail && <small> {need.detail}</small>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

interface QueueRow {
  key: string;
  queue: QueueName;
  warehouse: string | null;
  orders: number;
  oldest: string | null;
  waiting: Queue['attention'];
}

function QueuesCard({ store }: { store: StoreDashboard }) {
  const rows: QueueRow[] = store.queues.flatMap((queue) => [
    {
      key: queue.queue,
      queue: queue.queue,
      warehouse: null,
      orders: queue.orders,
      oldest: queue.oldest_at,
      waiting: queue.attention,
    },
    ...queue.by_warehouse.map((row) => ({
      key: `${queue.queue}/${row.warehouse_code}`,
      queue: queue.queue,
      warehouse: row.warehouse_code,
      orders: row.orders,
      oldest: row.oldest_at,
      waiting: null,
    })),
  ]);
  const code = store.store_code;
  return (
    <Card title="Queues" flush>
      <DataTable<QueueRow>
        label={`Queues of store ${code}`}
        rows={rows}
        rowKey={(row) => row.key}
        columns={[
          {
            title: 'Queue',
            primary: true,
            cell: (row) =>
              row.warehouse ? (
                <span class="queue-warehouse">
                  <a href={href([code, 'orders'], { queue: row.queue, warehouse: row.warehouse })}>
                    {row.warehouse}
                  </a>
                </span>
              ) : (
                <a href={href([code, 'orders'], { queue: row.queue })}>{QUEUE[row.queue]}</a>
              ),
          },
          { title: 'Orders', numeric: true, cell: (row) => row.orders.toLocaleString() },
          { title: 'Oldest', cell: (row) => (row.oldest ? `${age(row.oldest)} old` : '—') },
          {
            title: 'Waiting too long',
            numeric: true,
            cell: (row) =>
              row.waiting
                ? `${row.waiting.orders ? row.waiting.orders.toLocaleString() : 'None'} over ${row.waiting.after_hours} h`
                : '',
          },
        ]}
      />
    </Card>
  );
}

function StoreSection({ store, warehouses }: { store: StoreDashboard; warehouses: Warehouse[] }) {
  return (
    <section class="stack" aria-labelledby={`store-${store.store_code}`}>
      <h2 id={`store-${store.store_code}`}>Store {store.store_code}</h2>
      <div class="dashboard">
        <div class="stack">
          <NeedsAttention store={store} warehouses={warehouses} />
          <QueuesCard store={store} />
        </div>
        <Card title="Health">
          <Facts
            rows={[
              ['Failed, open', store.failed.open.toLocaleString()],
              ['Failed, abandoned', store.failed.abandoned.toLocaleString()],
              ['Shipped by courier', store.courier.shipped.toLocaleString()],
              ['Courier retrying', store.courier.retrying.toLocaleString()],
              ['Courier failed', store.courier.failed.toLocaleString()],
            ]}
          />
        </Card>
      </div>
    </section>
  );
}

export function DashboardPage() {
  const loaded = useLoad(async () => {
    const dashboard = await api<Dashboard>('GET', 'dashboard');
    const warehouses = await Promise.all(
      dashboard.stores.map((store) =>
        api<{ warehouses: Warehouse[] }>('GET', `stores/${seg(store.store_code)}/warehouses`),
      ),
    );
    return dashboard.stores.map((store, index) => ({
      store,
      warehouses: warehouses[index]?.warehouses ?? [],
    }));
  }, 'dashboard');
  return (
    <Page title="Dashboard" subtitle={<p>What needs a person now, and how full each queue is.</p>}>
      <ErrorBanner error={loaded.error} />
      {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
      {loaded.data?.map(({ store, warehouses }) => (
        <StoreSection key={store.store_code} store={store} warehouses={warehouses} />
      ))}
    </Page>
  );
}
