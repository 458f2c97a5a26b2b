import {
  api,
  type Label,
  type OrderDetail,
  type OrderPage as OrderList,
  type OrderSummary,
  orderPath,
  query,
  seg,
  type Warehouse,
} from '../../api.js';
import { may, useCurrency } from '../../context.js';
import { Badge } from '../../ui/badge.js';
import { Banner, ErrorBanner } from '../../ui/banner.js';
import { age, dateTime } from '../../ui/format.js';
import { useLoad } from '../../ui/load.js';
import { Page } from '../../ui/page.js';
import { failureWords, STATUS } from '../../ui/words.js';
import { DeadlineBadge } from '../deadline-badge.js';
import { ChangesCard } from './changes.js';
import { DeadlineCard } from './deadline.js';
import { activeHolds, HoldsCard } from './holds.js';
import { useInterventions } from './interventions.js';
import { ItemsCard } from './items.js';
import { nextStep } from './next-step.js';
import { ReturnsCard } from './returns-card.js';
import { InvoicesCard, ShipmentCards } from './shipments.js';
import { AddressCards, AmountsCard, CustomerCard, SalesOrderCard } from './side.js';
import { TimelineCard } from './timeline.js';

interface Loaded {
  detail: OrderDetail;
  labels: Label[];
  warehouses: Warehouse[];
}

/**
 * One fulfillment order, as an operator wants it (docs/console.md): its status and what happens
 * next in the header with the actions that apply; its items by stage, shipments, invoices and
 * timeline in the main column; the customer, addresses, amounts and the other orders of its
 * sales order at the side.
 */
export function OrderPage({
  store,
  number,
  role,
}: {
  store: string;
  number: string;
  role: string;
}) {
  const path = orderPath(store, number);
  const loaded = useLoad<Loaded>(async () => {
    const [detail, labels, warehouses] = await Promise.all([
      api<OrderDetail>('GET', path),
      api<{ labels: Label[] }>('GET', `${path}/labels`),
      api<{ warehouses: Warehouse[] }>('GET', `stores/${seg(store)}/warehouses`),
    ]);
    return { detail, labels: labels.labels, warehouses: warehouses.warehouses };
  }, path);
  const salesOrder = loaded.data?.detail.order.sales_order_number;
  // Read again whenever the order changed (a Move makes a sibling): keyed by its last change.
  const changed = loaded.data
    ? `${loaded.data.detail.order.updated_at}/${loaded.data.detail.timeline.length}`
    : '';
  const siblings = useLoad(
    async () =>
      salesOrder
        ? (
            await api<OrderList>(
              'GET',
              `stores/${seg(store)}/orders${query({ q: salesOrder, limit: 50 })}`,
            )
          ).orders.filter((order) => order.sales_order_number === salesOrder)
        : undefined,
    `${store}/${salesOrder ?? ''}/${changed}`,
  );
  if (!loaded.data) {
    return (
      <Page title={`Order ${number}`}>
        {loaded.error ? <ErrorBanner error={loaded.error} /> : <p aria-live="polite">Loading…</p>}
      </Page>
    );
  }
  return (
    <OrderView
      store={store}
      number={number}
      role={role}
      data={loaded.data}
      siblings={siblings.data}
      reload={loaded.reload}
    />
  );
}

function OrderView({
  store,
  number,
  role,
  data,
  siblings,
  reload,
}: {
  store: string;
  number: string;
  role: string;
  data: Loaded;
  siblings: OrderSummary[] | undefined;
  reload: () => void;
}) {
  const currency = useCurrency(store);
  const operator = may(role, 'operator');
  const actions = useInterventions({
    store,
    detail: data.detail,
    liveLabels: data.labels.filter((label) => label.status === 'live').length,
    onDone: reload,
  });
  const { detail, labels, warehouses } = data;
  const { order, failure, courier } = detail;
  const status = STATUS[order.status];
  const warehouse = warehouses.find((known) => known.code === order.warehouse_code);
  const openLines = order.items.map((item) => item.status);
  return (
    <Page
      title={`Order ${number}`}
      badge={
        <>
          <Badge tone={status.tone} title={order.status}>
            {status.words}
          </Badge>
          {activeHolds(detail).length > 0 && <Badge tone="warning">On hold</Badge>}
        </>
      }
      subtitle={
        <>
          <p class="deadline">
            Deadline:{' '}
            <DeadlineBadge status={detail.deadline.status} fulfillBy={detail.deadline.fulfill_by} />
          </p>
          <p>
            Sales order {order.sales_order_number} · {order.warehouse_code}
            {warehouse ? ` (${warehouse.name})` : ''} ·{' '}
            <time dateTime={order.created_at} title={dateTime(order.created_at)}>
              created {age(order.created_at)} ago
            </time>
          </p>
          <p class="next-step">{nextStep(detail, warehouse?.fulfilled_by)}</p>
        </>
      }
      primary={operator && actions.primary}
      secondary={operator && actions.secondary}
      side={
        <>
          <HoldsCard store={store} detail={detail} operator={operator} onDone={reload} />
          <DeadlineCard
            key={detail.deadline.fulfill_by}
            store={store}
            detail={detail}
            operator={operator}
            onDone={reload}
          />
          <CustomerCard detail={detail} />
          <AmountsCard detail={detail} currency={currency} />
          <SalesOrderCard store={store} detail={detail} siblings={siblings} />
          <AddressCards detail={detail} />
        </>
      }
      sideLabel="Customer, amounts and related orders"
    >
      <ErrorBanner error={actions.error} />
      {failure && (
        <Banner
          tone="critical"
          title={`${failureWords(failure.stage, openLines, order.warehouse_code)}${failure.abandoned ? ', and abandoned' : ''}`}
        >
          <p>{failure.reason}</p>
        </Banner>
      )}
      {courier.last_error && (
        <Banner
          tone="warning"
          title={`The courier refused ${courier.attempts === 1 ? 'its attempt' : `${courier.attempts} attempts`}`}
        >
          <p>{courier.last_error}</p>
          {courier.next_attempt_at && <p>Next attempt {dateTime(courier.next_attempt_at)}.</p>}
        </Banner>
      )}
      <ItemsCard store={store} detail={detail} currency={currency} />
      <ShipmentCards
        store={store}
        detail={detail}
        labels={labels}
        editable={operator && detail.actions.includes('correct_tracks')}
        onChanged={reload}
      />
      <InvoicesCard detail={detail} currency={currency} />
      <ReturnsCard store={store} salesOrder={order.sales_order_number} number={number} />
      <TimelineCard
        timeline={detail.timeline}
        context={{
          store,
          currency,
          warehouse: order.warehouse_code,
          items: order.items,
          holds: detail.holds,
          labels,
          shipments: detail.shipments,
        }}
      />
      {operator && (
        <ChangesCard store={store} detail={detail} warehouses={warehouses} onDone={reload} />
      )}
    </Page>
  );
}
