import { useState } from 'preact/hooks';
import { ApiError, api, orderPath } from '../api.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { DataTable } from '../ui/data-table.js';
import { Field } from '../ui/field.js';
import { plural } from '../ui/format.js';
import { messageOf, useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';
import { utcOfLocalInput } from './order/deadline.js';
import { OrderLink } from './order-link.js';

interface Changed {
  order: string;
  error: string | null;
}

/**
 * A new deadline for the orders an operator ticked in a list (docs/deadlines.md): typed in the
 * operator's own time zone, with the reason each order's timeline keeps, sent order by order as
 * the order page does (each change its own action). A refusal of what was typed (400, naming
 * the field) stops at the first order; an order that cannot change says why in its row.
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
  const [results, setResults] = useState<Changed[]>();
  const action = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    setResults(undefined);
    const body = { fulfill_by: utcOfLocalInput(when), reason };
    const outcome = await action.run(async () => {
      const changed: Changed[] = [];
      for (const order of selected) {
        try {
          await api('POST', `${orderPath(store, order)}/fulfill-by`, body);
          changed.push({ order, error: null });
        } catch (error) {
          // The input itself refused: every order would refuse it alike.
          if (error instanceof ApiError && error.status === 400 && changed.length === 0)
            throw error;
          changed.push({ order, error: messageOf(error) });
        }
      }
      return changed;
    });
    if (!outcome) return;
    setResults(outcome);
    const done = outcome.filter((result) => result.error === null).length;
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
        <Field label="New deadline" hint="your time zone" size="short">
          <input
            type="datetime-local"
            value={when}
            required
            onInput={(event) => setWhen(event.currentTarget.value)}
          />
        </Field>
        <Field label="Reason for the change" size="long">
          <input
            value={reason}
            required
            onInput={(event) => setReason(event.currentTarget.value)}
          />
        </Field>
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
      {results && (
        <DataTable<Changed>
          label="Deadline changed per order"
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
              cell: (result) =>
                result.error === null ? (
                  <Badge tone="success">Changed</Badge>
                ) : (
                  <Badge tone="critical">Failed</Badge>
                ),
            },
            { title: 'Why', cell: (result) => result.error ?? '' },
          ]}
        />
      )}
    </Card>
  );
}
