import { api, type OrderDetail, type OrderPage, query, seg } from '../api.js';
import { count, ErrorText, Loading, may, PageTitle, Table, useAction, useLoad } from '../ui.js';
import { Bulk } from './bulk.js';
import { OrderLink } from './orders.js';

const FAILED = { status: 'failed' };

export function FailedPage({ store, role }: { store: string; role: string }) {
  const loaded = useLoad(
    () => api<OrderPage>('GET', `stores/${seg(store)}/orders${query({ ...FAILED, limit: 200 })}`),
    store,
  );
  const action = useAction();
  const intervene = (number: string, name: string) =>
    action
      .run(() => api<OrderDetail>('POST', `stores/${seg(store)}/orders/${seg(number)}/${name}`, {}))
      .then((answer) => answer && loaded.reload());
  const operator = may(role, 'operator');
  const page = loaded.data;
  return (
    <>
      <PageTitle>Failed orders of {store}</PageTitle>
      <Loading loaded={loaded} />
      <ErrorText error={action.error} />
      {page && (
        <>
          <p role="status">
            {count(page.total)} failed {page.total.count === 1 ? 'order' : 'orders'}
            {page.next ? `; the first ${page.orders.length} shown` : ''}.
          </p>
          <Table
            label="Failed orders"
            head={['Order', 'Stage', 'Reason', 'Customer', 'Updated', operator && 'Action']}
          >
            {page.orders.map((order) => (
              <tr key={order.fulfillment_order_number}>
                <td>
                  <OrderLink store={store} order={order} />
                </td>
                <td>{order.failure?.stage}</td>
                <td>
                  {order.failure?.reason}
                  {order.failure?.abandoned ? ' (abandoned)' : ''}
                </td>
                <td>{order.customer_name}</td>
                <td>{order.updated_at}</td>
                {operator && (
                  <td class="actions">
                    {(['requeue', 'abandon', 'cancel'] as const).map((name) => (
                      <button
                        key={name}
                        type="button"
                        disabled={action.busy}
                        aria-label={`${name} ${order.fulfillment_order_number}`}
                        onClick={() => intervene(order.fulfillment_order_number, name)}
                      >
                        {name}
                      </button>
                    ))}
                  </td>
                )}
              </tr>
            ))}
          </Table>
        </>
      )}
      {operator && (
        <Bulk
          store={store}
          filter={FAILED}
          actions={['requeue', 'abandon', 'cancel']}
          onDone={loaded.reload}
        />
      )}
    </>
  );
}
