import { useState } from 'preact/hooks';
import { api, type BulkCount, type BulkResult, seg } from '../api.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { DataTable } from '../ui/data-table.js';
import { Field } from '../ui/field.js';
import { plural } from '../ui/format.js';
import { useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';
import { BULK_ACTION, BULK_OUTCOME } from '../ui/words.js';
import { filterWords, type OrderFilter } from './order-filter.js';
import { OrderLink } from './order-link.js';

export type BulkAction = 'requeue' | 'abandon' | 'cancel';

/** What each action does to the orders it acts on, said before it does. */
const EFFECT: Record<BulkAction, string> = {
  requeue: 'Each goes back to the queues its lines are in.',
  abandon:
    'Each stays failed for good, and the stock its lines hold is released. This cannot be undone.',
  cancel:
    'The unshipped lines of each are canceled and their stock released. This cannot be undone.',
};

const GERUND: Record<BulkAction, string> = {
  requeue: 'requeueing',
  abandon: 'abandoning',
  cancel: 'canceling',
};

/**
 * A bulk intervention over a filter, never over a page: the dry run says exactly how many orders
 * the filter selects now and how many of them the action will act on, and a confirmation naming
 * that count asks before it runs. It acts on the filter the list shows: while the form shows
 * another, not yet searched, it offers no count.
 */
export function Bulk({
  store,
  filter,
  actions,
  stale = false,
  onDone,
}: {
  store: string;
  filter: OrderFilter;
  actions: readonly BulkAction[];
  /** The form shows a filter the list does not apply yet. */
  stale?: boolean;
  onDone: () => void;
}) {
  const [chosen, setChosen] = useState<BulkAction>(actions[0] as BulkAction);
  const [reason, setReason] = useState('');
  const [planned, setPlanned] = useState<BulkCount & { action: BulkAction }>();
  const [results, setResults] = useState<BulkResult[]>();
  const counting = useAction();
  const path = (name: BulkAction) => `stores/${seg(store)}/bulk/${name}`;
  const body = (dryRun: boolean) => ({ filter, dry_run: dryRun, ...(reason ? { reason } : {}) });
  const dryRun = async (event: Event) => {
    event.preventDefault();
    if (stale) return;
    setResults(undefined);
    const answer = await counting.run(() => api<BulkCount>('POST', path(chosen), body(true)));
    if (answer) setPlanned({ ...answer, action: chosen });
  };
  const run = async () => {
    if (!planned) return;
    const answer = await api<{ results: BulkResult[] }>('POST', path(planned.action), body(false));
    setResults(answer.results);
    const done = answer.results.filter((result) => result.outcome === 'done').length;
    toast(`${BULK_ACTION[planned.action]}: ${plural(done, 'order')} done`);
    onDone();
  };
  const verb = planned && BULK_ACTION[planned.action];
  const skipped = planned ? planned.selected - planned.count : 0;
  return (
    <Card title="Act on every order of this filter">
      <form class="form-row" onSubmit={dryRun}>
        <Field label="Bulk action" size="short">
          <select
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value as BulkAction)}
          >
            {actions.map((name) => (
              <option key={name} value={name}>
                {BULK_ACTION[name]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Reason (optional)" size="long">
          <input value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
        <Button type="submit" busy={counting.busy} disabled={stale}>
          Count the orders (dry run)
        </Button>
      </form>
      <p class="subtle">
        {stale
          ? 'Search first: a bulk acts on the filter the list shows, not on one being typed.'
          : `It acts on every order the filter selects (${filterWords(filter)}), not only those on screen; nothing happens before you confirm the count.`}
      </p>
      <ErrorBanner error={counting.error} />
      {planned && planned.count === 0 && (
        <p role="status">
          No order of this filter to {planned.action}
          {planned.selected > 0
            ? `: ${GERUND[planned.action]} applies to none of the ${plural(planned.selected, 'order')} it selects.`
            : '.'}
        </p>
      )}
      {planned && planned.count > 0 && (
        <ConfirmDialog
          title={`${verb} ${plural(planned.count, 'order')}?`}
          confirm={`${verb} ${plural(planned.count, 'order')}`}
          keep="Keep orders"
          destructive={planned.action !== 'requeue'}
          onClose={() => setPlanned(undefined)}
          onConfirm={run}
        >
          <p>
            The filter ({filterWords(filter)}) selects {plural(planned.selected, 'order')} now.{' '}
            {EFFECT[planned.action]}
          </p>
          {skipped > 0 && (
            <p>
              {plural(skipped, 'other order')} the filter selects {skipped === 1 ? 'is' : 'are'}{' '}
              skipped: {GERUND[planned.action]} does not apply to {skipped === 1 ? 'it' : 'them'}.
            </p>
          )}
          {reason && <p>Reason on each timeline: “{reason}”.</p>}
        </ConfirmDialog>
      )}
      {results && <BulkResults store={store} results={results} />}
    </Card>
  );
}

/** What a bulk did to each order: the tally, then a row per order and why one was not done. */
export function BulkResults({ store, results }: { store: string; results: readonly BulkResult[] }) {
  const tally = (outcome: BulkResult['outcome']) =>
    results.filter((result) => result.outcome === outcome).length;
  return (
    <>
      <p role="status">
        Done {tally('done')}, skipped {tally('skipped')}, failed {tally('failed')}.
      </p>
      <DataTable<BulkResult>
        label="Result per order"
        rows={results}
        rowKey={(result) => result.order}
        columns={[
          {
            title: 'Order',
            primary: true,
            cell: (result) => <OrderLink store={store} number={result.order} />,
          },
          {
            title: 'Outcome',
            cell: (result) => (
              <Badge tone={BULK_OUTCOME[result.outcome].tone}>
                {BULK_OUTCOME[result.outcome].words}
              </Badge>
            ),
          },
          { title: 'Why', cell: (result) => ('reason' in result ? result.reason : '') },
        ]}
      />
    </>
  );
}
