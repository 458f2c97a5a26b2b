import { api, type CancellationRequestList, type HoldList, query, seg } from '../api.js';
import { href } from '../router.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Card } from '../ui/card.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { age, capped, dateTime } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { CANCELLATION_REASON, HOLD_REASON } from '../ui/words.js';
import { OrderLink } from './order-link.js';

/**
 * What waits outside the queues of a store (docs/console.md): the cancellation requests its
 * partners have not answered, those past the store's time marked, and the orders on hold. Both
 * oldest first: the oldest is the one to chase.
 */

/** Rows a card shows; past them it says how many more there are. */
const SHOWN = 200;

type Request = CancellationRequestList['requests'][number];
type Hold = HoldList['holds'][number];

function More({ total, shown }: { total: HoldList['total']; shown: number }) {
  if (total.count <= shown) return null;
  return (
    <p class="subtle">
      The oldest {shown.toLocaleString()} of {capped(total)} are shown.
    </p>
  );
}

function RequestsCard({ store, overdue }: { store: string; overdue: boolean }) {
  const loaded = useLoad(
    () =>
      api<CancellationRequestList>(
        'GET',
        `stores/${seg(store)}/cancellation-requests${query({
          limit: SHOWN,
          overdue: overdue ? 'true' : undefined,
        })}`,
      ),
    `${store}/requests/${overdue}`,
  );
  const list = loaded.data;
  const hours = list?.attention?.after_hours;
  return (
    <Card
      flush
      title="Cancellation requests awaiting the partner"
      badge={list && list.total.count > 0 && <Badge tone="warning">{capped(list.total)}</Badge>}
      actions={
        overdue ? (
          <a href={href([store, 'holds'])}>Every open request</a>
        ) : (
          hours !== undefined && (
            <a href={href([store, 'holds'], { overdue: 'true' })}>Only those over {hours} h</a>
          )
        )
      }
    >
      <ErrorBanner error={loaded.error} />
      {!list && !loaded.error && <p aria-live="polite">Loading…</p>}
      {list && (
        <DataTable<Request>
          label="Cancellation requests"
          rows={list.requests}
          rowKey={(row) => `${row.fulfillment_order_number}/${row.id}`}
          empty={
            <EmptyState
              title={
                overdue
                  ? `No request has waited over ${hours ?? '—'} h`
                  : 'No cancellation request awaits an answer'
              }
            >
              A request appears when a sales channel or an operator cancels lines a partner has
              accepted, and leaves once the partner accepts or rejects it.
            </EmptyState>
          }
          columns={[
            {
              title: 'Order',
              primary: true,
              cell: (row) => <OrderLink store={store} number={row.fulfillment_order_number} />,
            },
            { title: 'Warehouse', cell: (row) => row.warehouse_code },
            {
              title: 'Lines',
              cell: (row) => row.lines.map((line) => `${line.qty} × ${line.sku}`).join(', '),
            },
            { title: 'Reason', cell: (row) => CANCELLATION_REASON[row.reason] },
            { title: 'Requested by', cell: (row) => row.requested_by },
            {
              title: 'Waiting',
              cell: (row) => (
                <span title={dateTime(row.requested_at)}>
                  {age(row.requested_at)}{' '}
                  {row.overdue && <Badge tone="warning">Over {hours} h</Badge>}
                </span>
              ),
            },
          ]}
        />
      )}
      {list && <More total={list.total} shown={list.requests.length} />}
    </Card>
  );
}

function HoldsCard({ store }: { store: string }) {
  const loaded = useLoad(
    () => api<HoldList>('GET', `stores/${seg(store)}/holds${query({ limit: SHOWN })}`),
    `${store}/holds`,
  );
  const list = loaded.data;
  return (
    <Card
      flush
      title="Open holds"
      badge={list && list.total.count > 0 && <Badge tone="attention">{capped(list.total)}</Badge>}
    >
      <ErrorBanner error={loaded.error} />
      {!list && !loaded.error && <p aria-live="polite">Loading…</p>}
      {list && (
        <DataTable<Hold>
          label="Holds"
          rows={list.holds}
          rowKey={(row) => `${row.fulfillment_order_number}/${row.handle}`}
          empty={
            <EmptyState title="No order is on hold">
              A hold appears when a sales channel or an operator holds a sales order: its orders
              leave their queues until the last hold is released.
            </EmptyState>
          }
          columns={[
            {
              title: 'Order',
              primary: true,
              cell: (row) => <OrderLink store={store} number={row.fulfillment_order_number} />,
            },
            { title: 'Reason', cell: (row) => HOLD_REASON[row.reason] },
            { title: 'Note', cell: (row) => row.note ?? '' },
            { title: 'Placed by', cell: (row) => row.placed_by },
            {
              title: 'Held for',
              cell: (row) => <span title={dateTime(row.placed_at)}>{age(row.placed_at)}</span>,
            },
          ]}
        />
      )}
      {list && <More total={list.total} shown={list.holds.length} />}
    </Card>
  );
}

export function HoldsPage({ store, params }: { store: string; params: URLSearchParams }) {
  return (
    <Page
      title="Holds and cancellation requests"
      subtitle={
        <p>
          What waits outside the queues of store {store}: cancellations a partner has not answered,
          and orders on hold.
        </p>
      }
    >
      <RequestsCard store={store} overdue={params.get('overdue') === 'true'} />
      <HoldsCard store={store} />
    </Page>
  );
}
