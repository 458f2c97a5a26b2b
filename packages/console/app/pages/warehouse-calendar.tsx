import type { Weekday } from '@fulfil/core';
import { useState } from 'preact/hooks';
import { api, seg, type Warehouse } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { Checkbox } from '../ui/checkbox.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';

/**
 * A warehouse's calendar (docs/deadlines.md), from which the deadline of each order it takes is
 * derived: each field left empty is the store's. The server checks it; a refusal names the
 * field in the banner.
 */

const DAYS: readonly [Weekday, string][] = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];

interface Form {
  processing_days: string;
  /** null: the store's days. */
  working_days: Weekday[] | null;
  holidays: string;
  cutoff: string;
  timezone: string;
}

const formOf = (warehouse: Warehouse): Form => ({
  processing_days: warehouse.processing_days === null ? '' : String(warehouse.processing_days),
  working_days: warehouse.working_days,
  holidays: (warehouse.holidays ?? []).join('\n'),
  cutoff: warehouse.cutoff ?? '',
  timezone: warehouse.timezone ?? '',
});

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
  const [form, setForm] = useState<Form | null>(warehouse ? formOf(warehouse) : null);
  const action = useAction();
  if (!warehouse || !form) return null;
  const choose = (next: string) => {
    setCode(next);
    const chosen = warehouses.find((known) => known.code === next);
    if (chosen) setForm(formOf(chosen));
  };
  const days = form.working_days;
  const save = async (event: Event) => {
    event.preventDefault();
    const holidays = form.holidays
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean);
    const done = await action.run(() =>
      // A PUT replaces the warehouse: every field read goes back, the calendar's as typed.
      api('PUT', `stores/${seg(store)}/warehouses/${seg(warehouse.code)}`, {
        ...warehouse,
        processing_days: form.processing_days.trim() ? Number(form.processing_days) : null,
        working_days: form.working_days,
        holidays: holidays.length ? holidays : null,
        cutoff: form.cutoff.trim() || null,
        timezone: form.timezone.trim() || null,
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
        <div class="form-row">
          <Field label="Processing days" size="short" hint="working days; empty: the store's">
            <input
              type="number"
              min="1"
              max="365"
              step="1"
              value={form.processing_days}
              onInput={(event) => setForm({ ...form, processing_days: event.currentTarget.value })}
            />
          </Field>
          <Field label="Cutoff" size="short" hint="local time, HH:MM">
            <input
              value={form.cutoff}
              placeholder="17:00"
              onInput={(event) => setForm({ ...form, cutoff: event.currentTarget.value })}
            />
          </Field>
          <Field label="Time zone" hint="IANA, such as Europe/Rome">
            <input
              value={form.timezone}
              onInput={(event) => setForm({ ...form, timezone: event.currentTarget.value })}
            />
          </Field>
        </div>
        <fieldset class="checkboxes">
          <legend>Working days</legend>
          <Checkbox
            checked={days === null}
            onChange={(checked) =>
              setForm({
                ...form,
                working_days: checked ? null : ['mon', 'tue', 'wed', 'thu', 'fri'],
              })
            }
          >
            The store's
          </Checkbox>
          {days !== null &&
            DAYS.map(([day, words]) => (
              <Checkbox
                key={day}
                checked={days.includes(day)}
                onChange={(checked) =>
                  setForm({
                    ...form,
                    working_days: checked
                      ? DAYS.map(([known]) => known).filter((d) => d === day || days.includes(d))
                      : days.filter((d) => d !== day),
                  })
                }
              >
                {words}
              </Checkbox>
            ))}
        </fieldset>
        <Field label="Holidays" hint="dates YYYY-MM-DD, one a line">
          <textarea
            rows={3}
            value={form.holidays}
            onInput={(event) => setForm({ ...form, holidays: event.currentTarget.value })}
          />
        </Field>
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
