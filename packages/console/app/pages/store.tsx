import { useState } from 'preact/hooks';
import { api, type Store, seg, type Warehouse } from '../api.js';
import { ErrorText, Loading, may, PageTitle, Table, useAction, useLoad } from '../ui.js';

const FLAGS = [
  ['partial_items', 'Partial shipment by items'],
  ['partial_qty', 'Partial shipment by quantity'],
  ['reroute', 'Reroute rejected lines to another warehouse'],
] as const;

function Settings({ store, role }: { store: Store; role: string }) {
  const [settings, setSettings] = useState(store.settings);
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const admin = may(role, 'admin');
  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const answer = await action.run(() =>
      api<Store>('PUT', `stores/${seg(store.store_code)}`, { settings }),
    );
    if (answer) {
      setSettings(answer.settings);
      setSaved(true);
    }
  };
  return (
    <form onSubmit={save} aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <fieldset disabled={!admin}>
        <legend>Order flow</legend>
        {FLAGS.map(([name, label]) => (
          <label key={name} class="check">
            <input
              type="checkbox"
              checked={settings[name] === true}
              onChange={(event) =>
                setSettings({ ...settings, [name]: event.currentTarget.checked })
              }
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {admin && (
        <button type="submit" disabled={action.busy}>
          Save settings
        </button>
      )}
      {saved && <p role="status">Saved.</p>}
      <ErrorText error={action.error} />
    </form>
  );
}

export function StorePage({ store, role }: { store: string; role: string }) {
  const loaded = useLoad(
    () =>
      Promise.all([
        api<Store>('GET', `stores/${seg(store)}`),
        api<{ warehouses: Warehouse[] }>('GET', `stores/${seg(store)}/warehouses`),
      ]),
    store,
  );
  const action = useAction();
  const admin = may(role, 'admin');
  const toggle = (warehouse: Warehouse) =>
    action
      .run(() =>
        api('PUT', `stores/${seg(store)}/warehouses/${seg(warehouse.code)}`, {
          name: warehouse.name,
          active: !warehouse.active,
        }),
      )
      .then(loaded.reload);
  const [settings, warehouses] = loaded.data ?? [];
  return (
    <>
      <PageTitle>Store {store}</PageTitle>
      <Loading loaded={loaded} />
      {settings && <Settings store={settings} role={role} />}
      {warehouses && (
        <section aria-labelledby="warehouses-title">
          <h2 id="warehouses-title">Warehouses</h2>
          <ErrorText error={action.error} />
          <Table
            label="Warehouses"
            head={['Code', 'Name', 'Fulfilled by', 'Priority', 'State', admin && 'Action']}
            numeric={['Priority']}
          >
            {warehouses.warehouses.map((warehouse) => (
              <tr key={warehouse.code}>
                <td>{warehouse.code}</td>
                <td>{warehouse.name}</td>
                <td>{warehouse.fulfilled_by}</td>
                <td class="num">{warehouse.priority}</td>
                <td>{warehouse.active ? 'active' : 'inactive'}</td>
                {admin && (
                  <td>
                    <button
                      type="button"
                      disabled={action.busy}
                      aria-label={`${warehouse.active ? 'Deactivate' : 'Activate'} ${warehouse.code}`}
                      onClick={() => toggle(warehouse)}
                    >
                      {warehouse.active ? 'Deactivate' : 'Activate'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </Table>
        </section>
      )}
    </>
  );
}
