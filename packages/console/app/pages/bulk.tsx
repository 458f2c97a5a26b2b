import { useState } from 'preact/hooks';
import { api, type BulkResult, seg } from '../api.js';
import { ErrorText, Field, Table, useAction } from '../ui.js';

export type BulkAction = 'requeue' | 'abandon' | 'cancel';

/**
 * A bulk intervention over a filter, never over a page: the dry run says exactly how many
 * orders the filter selects now, and only then may the operator confirm.
 */
export function Bulk({
  store,
  filter,
  actions,
  onDone,
}: {
  store: string;
  filter: Record<string, string>;
  actions: readonly BulkAction[];
  onDone: () => void;
}) {
  const [chosen, setChosen] = useState<BulkAction>(actions[0] as BulkAction);
  const [reason, setReason] = useState('');
  const [planned, setPlanned] = useState<{ action: BulkAction; count: number }>();
  const [results, setResults] = useState<BulkResult[]>();
  const action = useAction();
  const path = (name: BulkAction) => `stores/${seg(store)}/bulk/${name}`;
  const body = (dryRun: boolean) => ({
    filter,
    dry_run: dryRun,
    ...(reason ? { reason } : {}),
  });
  const dryRun = async (event: Event) => {
    event.preventDefault();
    setResults(undefined);
    const answer = await action.run(() => api<{ count: number }>('POST', path(chosen), body(true)));
    if (answer) setPlanned({ action: chosen, count: answer.count });
  };
  const confirm = async () => {
    if (!planned) return;
    const answer = await action.run(() =>
      api<{ results: BulkResult[] }>('POST', path(planned.action), body(false)),
    );
    setPlanned(undefined);
    if (answer) {
      setResults(answer.results);
      onDone();
    }
  };
  const tally = (outcome: BulkResult['outcome']) =>
    results?.filter((result) => result.outcome === outcome).length ?? 0;
  return (
    <section class="bulk" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Bulk action on every order the filter selects</h2>
      <form onSubmit={dryRun} class="row">
        <Field label="Bulk action">
          <select
            value={chosen}
            onChange={(event) => {
              setChosen(event.currentTarget.value as BulkAction);
              setPlanned(undefined);
            }}
          >
            {actions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Reason (optional)">
          <input value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>
          Count the orders (dry run)
        </button>
      </form>
      {planned && (
        <div class="confirm" role="status">
          <p>
            {planned.action} {planned.count} {planned.count === 1 ? 'order' : 'orders'}?
          </p>
          <button type="button" class="danger" onClick={confirm} disabled={action.busy}>
            Confirm: {planned.action} {planned.count}
          </button>{' '}
          <button type="button" onClick={() => setPlanned(undefined)}>
            Cancel
          </button>
        </div>
      )}
      <ErrorText error={action.error} />
      {results && (
        <>
          <p role="status">
            Done {tally('done')}, skipped {tally('skipped')}, failed {tally('failed')}.
          </p>
          <Table
            label="Bulk results"
            caption={<>Result per order</>}
            head={['Order', 'Outcome', 'Reason']}
          >
            {results.map((result) => (
              <tr key={result.order}>
                <td>{result.order}</td>
                <td>{result.outcome}</td>
                <td>{'reason' in result ? result.reason : ''}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </section>
  );
}
