import { useState } from 'preact/hooks';
import { api, query, type StockHistoryItem, seg } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { dateTime } from '../ui/format.js';
import { useLoad } from '../ui/load.js';

/** What changed the on hand: the set's source or the adjustment's reason, in words. */
function what(item: StockHistoryItem): string {
  if (item.kind === 'adjustment') {
    return `Adjustment ${item.adjustment_number ?? ''} (${item.reason ?? ''})`;
  }
  return item.source === 'admin' ? 'Set by an operator' : 'Set by a stock sync';
}

/**
 * The stock history of one warehouse and sku, newest first, 100 a page: every set and
 * adjustment with who and why. Every string is the sender's: shown as text only.
 */
export function StockHistory({
  store,
  warehouse,
  sku,
  onClose,
}: {
  store: string;
  warehouse: string;
  sku: string;
  onClose: () => void;
}) {
  const [after, setAfter] = useState<string>();
  const path = `stores/${seg(store)}/stock/${seg(warehouse)}/${seg(sku)}/history`;
  const loaded = useLoad(
    () =>
      api<{ items: StockHistoryItem[]; next: string | null }>('GET', `${path}${query({ after })}`),
    `${path}/${after ?? ''}`,
  );
  return (
    <Card
      title={`History of ${sku} at ${warehouse}`}
      actions={<Button onClick={onClose}>Close history</Button>}
    >
      <ErrorBanner error={loaded.error} />
      {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
      {loaded.data && (
        <DataTable<StockHistoryItem>
          label={`Stock history of ${sku} at ${warehouse}`}
          rows={loaded.data.items}
          rowKey={(item) =>
            `${item.at}/${item.kind}/${item.adjustment_number ?? ''}/${item.request_id ?? ''}/${item.on_hand_after}/${item.delta}`
          }
          empty={
            <EmptyState title="No history yet">
              Sets and adjustments of this stock appear here. Reservations and releases are not
              recorded here yet.
            </EmptyState>
          }
          columns={[
            { title: 'When', primary: true, cell: (item) => dateTime(item.at) },
            { title: 'What', cell: what },
            { title: 'By', cell: (item) => item.by },
            {
              title: 'Change',
              numeric: true,
              cell: (item) => (item.delta > 0 ? `+${item.delta}` : item.delta),
            },
            { title: 'Before', numeric: true, cell: (item) => item.on_hand_before ?? '' },
            { title: 'On hand after', numeric: true, cell: (item) => item.on_hand_after },
            { title: 'Request', cell: (item) => item.request_id ?? '' },
          ]}
        />
      )}
      {after && <Button onClick={() => setAfter(undefined)}>Newest</Button>}
      {loaded.data?.next && (
        <Button onClick={() => setAfter(loaded.data?.next ?? undefined)}>Older entries</Button>
      )}
    </Card>
  );
}
