import { useState } from 'preact/hooks';
import { api, type BulkResult, seg } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { plural } from '../ui/format.js';
import { useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';
import { BulkResults } from './bulk.js';
import { DeadlineFields, utcOfLocalInput } from './order/deadline.js';

/**
 * A new deadline for the orders an operator ticked in a list (docs/deadlines.md): typed in the
 * operator's own time zone, with the reason each order's timeline keeps, sent as one bulk
 * listing the ticked orders (each change its own transaction there). A refusal of what was typed
 * (400, naming the field) changes nothing; an order that cannot change says why in its row.
 */
export function BulkDeadline({
  store,
  selected,
  onDone,
}: {
  store: string;
  selected: readonly string[];
  onDone: () => void;
}) {
  const [when, setWhen] = useState('');
  const [reason, setReason] = useState('');
  const [results, setResults] = useState<BulkResult[]>();
  const action = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    setResults(undefined);
    const body = { orders: selected, dry_run: false, fulfill_by: utcOfLocalInput(when), reason };
    const outcome = await action.run(async () => {
      const answer = await api<{ results: BulkResult[] }>(
        'POST',
        `stores/${seg(store)}/bulk-fulfill-by`,
        body,
      );
      return answer.results;
    });
    if (!outcome) return;
    setResults(outcome);
    const done = outcome.filter((result) => result.outcome === 'done').length;
    toast(`Deadline changed: ${plural(done, 'order')}`);
    if (done > 0) setReason('');
    onDone();
  };
  return (
    <Card title="Change the deadline of the selected orders">
      <form
        class="form-row"
        onSubmit={save}
        aria-label="Change the deadline of the selected orders"
      >
        <DeadlineFields when={when} setWhen={setWhen} reason={reason} setReason={setReason} />
        <Button type="submit" busy={action.busy} disabled={selected.length === 0}>
          {`Change ${plural(selected.length, 'deadline')}`}
        </Button>
      </form>
      <p class="subtle">
        {selected.length === 0
          ? 'Tick the orders to change in the list above.'
          : 'Each order selected gets the new deadline, and the reason on its timeline.'}
      </p>
      <ErrorBanner error={action.error} />
      {results && <BulkResults store={store} results={results} />}
    </Card>
  );
}
