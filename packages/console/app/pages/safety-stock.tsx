import { useState } from 'preact/hooks';
import { api, type StockRow, seg, type Warehouse } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';

/**
 * Safety stock, set in place: what routing keeps back (available = on hand − reserved − safety
 * stock). One form for a sku at a warehouse and for a warehouse's default.
 */
function SafetyStockForm({
  value: initial,
  label,
  placeholder,
  save,
}: {
  value: string;
  label: string;
  /** Shown when the field is empty: what applies then. */
  placeholder?: string;
  save: (value: number | null) => Promise<string | undefined>;
}) {
  const [value, setValue] = useState(initial);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const said = await action.run(() => save(value.trim() === '' ? null : Number(value)));
    if (said) toast(said);
  };
  return (
    <form class="on-hand" onSubmit={submit}>
      <input
        class="control"
        type="number"
        min="0"
        step="1"
        required={placeholder === undefined}
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <Button
        type="submit"
        busy={action.busy}
        label={`Set ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
      >
        Set
      </Button>
      <ErrorBanner error={action.error} />
    </form>
  );
}

/**
 * The safety stock of one sku at one warehouse. The row shows the figure in effect; emptying the
 * field drops the sku's own figure, so the warehouse's default applies again.
 */
export function SkuSafetyStock({
  store,
  row,
  onSaved,
}: {
  store: string;
  row: StockRow;
  onSaved: () => void;
}) {
  return (
    <SafetyStockForm
      value={String(row.safety_stock)}
      label={`Safety stock of ${row.sku} in ${row.warehouse_code}`}
      placeholder="default"
      save={async (safety_stock) => {
        const path = `stores/${seg(store)}/stock/${seg(row.warehouse_code)}/${seg(row.sku)}`;
        const saved = await api<StockRow>('PUT', path, { safety_stock });
        onSaved();
        return safety_stock === null
          ? `Safety stock of ${row.sku} at ${row.warehouse_code} back to the warehouse's ${saved.safety_stock}`
          : `Safety stock of ${row.sku} at ${row.warehouse_code} set to ${saved.safety_stock}`;
      }}
    />
  );
}

/** A warehouse's default safety stock, for every sku there without its own. */
export function WarehouseSafetyStock({
  store,
  warehouse,
  onSaved,
}: {
  store: string;
  warehouse: Warehouse;
  onSaved: () => void;
}) {
  return (
    <SafetyStockForm
      value={String(warehouse.safety_stock)}
      label={`Default safety stock of ${warehouse.code}`}
      save={async (safety_stock) => {
        // A PUT replaces the warehouse: every field read goes back, only the default changed.
        await api('PUT', `stores/${seg(store)}/warehouses/${seg(warehouse.code)}`, {
          ...warehouse,
          safety_stock: safety_stock ?? 0,
        });
        onSaved();
        return `Default safety stock of ${warehouse.code} set to ${safety_stock ?? 0}`;
      }}
    />
  );
}
