import type { Address, OrderDetail, OrderSummary } from '../../api.js';
import { Badge } from '../../ui/badge.js';
import { Card } from '../../ui/card.js';
import { Facts } from '../../ui/facts.js';
import { age, money, plural } from '../../ui/format.js';
import { CANCELLATION_REASON, HOLD_REASON, STATUS } from '../../ui/words.js';
import { OrderLink } from '../order-link.js';

function AddressLines({ address }: { address: Address }) {
  const street = Array.isArray(address.street) ? address.street : [address.street ?? ''];
  return (
    <address>
      {[address.firstname, address.lastname].filter(Boolean).join(' ')}
      {address.company && <div>{address.company}</div>}
      {street.filter(Boolean).map((line, index) => (
        <div key={index}>{line}</div>
      ))}
      <div>
        {[address.postcode, address.city, address.region, address.country_id]
          .filter(Boolean)
          .join(' ')}
      </div>
      {address.telephone && <div>{address.telephone}</div>}
    </address>
  );
}

export function CustomerCard({ detail }: { detail: OrderDetail }) {
  const { order } = detail;
  return (
    <Card title="Customer">
      <p>
        <span class="customer">
          {order.customer_firstname} {order.customer_lastname}
        </span>
        <br />
        <a href={`mailto:${order.customer_email}`}>{order.customer_email}</a>
      </p>
      {order.shipping.customer_note && (
        <p>
          Note: <span class="note">{order.shipping.customer_note}</span>
        </p>
      )}
      <Facts
        rows={[
          ['Shipping', order.shipping.method_name ?? '—'],
          ['Payment', order.payment.method_name ?? '—'],
        ]}
      />
    </Card>
  );
}

export function AddressCards({ detail }: { detail: OrderDetail }) {
  return (
    <>
      <Card title="Shipping address">
        <AddressLines address={detail.order.shipping_address} />
      </Card>
      <Card title="Billing address">
        <AddressLines address={detail.order.billing_address} />
      </Card>
    </>
  );
}

/** Items, shipping, tax, total and cash on delivery as the API gives them, in the store's currency. */
export function AmountsCard({
  detail,
  currency,
}: {
  detail: OrderDetail;
  currency: string | null;
}) {
  const { order } = detail;
  const items =
    order.grand_total === undefined || order.shipping_amount === undefined
      ? null
      : Math.round((order.grand_total - order.shipping_amount) * 100) / 100;
  return (
    <Card title="Amounts">
      <Facts
        class="amounts"
        rows={[
          ['Items', money(items, currency)],
          ['Shipping', money(order.shipping_amount, currency)],
          ['Tax', money(order.tax_amount, currency)],
          ['Total', <strong key="total">{money(order.grand_total, currency)}</strong>],
          (order.cod_amount ?? 0) > 0 && ['Cash on delivery', money(order.cod_amount, currency)],
        ]}
      />
      <p class="subtle">Taxes included.</p>
    </Card>
  );
}

/**
 * The fulfillment orders of the same sales order (split at intake, rerouted, moved), each a
 * link; holds and cancellation requests of the sales order take their cards beside this one.
 */
export function SalesOrderCard({
  store,
  detail,
  siblings,
}: {
  store: string;
  detail: OrderDetail;
  siblings: readonly OrderSummary[] | undefined;
}) {
  const own = detail.order.fulfillment_order_number;
  const others = (siblings ?? []).filter((order) => order.fulfillment_order_number !== own);
  return (
    <Card title={`Sales order ${detail.order.sales_order_number}`}>
      {siblings === undefined ? (
        <p class="subtle">Loading…</p>
      ) : others.length === 0 ? (
        <p class="subtle">This is its only fulfillment order.</p>
      ) : (
        <ul class="plain-list related">
          {others.map((order) => (
            <li key={order.fulfillment_order_number} class="related__item">
              <OrderLink store={store} number={order.fulfillment_order_number} />{' '}
              <span class="subtle">{order.warehouse_code}</span>{' '}
              <Badge tone={STATUS[order.status].tone}>{STATUS[order.status].words}</Badge>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * Who holds the order and why, and what its partner was asked to cancel: the active holds with
 * their reason and who placed them, the open request with its age, the answers given.
 */
export function HoldsCard({ detail }: { detail: OrderDetail }) {
  const active = detail.holds.filter((hold) => hold.released_at === null);
  const requests = detail.cancellation_requests;
  if (active.length === 0 && requests.length === 0) return null;
  return (
    <Card title="Holds and cancellation requests">
      <ul class="plain-list">
        {active.map((hold) => (
          <li key={hold.handle}>
            <Badge tone="warning">On hold</Badge> {HOLD_REASON[hold.reason]} — placed by{' '}
            {hold.placed_by}, {age(hold.placed_at)} ago
            {hold.note && <div class="note">{hold.note}</div>}
          </li>
        ))}
        {requests.map((request) => (
          <li key={request.id}>
            Cancellation of {plural(request.item_ids.length, 'line')} (
            {CANCELLATION_REASON[request.reason].toLowerCase()}) asked by {request.requested_by}{' '}
            {request.status === 'open' ? (
              <>
                <Badge tone="warning">open</Badge> for {age(request.requested_at)}
              </>
            ) : (
              <>
                {request.status}
                {request.message && `: ${request.message}`}
              </>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
