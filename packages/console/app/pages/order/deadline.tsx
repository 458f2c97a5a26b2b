import { useState } from 'preact/hooks';
import { api, type OrderDetail, orderPath } from '../../api.js';
import { ErrorBanner } from '../../ui/banner.js';
import { Button } from '../../ui/button.js';
import { Card } from '../../ui/card.js';
import { Field } from '../../ui/field.js';
import { useAction } from '../../ui/load.js';
import { toast } from '../../ui/toast.js';
import { DeadlineBadge } from '../deadline-badge.js';

/** `YYYY-MM-DDTHH:MM` in the operator's time zone, as a datetime-local input holds it. */
function localInput(fulfillBy: string | null): string {
  if (fulfillBy === null) return '';
  const at = new Date(`${fulfillBy.replace(' ', 'T')}Z`);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/**
 * What a datetime-local input holds, in the operator's time zone, as UTC for the API; as typed
 * when it is no time at all, for the server to refuse naming `fulfill_by`.
 */
export function utcOfLocalInput(when: string): string {
  const at = new Date(when);
  return Number.isNaN(at.getTime()) ? when : at.toISOString();
}

/**
 * The order's deadline (docs/deadlines.md), and for an operator a way to change it: the time is
 * typed in the operator's own time zone and sent in UTC, with the reason the timeline keeps.
 */
export function DeadlineCard({
  store,
  detail,
  operator,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  operator: boolean;
  onDone: () => void;
}) {
  const [when, setWhen] = useState(localInput(detail.deadline.fulfill_by));
  const [reason, setReason] = useState('');
  const action = useAction();
  const number = detail.order.fulfillment_order_number;
  const save = async (event: Event) => {
    event.preventDefault();
    const fulfill_by = utcOfLocalInput(when);
    const done = await action.run(() =>
      api('POST', `${orderPath(store, number)}/fulfill-by`, { fulfill_by, reason }),
    );
    if (done) {
      toast(`Deadline of ${number} changed`);
      setReason('');
      onDone();
    }
  };
  return (
    <Card title="Deadline">
      <p>
        <DeadlineBadge status={detail.deadline.status} fulfillBy={detail.deadline.fulfill_by} />
      </p>
      {operator && (
        <form class="stack" onSubmit={save} aria-label="Change the deadline">
          <DeadlineFields when={when} setWhen={setWhen} reason={reason} setReason={setReason} />
          <ErrorBanner error={action.error} />
          <div>
            <Button type="submit" busy={action.busy}>
              Change deadline
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

/** A new deadline as an operator types it (in their own time zone), and why it changes. */
export function DeadlineFields({
  when,
  setWhen,
  reason,
  setReason,
}: {
  when: string;
  setWhen: (when: string) => void;
  reason: string;
  setReason: (reason: string) => void;
}) {
  return (
    <>
      <Field label="Must leave by" hint="your time zone">
        <input
          type="datetime-local"
          value={when}
          required
          onInput={(event) => setWhen(event.currentTarget.value)}
        />
      </Field>
      <Field label="Reason">
        <input value={reason} required onInput={(event) => setReason(event.currentTarget.value)} />
      </Field>
    </>
  );
}
