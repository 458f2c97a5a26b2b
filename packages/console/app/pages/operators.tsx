import { useState } from 'preact/hooks';
import { api, type Operator, type Role, seg } from '../api.js';
import { may, useConsole } from '../context.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { DataTable } from '../ui/data-table.js';
import { Field } from '../ui/field.js';
import { dateTime } from '../ui/format.js';
import { useAction, useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { toast } from '../ui/toast.js';
import { OPERATOR_ROLE } from '../ui/words.js';
import { Secret } from './secret.js';

const ROLES = Object.keys(OPERATOR_ROLE) as Role[];

function AddOperator({ onAdded }: { onAdded: (name: string, secret: string) => void }) {
  const { stores } = useConsole();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [store, setStore] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() =>
      api<{ secret: string; operator: Operator }>('POST', 'operators', {
        name,
        role,
        ...(store ? { store_code: store } : {}),
      }),
    );
    if (answer) {
      setName('');
      toast(`Operator ${answer.operator.name} added`);
      onAdded(answer.operator.name, answer.secret);
    }
  };
  return (
    <Card title="Add an operator">
      <form class="stack" onSubmit={submit}>
        <div class="form-row">
          <Field label="Name">
            <input required value={name} onInput={(event) => setName(event.currentTarget.value)} />
          </Field>
          <Field label="Role">
            <select value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
              {ROLES.map((known) => (
                <option key={known} value={known}>
                  {OPERATOR_ROLE[known].words} ({OPERATOR_ROLE[known].may})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Store">
            <select value={store} onChange={(event) => setStore(event.currentTarget.value)}>
              <option value="">Every store</option>
              {stores.map((known) => (
                <option key={known.store_code} value={known.store_code}>
                  {known.store_code}
                </option>
              ))}
            </select>
          </Field>
          <Button type="submit" variant="primary" busy={action.busy}>
            Add
          </Button>
        </div>
        <ErrorBanner error={action.error} />
      </form>
    </Card>
  );
}

export function OperatorsPage() {
  const { session } = useConsole();
  const loaded = useLoad(() => api<{ operators: Operator[] }>('GET', 'operators'), 'operators');
  const [secret, setSecret] = useState<{ name: string; secret: string }>();
  const [revoking, setRevoking] = useState<string>();
  const admin = may(session.role, 'admin') && session.store_code === null;
  return (
    <Page
      title="Operators"
      subtitle={<p>The people who use this console, and what each may do.</p>}
    >
      {secret && (
        <Secret
          of={`operator ${secret.name}`}
          secret={secret.secret}
          onClose={() => setSecret(undefined)}
        />
      )}
      {admin && (
        <AddOperator
          onAdded={(name, value) => {
            setSecret({ name, secret: value });
            loaded.reload();
          }}
        />
      )}
      <ErrorBanner error={loaded.error} />
      {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
      {loaded.data && (
        <Card title="Operators" flush>
          <DataTable<Operator>
            label="Operators"
            rows={loaded.data.operators}
            rowKey={(operator) => operator.name}
            columns={[
              { title: 'Name', primary: true, cell: (operator) => operator.name },
              {
                title: 'Role',
                cell: (operator) =>
                  `${OPERATOR_ROLE[operator.role].words} (${OPERATOR_ROLE[operator.role].may})`,
              },
              { title: 'Store', cell: (operator) => operator.store_code ?? 'Every store' },
              { title: 'Created', cell: (operator) => dateTime(operator.created_at) },
              {
                title: 'State',
                cell: (operator) =>
                  operator.revoked_at ? (
                    <Badge tone="neutral" title={`revoked ${operator.revoked_at} UTC`}>
                      Revoked
                    </Badge>
                  ) : (
                    <Badge tone="success">Active</Badge>
                  ),
              },
              admin && {
                title: 'Actions',
                cell: (operator) =>
                  !operator.revoked_at &&
                  operator.name !== session.name && (
                    <Button
                      variant="destructive"
                      label={`Revoke ${operator.name}`}
                      onClick={() => setRevoking(operator.name)}
                    >
                      Revoke
                    </Button>
                  ),
              },
            ]}
          />
        </Card>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke operator ${revoking}?`}
          confirm="Revoke operator"
          keep="Keep operator"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await api('POST', `operators/${seg(revoking)}/revoke`, {});
            toast(`Operator ${revoking} revoked`);
            loaded.reload();
          }}
        >
          <p>
            Their sessions end at once, and their secret no longer logs in. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </Page>
  );
}
