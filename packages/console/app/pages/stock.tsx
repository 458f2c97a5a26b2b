import { useState } from 'preact/hooks';
import { api, query, type ReservationMismatch, type StockRow, seg } from '../api.js';
import { ErrorText, Field, Loading, may, PageTitle, Table, useAction, useLoad } from '../ui.js';

function OnHand({ store, row, onSaved }: { store: string; row: StockRow; onSaved: () => void }) {
  const [value, setValue] = useState(String(row.on_hand));
  const action = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const path = `stores/${seg(store)}/stock/${seg(row.warehouse_code)}/${seg(row.sku)}`;
    const saved = await action.run(() => api('PUT', path, { on_hand: Number(value) }));
    if (saved) onSaved();
  };
  return (
    <form class="inline" onSubmit={save}>
      <input
        type="number"
        min="0"
        step="1"
        required
        aria-label={`On hand of ${row.sku} in ${row.warehouse_code}`}
        value={value}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <button type="submit" disabled={action.busy}>
        Set
      </button>
      <ErrorText error={action.error} />
    </form>
  );
}

/** Reserved stock against the open lines that hold it; an operator may set it right. */
function Reservations({
  store,
  editable,
  onFixed,
}: {
  store: string;
  editable: boolean;
  onFixed: () => void;
}) {
  const [mismatches, setReservationMismatches] = useState<ReservationMismatch[]>();
  const action = useAction();
  const path = `stores/${seg(store)}/reservations`;
  const check = async () => {
    const answer = await action.run(() => api<{ mismatches: ReservationMismatch[] }>('GET', path));
    if (answer) setReservationMismatches(answer.mismatches);
  };
  const fix = async () => {
    const answer = await action.run(() =>
      api<{ fixed: ReservationMismatch[] }>('POST', `${path}/fix`, {}),
    );
    if (answer) {
      setReservationMismatches([]);
      onFixed();
    }
  };
  return (
    <section aria-labelledby="reservations-title">
      <h2 id="reservations-title">Reservations</h2>
      <button type="button" onClick={check} disabled={action.busy}>
        Check reserved stock against open orders
      </button>
      <ErrorText error={action.error} />
      {mismatches && mismatches.length === 0 && <p role="status">Every reservation matches.</p>}
      {mismatches && mismatches.length > 0 && (
        <>
          <ul>
            {mismatches.map((row) => (
              <li key={`${row.warehouse_code}/${row.sku}`}>
                {row.sku} in {row.warehouse_code}: reserved {row.reserved}, open orders hold{' '}
                {row.expected}
              </li>
            ))}
          </ul>
          {editable && (
            <button type="button" class="danger" onClick={fix} disabled={action.busy}>
              Set reserved to what open orders hold
            </button>
          )}
        </>
      )}
    </section>
  );
}

export function StockPage({ store, role }: { store: string; role: string }) {
  const [sku, setSku] = useState('');
  const [searched, setSearched] = useState('');
  const loaded = useLoad(
    () =>
      api<{ items: StockRow[]; next: string | null }>(
        'GET',
        `stores/${seg(store)}/stock${query({ sku: searched, limit: 200 })}`,
      ),
    `${store}/${searched}`,
  );
  const editable = may(role, 'operator');
  return (
    <>
      <PageTitle>Stock of {store}</PageTitle>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (searched === sku) loaded.reload();
          setSearched(sku);
        }}
      >
        <Field label="SKU starts with">
          <input type="search" value={sku} onInput={(event) => setSku(event.currentTarget.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <Loading loaded={loaded} />
      {loaded.data && (
        <Table
          label="Stock"
          head={['Warehouse', 'SKU', 'On hand', 'Reserved', 'Available']}
          numeric={['On hand', 'Reserved', 'Available']}
        >
          {loaded.data.items.map((row) => (
            <tr key={`${row.warehouse_code}/${row.sku}`}>
              <td>{row.warehouse_code}</td>
              <td>{row.sku}</td>
              <td class="num">
                {editable ? (
                  <OnHand key={row.on_hand} store={store} row={row} onSaved={loaded.reload} />
                ) : (
                  row.on_hand
                )}
              </td>
              <td class="num">{row.reserved}</td>
              <td class="num available">{row.available}</td>
            </tr>
          ))}
        </Table>
      )}
      {loaded.data?.next && <p>More rows match: narrow the SKU.</p>}
      <Reservations store={store} editable={editable} onFixed={loaded.reload} />
    </>
  );
}
