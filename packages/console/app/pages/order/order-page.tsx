import { useState } from 'preact/hooks';
import { type Address, api, type OrderDetail, seg } from '../api.js';
import { ErrorText, Field, Loading, may, PageTitle, Table, useAction, useLoad } from '../ui.js';
import { CorrectTracks } from './correct-tracks.js';

const ACTIONS = ['requeue', 'abandon', 'cancel', 'fail'] as const;

function AddressBlock({ title, address }: { title: string; address: Address }) {
  const street = Array.isArray(address.street) ? address.street : [address.street ?? ''];
  return (
    <div>
      <h3>{title}</h3>
      <address>
        {[address.firstname, address.lastname].filter(Boolean).join(' ')}
        {address.company && <div>{address.company}</div>}
        {street.map((line, index) => (
          <div key={index}>{line}</div>
        ))}
        <div>
          {[address.postcode, address.city, address.region, address.country_id]
            .filter(Boolean)
            .join(' ')}
        </div>
        {address.telephone && <div>{address.telephone}</div>}
      </address>
    </div>
  );
}

function Interventions({
  store,
  detail,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [partial, setPartial] = useState('');
  const action = useAction();
  const base = `stores/${seg(store)}/orders/${seg(detail.order.fulfillment_order_number)}`;
  const act = async (name: string, body: unknown) => {
    const answer = await action.run(() => api<OrderDetail>('POST', `${base}/${name}`, body));
    if (answer) onDone();
  };
  return (
    <section aria-labelledby="act-title">
      <h2 id="act-title">Intervene</h2>
      <div class="row">
        <Field label="Reason">
          <input value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
        {ACTIONS.map((name) => (
          <button
            key={name}
            type="button"
            class={name === 'requeue' ? undefined : 'danger'}
            disabled={action.busy}
            onClick={() =>
              act(name, reason ? { reason } : name === 'fail' ? { reason: 'operator' } : {})
            }
          >
            {name[0]?.toUpperCase()}
            {name.slice(1)}
          </button>
        ))}
      </div>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          act('allow-partial', { allow: partial === '' ? null : partial === 'true' });
        }}
      >
        <Field label="Partial shipment of this order">
          <select value={partial} onChange={(event) => setPartial(event.currentTarget.value)}>
            <option value="">as the store's settings say</option>
            <option value="true">allowed</option>
            <option value="false">not allowed</option>
          </select>
        </Field>
        <button type="submit" disabled={action.busy}>
          Set partials
        </button>
      </form>
      <MoveLines detail={detail} onMove={(body) => act('move-lines', body)} busy={action.busy} />
      <ErrorText error={action.error} />
    </section>
  );
}

/** Lines no partner has accepted yet may move to another warehouse of the store. */
function MoveLines({
  detail,
  onMove,
  busy,
}: {
  detail: OrderDetail;
  onMove: (body: { items: number[]; warehouse_code: string }) => void;
  busy: boolean;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  const [warehouse, setWarehouse] = useState('');
  const movable = detail.order.items.filter((item) => item.status === 'pending_accept');
  if (movable.length === 0) return null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onMove({ items: chosen, warehouse_code: warehouse });
      }}
    >
      <fieldset>
        <legend>Move lines not yet accepted to another warehouse</legend>
        {movable.map((item) => (
          <label key={item.id} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(item.id)}
              onChange={(event) =>
                setChosen(
                  event.currentTarget.checked
                    ? [...chosen, item.id]
                    : chosen.filter((id) => id !== item.id),
                )
              }
            />{' '}
            {item.qty} × {item.sku} (item {item.id}, {item.warehouse_code})
          </label>
        ))}
        <div class="row">
          <Field label="To warehouse">
            <input
              required
              value={warehouse}
              onInput={(event) => setWarehouse(event.currentTarget.value)}
            />
          </Field>
          <button type="submit" disabled={busy || chosen.length === 0}>
            Move
          </button>
        </div>
      </fieldset>
    </form>
  );
}

