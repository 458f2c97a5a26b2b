import { useState } from 'preact/hooks';
import {
  ApiError,
  api,
  type QuarantineMismatch,
  query,
  type ReservationMismatch,
  type StockRow,
  seg,
} from '../api.js';
import { may } from '../context.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { Field } from '../ui/field.js';
import { plural } from '../ui/format.js';
import { useAction, useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { toast } from '../ui/toast.js';
import { SkuSafetyStock } from './safety-stock.js';
import { StockHistory } from './stock-history.js';

/** The on hand the server has now, when a guarded set found it moved (409 on `change_from`). */
function movedOnHand(caught: unknown): number | undefined {
  if (!(caught instanceof ApiError) || caught.status !== 409) return undefined;
  const named = caught.parameters.find((parameter) => parameter.fieldName === 'change_from');
  return named?.fieldValue === undefined ? undefined : Number(named.fieldValue);
}

/**
 * On hand, set in place; a toast says what was set. The set is guarded by the figure the operator
 * saw: when a ship or a partner's sync moved it meanwhile, the server refuses, the field tells
 * the new figure, and a second Set applies the typed value over it.
 */
function OnHand({ store, row, onSaved }: { store: string; row: StockRow; onSaved: () => void }) {
  const [value, setValue] = useState(String(row.on_hand));
  const [seen, setSeen] = useState(row.on_hand);
  const action = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const path = `stores/${seg(store)}/stock/${seg(row.warehouse_code)}/${seg(row.sku)}`;
    const saved = await action.run(async () => {
      try {
        return await api<StockRow>('PUT', path, { on_hand: Number(value), change_from: seen });
      } catch (caught) {
        const moved = movedOnHand(caught);
        if (moved === undefined) throw caught;
        setSeen(moved);
        throw new Error(
          `The on hand moved to ${moved} since this page read ${seen}. Set it to ${value} anyway? Press Set again.`,
        );
      }
    });
    if (saved) {
      toast(`Stock of ${row.sku} at ${row.warehouse_code} set to ${saved.on_hand}`);
      onSaved();
    }
  };
  return (
    <form class="on-hand" onSubmit={save}>
      <input
        class="control"
        type="number"
        min="0"
        step="1"
        required
        aria-label={`On hand of ${row.sku} in ${row.warehouse_code}`}
        value={value}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <Button type="submit" busy={action.busy} label={`Set ${row.sku} at ${row.warehouse_code}`}>
        Set
      </Button>
      <ErrorBanner error={action.error} />
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
  const [mismatches, setMismatches] = useState<ReservationMismatch[]>();
  const [quarantine, setQuarantine] = useState<QuarantineMismatch[]>([]);
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const path = `stores/${seg(store)}/reservations`;
  const check = async () => {
    const answer = await action.run(() =>
      api<{ mismatches: ReservationMismatch[]; quarantine: QuarantineMismatch[] }>('GET', path),
    );
    if (answer) {
      setMismatches(answer.mismatches);
      setQuarantine(answer.quarantine);
    }
  };
  const differing = (mismatches?.length ?? 0) + quarantine.length;
  return (
    <Card
      title="Reservations"
      actions={
        <Button onClick={check} busy={action.busy}>
          Check reserved stock against open orders
        </Button>
      }
    >
      <ErrorBanner error={action.error} />
      {!mismatches && (
        <p class="subtle">
          Reserved stock should be what the open orders hold: every line routed there and not
          shipped yet, accepted or not. The check lists every row where it is not.
        </p>
      )}
      {mismatches && differing === 0 && <p role="status">Every reservation matches.</p>}
      {quarantine.length > 0 && (
        <DataTable<QuarantineMismatch>
          label="Quarantined counts that differ from the returns' receipts"
          rows={quarantine}
          rowKey={(row) => `${row.warehouse_code}/${row.sku}`}
          columns={[
            { title: 'SKU', primary: true, cell: (row) => row.sku },
            { title: 'Warehouse', cell: (row) => row.warehouse_code },
            { title: 'Quarantined', numeric: true, cell: (row) => row.quarantined },
            { title: 'Receipts quarantined', numeric: true, cell: (row) => row.expected },
          ]}
        />
      )}
      {mismatches && differing > 0 && (
        <>
          {mismatches.length > 0 && (
            <DataTable<ReservationMismatch>
              label="Reservations that differ"
              rows={mismatches}
              rowKey={(row) => `${row.warehouse_code}/${row.sku}`}
              columns={[
                { title: 'SKU', primary: true, cell: (row) => row.sku },
                { title: 'Warehouse', cell: (row) => row.warehouse_code },
                { title: 'Reserved', numeric: true, cell: (row) => row.reserved },
                { title: 'Open orders hold', numeric: true, cell: (row) => row.expected },
              ]}
            />
          )}
          {editable && (
            <div>
              <Button variant="destructive" onClick={() => setAsking(true)}>
                Set reserved to what open orders hold
              </Button>
            </div>
          )}
        </>
      )}
      {asking && mismatches && (
        <ConfirmDialog
          title={`Set ${plural(differing, 'row')} right?`}
          confirm="Set reserved"
          keep="Keep as it is"
          reason={{ label: 'Reason (optional)' }}
          onClose={() => setAsking(false)}
          onConfirm={async (reason) => {
            await api('POST', `${path}/fix`, reason ? { reason } : {});
            toast(`${plural(differing, 'row')} set to what open orders and receipts hold`);
            setMismatches([]);
            setQuarantine([]);
            onFixed();
          }}
        >
          <p>
            Each row's reserved becomes what the open orders hold there, and each quarantined count
            what the returns' receipts quarantined; available follows. The store's audit records it.
          </p>
        </ConfirmDialog>
      )}
    </Card>
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
  const [shown, setShown] = useState<{ warehouse: string; sku: string }>();
  return (
    <Page
      title="Stock"
      subtitle={
        <p>
          On hand, reserved, safety stock, available and quarantined per warehouse of store {store}.
        </p>
      }
    >
      <Card flush label="Stock rows">
        <form
          class="form-row card-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (searched === sku) loaded.reload();
            setSearched(sku);
          }}
        >
          <Field label="SKU starts with">
            <input
              type="search"
              value={sku}
              onInput={(event) => setSku(event.currentTarget.value)}
            />
          </Field>
          <Button type="submit">Search</Button>
        </form>
        <ErrorBanner error={loaded.error} />
        {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
        {loaded.data && (
          <DataTable<StockRow>
            label="Stock"
            rows={loaded.data.items}
            rowKey={(row) => `${row.warehouse_code}/${row.sku}`}
            empty={
              <EmptyState title="No stock here">
                Stock appears when a partner sends it, a seed file loads it or an operator sets it.
              </EmptyState>
            }
            columns={[
              { title: 'SKU', primary: true, cell: (row) => row.sku },
              { title: 'Warehouse', cell: (row) => row.warehouse_code },
              {
                title: 'On hand',
                numeric: true,
                cell: (row) =>
                  editable ? (
                    <OnHand key={row.on_hand} store={store} row={row} onSaved={loaded.reload} />
                  ) : (
                    row.on_hand
                  ),
              },
              { title: 'Reserved', numeric: true, cell: (row) => row.reserved },
              // Kept back from routing: the sku's own, else its warehouse's.
              {
                title: 'Safety stock',
                numeric: true,
                cell: (row) =>
                  editable ? (
                    <SkuSafetyStock
                      key={row.safety_stock}
                      store={store}
                      row={row}
                      onSaved={loaded.reload}
                    />
                  ) : (
                    row.safety_stock
                  ),
              },
              {
                title: 'Available',
                numeric: true,
                cell: (row) => <span class="available">{row.available}</span>,
              },
              // Returned goods held apart: not on hand, never available.
              { title: 'Quarantined', numeric: true, cell: (row) => row.quarantined },
              {
                title: 'History',
                cell: (row) => (
                  <Button
                    label={`History of ${row.sku} at ${row.warehouse_code}`}
                    onClick={() => setShown({ warehouse: row.warehouse_code, sku: row.sku })}
                  >
                    History
                  </Button>
                ),
              },
            ]}
          />
        )}
        {loaded.data?.next && <p class="subtle">More rows match: narrow the SKU.</p>}
      </Card>
      {shown && (
        <StockHistory
          key={`${shown.warehouse}/${shown.sku}`}
          store={store}
          warehouse={shown.warehouse}
          sku={shown.sku}
          onClose={() => setShown(undefined)}
        />
      )}
      <Reservations store={store} editable={editable} onFixed={loaded.reload} />
    </Page>
  );
}
