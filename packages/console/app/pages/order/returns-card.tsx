import { api, query, type ReturnView, seg } from '../../api.js';
import { href } from '../../router.js';
import { ErrorBanner } from '../../ui/banner.js';
import { Card } from '../../ui/card.js';
import { age, dateTime } from '../../ui/format.js';
import { useLoad } from '../../ui/load.js';
import { ReturnStatusBadge } from '../returns.js';

/**
 * The returns of the order's sales order, each with its RMA (a link to its page), where it
 * stands, its lines and its age; lines of another fulfillment order say which. Nothing while
 * the sales order has none.
 */
export function ReturnsCard({
  store,
  salesOrder,
  number,
}: {
  store: string;
  salesOrder: string;
  /** The order the page shows: its own lines need no number. */
  number: string;
}) {
  const loaded = useLoad(
    () =>
      api<ReturnView[]>(
        'GET',
        `stores/${seg(store)}/returns${query({ sales_order_number: salesOrder })}`,
      ),
    `${store}/${salesOrder}`,
  );
  if (loaded.error) return <ErrorBanner error={`Returns: ${loaded.error}`} />;
  if (!loaded.data || loaded.data.length === 0) return null;
  return (
    <Card title="Returns">
      <ul class="plain-list">
        {loaded.data.map((entry) => (
          <li key={entry.rma_number} class="return">
            <div class="related__item">
              <a href={href([store, 'returns', entry.rma_number])}>Return {entry.rma_number}</a>
              <ReturnStatusBadge status={entry.status} />
              <time class="subtle" dateTime={entry.created_at} title={dateTime(entry.created_at)}>
                opened {age(entry.created_at)} ago
              </time>
            </div>
            <ul class="plain-list return__lines">
              {entry.items.map((line) => (
                <li key={line.item_id}>
                  {line.qty} × {line.sku}: {line.name}
                  {line.fulfillment_order_number !== number && (
                    <span class="subtle"> (order {line.fulfillment_order_number})</span>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </Card>
  );
}
