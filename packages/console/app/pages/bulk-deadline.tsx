import { useState } from 'preact/hooks';
import { ApiError, api, type BulkResult, orderPath } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { plural } from '../ui/format.js';
import { messageOf, useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';
import { BulkResults } from './bulk.js';
import { DeadlineFields, utcOfLocalInput } from './order/deadline.js';

/**
 * A new deadline for the orders an operator ticked in a list (docs/deadlines.md): typed in the
 * operator's own time zone, with the reason each order's timeline keeps, sent order by order as
 * the order page does (each change its own action). A refusal of what was typed (400, naming
 * the field) stops at the first order; an order that cannot change says why in its row, as a
 * bulk's results do.
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
    const body = { fulfill_by: utcOfLocalInput(when), reason };
    const outcome = await action.run(async () => {
      const changed: BulkResult[] = [];
      for (const order of selected) {
        try {
          await api('POST', `${orderPath(store, order)}/fulfill-by`, body);
          changed.push({ order, outcome: 'done' });
        } catch (error) {
          // The input itself refused: every order would refuse it alike.
          if (error instanceof ApiError && error.status === 400 && changed.length === 0)
            throw error;
          changed.push({ order, outcome: 'failed', reason: messageOf(error) });
        }
      }
      return changed;
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
