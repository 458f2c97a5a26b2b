import { useState } from 'preact/hooks';
import { api, seg, type TokenInfo } from '../api.js';
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

function CreateToken({
  store,
  onCreated,
}: {
  store: string;
  onCreated: (name: string, token: string) => void;
}) {
  const [name, setName] = useState('');
  const [acl, setAcl] = useState('partner');
  const [warehouses, setWarehouses] = useState('');
  const [expires, setExpires] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const list = warehouses
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean);
    const answer = await action.run(() =>
      api<{ token: string; info: TokenInfo }>('POST', `stores/${seg(store)}/tokens`, {
        name,
        acl,
        ...(list.length ? { warehouses: list } : {}),
        ...(expires ? { expires_at: expires } : {}),
      }),
    );
    if (answer) {
      setName('');
      onCreated(answer.info.name, answer.token);
    }
  };
  return (
    <form class="row" onSubmit={submit} aria-labelledby="create-title">
      <h2 id="create-title">Create a token</h2>
      <Field label="Name">
        <input
          name="token-name"
          required
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <Field label="Access">
        <select value={acl} onChange={(event) => setAcl(event.currentTarget.value)}>
          <option value="partner">partner</option>
          <option value="erp">erp</option>
          <option value="channel">channel</option>
          <option value="all">all</option>
        </select>
      </Field>
      <Field label="Warehouses (comma-separated, optional)">
        <input value={warehouses} onInput={(event) => setWarehouses(event.currentTarget.value)} />
      </Field>
      <Field label="Expires at (optional, UTC)">
        <input
          placeholder="2027-01-01 00:00:00"
          value={expires}
          onInput={(event) => setExpires(event.currentTarget.value)}
        />
      </Field>
      <button type="submit" disabled={action.busy}>
        Create
      </button>
      <ErrorText error={action.error} />
    </form>
  );
}

export function TokensPage({ store, role }: { store: string; role: string }) {
  const loaded = useLoad(
    () => api<{ tokens: TokenInfo[] }>('GET', `stores/${seg(store)}/tokens`),
    store,
  );
  const [secret, setSecret] = useState<{ name: string; token: string }>();
  const [overlap, setOverlap] = useState('3600');
  const action = useAction();
  const admin = may(role, 'admin');
  const base = `stores/${seg(store)}/tokens`;
  const revoke = (name: string) =>
    action.run(() => api('POST', `${base}/${seg(name)}/revoke`, {})).then(loaded.reload);
  const rotate = async (name: string) => {
    const answer = await action.run(() =>
      api<{ token: string; info: TokenInfo }>('POST', `${base}/${seg(name)}/rotate`, {
        overlap_seconds: Number(overlap),
      }),
    );
    if (answer) setSecret({ name: answer.info.name, token: answer.token });
    loaded.reload();
  };
  return (
    <>
      <PageTitle>Tokens of {store}</PageTitle>
      {secret && (
        <Secret
          of={`token ${secret.name}`}
          secret={secret.token}
          onClose={() => setSecret(undefined)}
        />
      )}
      {admin && (
        <CreateToken
          store={store}
          onCreated={(name, token) => {
            setSecret({ name, token });
            loaded.reload();
          }}
        />
      )}
      <Loading loaded={loaded} />
      <ErrorText error={action.error} />
      {admin && (
        <Field label="Overlap when rotating (seconds the old secret keeps working)">
          <input
            type="number"
            min="0"
            max="604800"
            value={overlap}
            onInput={(event) => setOverlap(event.currentTarget.value)}
          />
        </Field>
      )}
      {loaded.data && (
        <Table
          label="Tokens"
          head={[
            'Name',
            'Access',
            'Warehouses',
            'Expires',
            'Last used',
            'State',
            admin && 'Action',
          ]}
        >
          {loaded.data.tokens.map((token) => (
            <tr key={token.name}>
              <td>{token.name}</td>
              <td>{token.acl.join(', ')}</td>
              <td>{token.warehouses?.join(', ') ?? 'all'}</td>
              <td>{token.expires_at ?? 'never'}</td>
              <td>{token.last_used_at ?? 'never'}</td>
              <td>{token.revoked_at ? `revoked ${token.revoked_at}` : 'active'}</td>
              {admin && (
                <td class="actions">
                  {!token.revoked_at && (
                    <>
                      <button
                        type="button"
                        class="danger"
                        disabled={action.busy}
                        aria-label={`Revoke ${token.name}`}
                        onClick={() => revoke(token.name)}
                      >
                        Revoke
                      </button>
                      <button
                        type="button"
                        disabled={action.busy}
                        aria-label={`Rotate ${token.name}`}
                        onClick={() => rotate(token.name)}
                      >
                        Rotate
                      </button>
                    </>
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
