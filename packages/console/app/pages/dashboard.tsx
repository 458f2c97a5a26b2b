import { api, type Dashboard } from '../api.js';
import { href } from '../router.js';
import { age, Loading, PageTitle, Table, useLoad } from '../ui.js';

export function DashboardPage() {
  const loaded = useLoad(() => api<Dashboard>('GET', 'dashboard'), 'dashboard');
  return (
    <>
      <PageTitle>Dashboard</PageTitle>
      <Loading loaded={loaded} />
      {loaded.data?.stores.map((store) => (
        <section key={store.store_code} aria-labelledby={`store-${store.store_code}`}>
          <h2 id={`store-${store.store_code}`}>Store {store.store_code}</h2>
          <dl class="figures">
            <div>
              <dt>Failed, open</dt>
              <dd>
                <a href={href([store.store_code, 'failed'])}>{store.failed.open}</a>
              </dd>
            </div>
            <div>
              <dt>Failed, abandoned</dt>
              <dd>{store.failed.abandoned}</dd>
            </div>
            <div>
              <dt>Courier: shipped</dt>
              <dd>{store.courier.shipped}</dd>
            </div>
            <div>
              <dt>Courier: retrying</dt>
              <dd>{store.courier.retrying}</dd>
            </div>
            <div>
              <dt>Courier: failed</dt>
              <dd>{store.courier.failed}</dd>
            </div>
          </dl>
          <Table
            label={`Queues of store ${store.store_code}`}
            caption={<>Queues of store {store.store_code}</>}
            head={['Queue', 'Warehouse', 'Orders', 'Oldest']}
            numeric={['Orders']}
          >
            {store.queues.flatMap((queue) => [
              <tr key={queue.queue} class="total">
                <th scope="row">
                  <a href={href([store.store_code, 'orders'], { queue: queue.queue })}>
                    {queue.queue}
                  </a>
                </th>
                <td>all</td>
                <td class="num">{queue.orders}</td>
                <td>{age(queue.oldest_at)}</td>
              </tr>,
              ...queue.by_warehouse.map((row) => (
                <tr key={`${queue.queue}/${row.warehouse_code}`}>
                  <td />
                  <td>{row.warehouse_code}</td>
                  <td class="num">{row.orders}</td>
                  <td>{age(row.oldest_at)}</td>
                </tr>
              )),
            ])}
          </Table>
        </section>
      ))}
    </>
  );
}
