import { useState } from 'preact/hooks';
import { api, type Operator, type Role, type Session, seg } from '../api.js';
import {
  ErrorText,
  Field,
  Loading,
  may,
  PageTitle,
  Secret,
  Table,
  useAction,
  useLoad,
} from '../ui.js';

export function OperatorsPage({ session }: { session: Session }) {
  const loaded = useLoad(() => api<{ operators: Operator[] }>('GET', 'operators'), 'operators');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [store, setStore] = useState('');
  const [secret, setSecret] = useState<{ name: string; secret: string }>();
  const action = useAction();
  const create = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() =>
      api<{ secret: string; operator: Operator }>('POST', 'operators', {
        name,
        role,
        ...(store ? { store_code: store } : {}),
      }),
    );
    if (answer) {
      setSecret({ name: answer.operator.name, secret: answer.secret });
      setName('');
      loaded.reload();
    }
  };
  const revoke = (operator: string) =>
    action.run(() => api('POST', `operators/${seg(operator)}/revoke`, {})).then(loaded.reload);
  const admin = may(session.role, 'admin') && session.store_code === null;
  return (
    <>
      <PageTitle>Operators</PageTitle>
      {secret && (
        <Secret
          of={`operator ${secret.name}`}
          secret={secret.secret}
          onClose={() => setSecret(undefined)}
        />
      )}
      {admin && (
        <form class="row" onSubmit={create} aria-labelledby="new-operator">
          <h2 id="new-operator">Add an operator</h2>
          <Field label="Name">
            <input required value={name} onInput={(event) => setName(event.currentTarget.value)} />
          </Field>
          <Field label="Role">
            <select value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
              <option value="viewer">viewer (reads)</option>
              <option value="operator">operator (also intervenes)</option>
              <option value="admin">admin (manages all)</option>
            </select>
          </Field>
          <Field label="Store (empty: every store)">
            <input value={store} onInput={(event) => setStore(event.currentTarget.value)} />
          </Field>
          <button type="submit" disabled={action.busy}>
            Add
          </button>
        </form>
      )}
      <ErrorText error={action.error} />
      <Loading loaded={loaded} />
      {loaded.data && (
        <Table
          label="Operators"
          head={['Name', 'Role', 'Store', 'Created', 'State', admin && 'Action']}
        >
          {loaded.data.operators.map((operator) => (
            <tr key={operator.name}>
              <td>{operator.name}</td>
              <td>{operator.role}</td>
              <td>{operator.store_code ?? 'every store'}</td>
              <td>{operator.created_at}</td>
              <td>{operator.revoked_at ? `revoked ${operator.revoked_at}` : 'active'}</td>
              {admin && (
                <td>
                  {!operator.revoked_at && operator.name !== session.name && (
                    <button
                      type="button"
                      class="danger"
                      disabled={action.busy}
                      aria-label={`Revoke ${operator.name}`}
                      onClick={() => revoke(operator.name)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
