import { useState } from 'preact/hooks';
import { api, type Store, seg } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { useAction } from '../ui/load.js';
import { toast } from '../ui/toast.js';
import { CalendarInputs, calendarFieldsOf, calendarFormOf } from './calendar-fields.js';

/**
 * The store's calendar (docs/deadlines.md): what every warehouse that sets a field of its own
 * calendar to nothing follows, and every warehouse of an order whose warehouse has no calendar.
 * Each field left empty is the default (1 processing day, Monday to Friday, 17:00, UTC). The
 * server checks it; a refusal names the field (`settings.calendar.cutoff`) in the banner.
 */
export function StoreCalendar({ store, onSaved }: { store: Store; onSaved: () => void }) {
  const [form, setForm] = useState(calendarFormOf(store.settings.calendar));
  const action = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() =>
      // Only the calendar: the other settings stay as they are.
      api<Store>('PUT', `stores/${seg(store.store_code)}`, {
        settings: { calendar: calendarFieldsOf(form) },
      }),
    );
    if (answer) {
      setForm(calendarFormOf(answer.settings.calendar));
      toast(`Calendar of store ${store.store_code} saved`);
      onSaved();
    }
  };
  return (
    <Card title="Store calendar">
      <form class="stack" onSubmit={save} aria-label="Store calendar">
        <p>
          The calendar of every warehouse that leaves a field of its own empty. Empty fields here
          are the defaults: 1 processing day, Monday to Friday, cutoff 17:00, UTC.
        </p>
        <CalendarInputs form={form} setForm={setForm} fallback="the default" />
        <ErrorBanner error={action.error} />
        <div>
          <Button type="submit" variant="primary" busy={action.busy}>
            Save store calendar
          </Button>
        </div>
      </form>
    </Card>
  );
}
