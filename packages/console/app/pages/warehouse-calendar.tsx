import { useState } from 'preact/hooks';
import { api, seg, type Warehouse } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';
import {
  type CalendarForm,
  CalendarInputs,
  calendarFieldsOf,
  calendarFormOf,
} from './calendar-fields.js';

/**
 * A warehouse's calendar (docs/deadlines.md), from which the deadline of each order it takes is
 * derived: each field left empty is the store's. The server checks it; a refusal names the
 * field in the banner.
 */

/** In words, for the warehouses table: its own fields, or the store's. */
export function calendarWords(warehouse: Warehouse): string {
  const own = [
    warehouse.working_days?.join(' '),
    warehouse.cutoff && `cutoff ${warehouse.cutoff}`,
    warehouse.timezone,
    warehouse.processing_days !== null && `${warehouse.processing_days} d`,
    warehouse.holidays?.length && `${warehouse.holidays.length} holidays`,
  ].filter(Boolean);
  return own.length ? own.join(', ') : "The store's";
}

export function WarehouseCalendar({
  store,
  warehouses,
  onSaved,
}: {
  store: string;
  warehouses: readonly Warehouse[];
  onSaved: () => void;
}) {
  const [code, setCode] = useState(warehouses[0]?.code ?? '');
  const warehouse = warehouses.find((known) => known.code === code);
  const [form, setForm] = useState<CalendarForm | null>(
    warehouse ? calendarFormOf(warehouse) : null,
  );
  const action = useAction();
  if (!warehouse || !form) return null;
  const choose = (next: string) => {
    setCode(next);
    const chosen = warehouses.find((known) => known.code === next);
    if (chosen) setForm(calendarFormOf(chosen));
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(() =>
      // A PUT replaces the warehouse: every field read goes back, the calendar's as typed.
      api('PUT', `stores/${seg(store)}/warehouses/${seg(warehouse.code)}`, {
        ...warehouse,
        ...calendarFieldsOf(form),
      }),
    );
    if (done) {
      toast(`Calendar of ${warehouse.code} saved`);
      onSaved();
    }
  };
  return (
    <Card title="Warehouse calendar">
      <form class="stack" onSubmit={save} aria-label="Warehouse calendar">
        <p>
          When an order taken in must leave: its working days, counted from the day it arrives (or
          the next one, after the cutoff). Empty fields follow the store.
        </p>
        <Field label="Warehouse">
          <select value={code} onChange={(event) => choose(event.currentTarget.value)}>
            {warehouses.map((known) => (
              <option key={known.code} value={known.code}>
                {known.code}: {known.name}
              </option>
            ))}
          </select>
        </Field>
        <CalendarInputs form={form} setForm={setForm} fallback="the store's" />
        <ErrorBanner error={action.error} />
        <div>
          <Button type="submit" variant="primary" busy={action.busy}>
            Save calendar
          </Button>
        </div>
      </form>
    </Card>
  );
}
