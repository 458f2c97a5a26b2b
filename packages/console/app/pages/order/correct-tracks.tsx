import { useState } from 'preact/hooks';
import { api, type OrderDetail, orderPath, type Shipment, type Track } from '../../api.js';
import { ErrorBanner } from '../../ui/banner.js';
import { Button } from '../../ui/button.js';
import { Field } from '../../ui/field.js';
import { useAction } from '../../ui/load.js';
import { toast } from '../../ui/toast.js';

const SEPARATOR = ' | ';

/** A track as a line of the form: carrier code | title | track number. */
function lineOf(track: Track): string {
  return [track.carrier_code, track.title, track.track_number].join(SEPARATOR);
}

/** The form's lines as tracks, or the first line that is not three parts. */
function tracksOf(text: string): Track[] | string {
  const tracks: Track[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parts = line.split('|').map((part) => part.trim());
    const [carrier, title, number] = parts;
    if (parts.length !== 3 || !number) {
      return `"${line}" is not "carrier code | title | track number".`;
    }
    tracks.push({ carrier_code: carrier ?? '', title: title ?? '', track_number: number });
  }
  return tracks;
}

/**
 * Replaces the tracks recorded for one shipment, with a reason (docs/admin-api.md): a partner
 * who shipped with a wrong track number cannot send another one, a ship with other tracks is
 * refused as a conflict. Folded away until an operator opens it.
 */
export function CorrectTracks({
  store,
  number,
  shipment,
  position,
  onDone,
}: {
  store: string;
  number: string;
  shipment: Shipment;
  /** The shipment's place among the order's, as its card names it. */
  position: number;
  onDone: () => void;
}) {
  const [text, setText] = useState(shipment.tracks.map(lineOf).join('\n'));
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const tracks = tracksOf(text);
    setInvalid(typeof tracks === 'string' ? tracks : undefined);
    if (typeof tracks === 'string') return;
    const body = { shipment: shipment.id, tracks, reason };
    const done = await action.run(() =>
      api<OrderDetail>('POST', `${orderPath(store, number)}/correct-tracks`, body),
    );
    if (done) {
      toast(`Tracks of shipment ${position} corrected`);
      onDone();
    }
  };
  return (
    <details class="disclosure">
      <summary>Correct the tracks of shipment {position}</summary>
      <form class="stack" onSubmit={submit}>
        <Field
          label={`Tracks of shipment ${position}, one per line: carrier code | title | track number`}
          size="full"
        >
          <textarea rows={2} value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </Field>
        <div class="form-row">
          <Field label={`Reason for correcting shipment ${position}`} size="long">
            <input
              required
              value={reason}
              onInput={(event) => setReason(event.currentTarget.value)}
            />
          </Field>
          <Button type="submit" busy={action.busy}>
            Correct tracks
          </Button>
        </div>
        <ErrorBanner error={invalid ?? action.error} />
      </form>
    </details>
  );
}
