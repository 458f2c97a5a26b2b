import type { FailureStage } from '@fulfil/core';
import { useState } from 'preact/hooks';
import {
  api,
  type OrderDetail,
  type OrderPage,
  type OrderSummary,
  orderPath,
  query,
  seg,
} from '../api.js';
import { may, type StorePageProps } from '../context.js';
import { href, navigate } from '../router.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { FilterBar } from '../ui/filter-bar.js';
import { age, capped, dateTime } from '../ui/format.js';
import { useAction, useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { toast } from '../ui/toast.js';
import { Bulk } from './bulk.js';
import { chipLabel } from './order-filter.js';
import { OrderLink } from './order-link.js';

/** Where the order stood when it failed: true whatever its lines were doing. */
const STAGE: Record<FailureStage, string> = {
  allocation: 'Before allocation',
  shipment: 'Before shipment',
  invoice: 'Before the invoice',
};

/**
 * The failed queue: every failed order, why and since when, each to requeue (it goes back) or
 * abandon (asked first); the abandoned ones stay listed, and all of them can be acted on in bulk.
 * `warehouse` narrows it to one warehouse (the dashboard's courier failures).
 */
export function FailedPage({ store, params, role }: StorePageProps) {
  const warehouse = params.get('warehouse') ?? undefined;
  const filter = { status: 'failed', ...(warehouse ? { warehouse } : {}) };
  const loaded = useLoad(
    () => api<OrderPage>('GET', `stores/${seg(store)}/orders${query({ ...filter, limit: 200 })}`),
    `${store}/${warehouse ?? ''}`,
  );
  const [asked, setAsked] = useState<string>();
  const requeue = useAction();
  const operator = may(role, 'operator');
  const page = loaded.data;
  const act = (number: string, action: 'requeue' | 'abandon') =>
    api<OrderDetail>('POST', `${orderPath(store, number)}/${action}`, {});
  return (
    <Page
      title="Failed orders"
      subtitle={
        <p>Orders that could not be allocated, shipped or invoiced wait here for a person.</p>
      }
    >
      <FilterBar
        chips={
          warehouse
            ? [
                {
                  label: chipLabel('warehouse', warehouse),
                  onRemove: () => navigate(href([store, 'failed'])),
                },
              ]
            : []
        }
        onClearAll={() => navigate(href([store, 'failed']))}
      />
      <ErrorBanner error={loaded.error ?? requeue.error} />
      {!page && !loaded.error && <p aria-live="polite">Loading…</p>}
      {page && (
        <Card flush label="Failed orders found">
          <p role="status" class="list-count">
            {capped(page.total)} failed {page.total.count === 1 ? 'order' : 'orders'}
            {page.next ? `, the first ${page.orders.length} shown` : ''}
          </p>
          <DataTable<OrderSummary>
            label="Failed orders"
            rows={page.orders}
            rowKey={(order) => order.fulfillment_order_number}
            empty={
              <EmptyState title="No failed orders">
                Orders that could not be allocated, shipped or invoiced appear here.
              </EmptyState>
            }
            columns={[
              {
                title: 'Order',
                primary: true,
                cell: (order) => (
                  <OrderLink store={store} number={order.fulfillment_order_number} />
                ),
              },
              {
                title: 'Failed',
                cell: (order) => (order.failure ? STAGE[order.failure.stage] : '—'),
              },
              { title: 'Reason', cell: (order) => order.failure?.reason ?? '—' },
              { title: 'Customer', cell: (order) => order.customer_name },
              { title: 'Warehouse', cell: (order) => order.warehouse_code },
              {
                title: 'Since',
                cell: (order) => (
                  <time dateTime={order.updated_at} title={dateTime(order.updated_at)}>
                    {age(order.updated_at)}
                  </time>
                ),
              },
              {
                title: 'State',
                cell: (order) =>
                  order.failure?.abandoned ? (
                    <Badge tone="neutral">Abandoned</Badge>
                  ) : (
                    <Badge tone="critical">Needs a person</Badge>
                  ),
              },
              operator && {
                title: 'Actions',
                cell: (order) =>
                  order.failure?.abandoned ? null : (
                    <div class="button-group">
                      <Button
                        label={`Requeue ${order.fulfillment_order_number}`}
                        busy={requeue.busy}
                        onClick={async () => {
                          const number = order.fulfillment_order_number;
                          if (await requeue.run(() => act(number, 'requeue'))) {
                            toast(`Order ${number} requeued`);
                            loaded.reload();
                          }
                        }}
                      >
                        Requeue
                      </Button>
                      <Button
                        variant="destructive"
                        label={`Abandon ${order.fulfillment_order_number}`}
                        onClick={() => setAsked(order.fulfillment_order_number)}
                      >
                        Abandon
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        </Card>
      )}
      {asked && (
        <ConfirmDialog
          title={`Abandon order ${asked}?`}
          confirm="Abandon order"
          keep="Keep order"
          onClose={() => setAsked(undefined)}
          onConfirm={async () => {
            await act(asked, 'abandon');
            toast(`Order ${asked} abandoned`);
            loaded.reload();
          }}
        >
          <p>
            It stays failed for good, and the stock its lines hold is released. It can still be
            canceled from its page. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {operator && (
        <Bulk
          key={warehouse ?? ''}
          store={store}
          filter={filter}
          actions={['requeue', 'abandon', 'cancel']}
          onDone={loaded.reload}
        />
      )}
    </Page>
  );
}
