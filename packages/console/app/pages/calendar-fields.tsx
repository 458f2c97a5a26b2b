import type { CalendarFields, Weekday } from '@fulfil/core';
import { Checkbox } from '../ui/checkbox.js';
import { Field } from '../ui/field.js';

/**
 * The fields of a calendar (docs/deadlines.md) as a form holds them, for a warehouse's and for
 * the store's defaults alike: each left empty falls to the next (the store's, the defaults).
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

export interface CalendarForm {
  processing_days: string;
  /** null: the next calendar's days. */
  working_days: Weekday[] | null;
  holidays: string;
  cutoff: string;
  timezone: string;
}

export const calendarFormOf = (fields: CalendarFields | null | undefined): CalendarForm => ({
  processing_days: fields?.processing_days == null ? '' : String(fields.processing_days),
  working_days: fields?.working_days ?? null,
  holidays: (fields?.holidays ?? []).join('\n'),
  cutoff: fields?.cutoff ?? '',
  timezone: fields?.timezone ?? '',
});

/** The form as the API takes it: each field empty sent as null, the server checks the rest. */
export function calendarFieldsOf(form: CalendarForm) {
  const holidays = form.holidays
    .split(/\s+/)
    .map((line) => line.trim())
    .filter(Boolean);
  return {
    processing_days: form.processing_days.trim() ? Number(form.processing_days) : null,
    working_days: form.working_days,
    holidays: holidays.length ? holidays : null,
    cutoff: form.cutoff.trim() || null,
    timezone: form.timezone.trim() || null,
  };
}

/** The inputs of a calendar; `fallback` names what an empty field follows ("the store's"). */
export function CalendarInputs({
  form,
  setForm,
  fallback,
}: {
  form: CalendarForm;
  setForm: (form: CalendarForm) => void;
  fallback: string;
}) {
  const days = form.working_days;
  return (
    <>
      <div class="form-row">
        <Field label="Processing days" size="short" hint={`working days; empty: ${fallback}`}>
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
          {fallback.charAt(0).toUpperCase() + fallback.slice(1)}
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
    </>
  );
}