export function OrderPage({
  store,
  number,
  role,
}: {
  store: string;
  number: string;
  role: string;
}) {
  const loaded = useLoad(
    () => api<OrderDetail>('GET', `stores/${seg(store)}/orders/${seg(number)}`),
    `${store}/${number}`,
  );
  const detail = loaded.data;
  const order = detail?.order;
  return (
    <>
      <PageTitle>Order {number}</PageTitle>
      <Loading loaded={loaded} />
      {detail && order && (
        <>
          <p class="lead">
            <span>
              Sales order <strong>{order.sales_order_number}</strong>
            </span>{' '}
            <span>
              status <strong class="status">{order.status}</strong>
            </span>{' '}
            <span>warehouse {order.warehouse_code}</span>
          </p>
          {detail.courier && detail.courier.attempts > 0 && (
            <p>
              Courier: {detail.courier.attempts} attempts
              {detail.courier.last_error ? `, last error: ${detail.courier.last_error}` : ''}
              {detail.courier.next_attempt_at ? `, next at ${detail.courier.next_attempt_at}` : ''}
            </p>
          )}
          {detail.failure && (
            <p class="failure">
              Failed at {detail.failure.stage}: {detail.failure.reason}
              {detail.failure.abandoned ? ' (abandoned)' : ''}
            </p>
          )}
          <section aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            <ol class="timeline">
              {detail.timeline.map((entry) => (
                <li key={entry.id}>
                  <time>{entry.at}</time> <strong class="action">{entry.action}</strong> by{' '}
                  <span class="actor">{entry.actor}</span>
                  {entry.reason && <span>: {entry.reason}</span>}
                  {entry.request_id && <small> request {entry.request_id}</small>}
                </li>
              ))}
            </ol>
          </section>
          {may(role, 'operator') && (
            <Interventions store={store} detail={detail} onDone={loaded.reload} />
          )}
          <section aria-labelledby="customer-title">
            <h2 id="customer-title">Customer</h2>
            <p>
              <span class="customer">
                {order.customer_firstname} {order.customer_lastname}
              </span>{' '}
              &lt;{order.customer_email}&gt;
            </p>
            {order.shipping.customer_note && (
              <p>
                Note: <span class="note">{order.shipping.customer_note}</span>
              </p>
            )}
            <div class="columns">
              <AddressBlock title="Shipping address" address={order.shipping_address} />
              <AddressBlock title="Billing address" address={order.billing_address} />
            </div>
            <p>
              Shipping: {order.shipping.method_name ?? '—'}; payment:{' '}
              {order.payment.method_name ?? '—'}
            </p>
          </section>
          <section aria-labelledby="items-title">
            <h2 id="items-title">Items</h2>
            <Table
              label="Items"
              head={['Item', 'SKU', 'Name', 'Qty', 'Stage', 'Warehouse', 'Total']}
              numeric={['Qty', 'Total']}
            >
              {order.items.map((item) => (
                <tr key={item.id}>
                  <td>{item.id}</td>
                  <td>{item.sku}</td>
                  <td>{item.name}</td>
                  <td class="num">{item.qty}</td>
                  <td>{item.status}</td>
                  <td>{item.warehouse_code ?? '—'}</td>
                  <td class="num">{item.total_price ?? '—'}</td>
                </tr>
              ))}
            </Table>
            <p>
              Grand total {order.grand_total ?? '—'}, shipping {order.shipping_amount ?? '—'}, tax{' '}
              {order.tax_amount ?? '—'}
            </p>
          </section>
          <section aria-labelledby="shipments-title">
            <h2 id="shipments-title">Shipments and invoices</h2>
            {detail.shipments.length === 0 && detail.invoices.length === 0 && <p>None yet.</p>}
            <ul>
              {detail.shipments.map((shipment) => (
                <li key={shipment.id}>
                  Shipment {shipment.id} at {shipment.created_at}:{' '}
                  {shipment.items.map((item) => `${item.qty} × item ${item.item_id}`).join(', ')}
                  {shipment.tracks.length > 0 && (
                    <>
                      {' '}
                      — tracks {shipment.tracks.map((track) => JSON.stringify(track)).join(', ')}
                    </>
                  )}
                </li>
              ))}
              {detail.invoices.map((invoice) => (
                <li key={invoice.id}>
                  Invoice {invoice.invoice_number ?? invoice.id} at {invoice.created_at}
                </li>
              ))}
            </ul>
            {may(role, 'operator') && (
              <CorrectTracks store={store} detail={detail} onDone={loaded.reload} />
            )}
          </section>
        </>
      )}
    </>
  );
}
