import type { RolePreset } from '@fulfil/core';
import { useState } from 'preact/hooks';
import { api, seg, type TokenInfo, type Warehouse } from '../api.js';
import { may } from '../context.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { Checkbox } from '../ui/checkbox.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { Field } from '../ui/field.js';
import { dateTime, instant } from '../ui/format.js';
import { useAction, useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { toast } from '../ui/toast.js';
import { aclGroups, presetOf, ROLE_PRESET } from '../ui/words.js';
import { Secret } from './secret.js';

/** A token's access in words: its role, or what it allows grouped by role; the resources in a tooltip. */
function Access({ token }: { token: TokenInfo }) {
  const preset = presetOf(token.acl);
  const title = token.acl.join('\n');
  if (preset) {
    return (
      <span title={title}>
        <strong>{ROLE_PRESET[preset]}</strong>
      </span>
    );
  }
  return (
    <ul class="plain-list" title={title}>
      {aclGroups(token.acl).map(({ group, words }) => (
        <li key={group}>
          <strong>{group}:</strong> {words.join(', ')}
        </li>
      ))}
    </ul>
  );
}

function stateOf(token: TokenInfo): { words: string; tone: 'success' | 'neutral' | 'attention' } {
  if (token.revoked_at) return { words: 'Revoked', tone: 'neutral' };
  const expires = instant(token.expires_at);
  if (expires && expires.getTime() <= Date.now()) return { words: 'Expired', tone: 'attention' };
  return { words: 'Active', tone: 'success' };
}

function CreateToken({
  store,
  warehouses,
  onCreated,
}: {
  store: string;
  warehouses: readonly Warehouse[];
  onCreated: (name: string, token: string) => void;
}) {
  const [name, setName] = useState('');
  const [acl, setAcl] = useState<RolePreset>('partner');
  const [scope, setScope] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() =>
      api<{ token: string; info: TokenInfo }>('POST', `stores/${seg(store)}/tokens`, {
        name,
        acl,
        // A channel's token is the whole store's: a scope left checked before is not sent.
        ...(scope.length && acl !== 'channel' ? { warehouses: scope } : {}),
        ...(expires ? { expires_at: expires } : {}),
      }),
    );
    if (answer) {
      setName('');
      setScope([]);
      toast(`Token ${answer.info.name} created`);
      onCreated(answer.info.name, answer.token);
    }
  };
  return (
    <Card title="Create a token">
      <form class="stack" onSubmit={submit}>
        <div class="form-row">
          <Field label="Name">
            <input
              name="token-name"
              required
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
          </Field>
          <Field label="Access">
            <select
              value={acl}
              onChange={(event) => setAcl(event.currentTarget.value as RolePreset)}
            >
              {(Object.keys(ROLE_PRESET) as RolePreset[]).map((preset) => (
                <option key={preset} value={preset}>
                  {ROLE_PRESET[preset]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Expires at (optional, UTC)" hint="YYYY-MM-DD HH:MM:SS">
            <input value={expires} onInput={(event) => setExpires(event.currentTarget.value)} />
          </Field>
        </div>
        {acl === 'channel' ? (
          <p class="subtle">
            A sales channel acts for the whole store: its token has no warehouses.
          </p>
        ) : (
          <fieldset class="checkboxes">
            <legend>Warehouses it may act for (none checked: every warehouse)</legend>
            {warehouses.map((warehouse) => (
              <Checkbox
                key={warehouse.code}
                checked={scope.includes(warehouse.code)}
                onChange={(checked) =>
                  setScope(
                    checked
                      ? [...scope, warehouse.code]
                      : scope.filter((code) => code !== warehouse.code),
                  )
                }
              >
                {warehouse.code}: {warehouse.name}
              </Checkbox>
            ))}
          </fieldset>
        )}
        <ErrorBanner error={action.error} />
        <div>
          <Button type="submit" variant="primary" busy={action.busy}>
            Create
          </Button>
        </div>
      </form>
    </Card>
  );
}

type Asked = { kind: 'revoke' | 'rotate'; name: string };

export function TokensPage({ store, role }: { store: string; role: string }) {
  const loaded = useLoad(async () => {
    const [tokens, warehouses] = await Promise.all([
      api<{ tokens: TokenInfo[] }>('GET', `stores/${seg(store)}/tokens`),
      api<{ warehouses: Warehouse[] }>('GET', `stores/${seg(store)}/warehouses`),
    ]);
    return { tokens: tokens.tokens, warehouses: warehouses.warehouses };
  }, store);
  const [secret, setSecret] = useState<{ name: string; token: string }>();
  const [asked, setAsked] = useState<Asked>();
  const [overlap, setOverlap] = useState('3600');
  const admin = may(role, 'admin');
  const base = `stores/${seg(store)}/tokens`;
  return (
    <Page title="Tokens" subtitle={<p>The keys partners and ERPs call store {store} with.</p>}>
      {secret && (
        <Secret
          of={`token ${secret.name}`}
          secret={secret.token}
          onClose={() => setSecret(undefined)}
        />
      )}
      {admin && loaded.data && (
        <CreateToken
          store={store}
          warehouses={loaded.data.warehouses}
          onCreated={(name, token) => {
            setSecret({ name, token });
            loaded.reload();
          }}
        />
      )}
      <ErrorBanner error={loaded.error} />
      {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
      {loaded.data && (
        <Card title="Tokens" flush>
          <DataTable<TokenInfo>
            label="Tokens"
            rows={loaded.data.tokens}
            rowKey={(token) => token.name}
            empty={
              <EmptyState title="No tokens yet">
                A partner or an ERP needs a token to call this store's API.
              </EmptyState>
            }
            columns={[
              { title: 'Name', primary: true, cell: (token) => token.name },
              { title: 'Access', cell: (token) => <Access token={token} /> },
              { title: 'Warehouses', cell: (token) => token.warehouses?.join(', ') ?? 'Every one' },
              {
                title: 'Expires',
                cell: (token) => (token.expires_at ? dateTime(token.expires_at) : 'Never'),
              },
              {
                title: 'Last used',
                cell: (token) => (token.last_used_at ? dateTime(token.last_used_at) : 'Never'),
              },
              {
                title: 'State',
                cell: (token) => {
                  const state = stateOf(token);
                  return (
                    <Badge
                      tone={state.tone}
                      title={token.revoked_at ? `revoked ${token.revoked_at} UTC` : undefined}
                    >
                      {state.words}
                    </Badge>
                  );
                },
              },
              admin && {
                title: 'Actions',
                cell: (token) =>
                  token.revoked_at ? null : (
                    <div class="button-group">
                      <Button
                        label={`Rotate ${token.name}`}
                        onClick={() => setAsked({ kind: 'rotate', name: token.name })}
                      >
                        Rotate
                      </Button>
                      <Button
                        variant="destructive"
                        label={`Revoke ${token.name}`}
                        onClick={() => setAsked({ kind: 'revoke', name: token.name })}
                      >
                        Revoke
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        </Card>
      )}
      {asked?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke token ${asked.name}?`}
          confirm="Revoke token"
          keep="Keep token"
          onClose={() => setAsked(undefined)}
          onConfirm={async () => {
            await api('POST', `${base}/${seg(asked.name)}/revoke`, {});
            toast(`Token ${asked.name} revoked`);
            loaded.reload();
          }}
        >
          <p>
            Its next call to the API is refused (401), at once. Whoever uses it needs a new token.
            This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {asked?.kind === 'rotate' && (
        <ConfirmDialog
          title={`Rotate token ${asked.name}?`}
          confirm="Rotate token"
          keep="Keep token"
          destructive={false}
          onClose={() => setAsked(undefined)}
          onConfirm={async () => {
            const answer = await api<{ token: string; info: TokenInfo }>(
              'POST',
              `${base}/${seg(asked.name)}/rotate`,
              { overlap_seconds: Number(overlap) },
            );
            setSecret({ name: answer.info.name, token: answer.token });
            toast(`Token ${asked.name} rotated`);
            loaded.reload();
          }}
        >
          <p>
            A new secret is made under the same name. The old one keeps working for the overlap,
            then stops.
          </p>
          <Field
            label="Overlap: seconds the old secret keeps working"
            size="short"
            hint="0 to 604800 (a week)"
          >
            <input
              type="number"
              min="0"
              max="604800"
              value={overlap}
              onInput={(event) => setOverlap(event.currentTarget.value)}
            />
          </Field>
        </ConfirmDialog>
      )}
    </Page>
  );
}
