import { useState } from 'preact/hooks';
import { api, type OrderDetail, seg } from '../api.js';
import { ErrorText, Field, useAction } from '../ui.js';

type Shipment = OrderDetail['shipments'][number];
type Track = Shipment['tracks'][number];

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
 * refused as a conflict.
 */
function CorrectShipmentTracks({
  store,
  number,
  shipment,
  onDone,
}: {
  store: string;
  number: string;
  shipment: Shipment;
  onDone: () => void;
}) {
  const [text, setText] = useState(shipment.tracks.map(lineOf).join('\n'));
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const path = `stores/${seg(store)}/orders/${seg(number)}/correct-tracks`;
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const tracks = tracksOf(text);
        setInvalid(typeof tracks === 'string' ? tracks : undefined);
        if (typeof tracks === 'string') return;
        const body = { shipment: shipment.id, tracks, reason };
        if (await action.run(() => api<OrderDetail>('POST', path, body))) onDone();
      }}
    >
      <fieldset>
        <legend>Correct the tracks of shipment {shipment.id}</legend>
        <Field
          label={`Tracks of shipment ${shipment.id}, one per line: carrier code | title | track number`}
        >
          <textarea rows={2} value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </Field>
        <div class="row">
          <Field label={`Reason for correcting shipment ${shipment.id}`}>
            <input
              required
              value={reason}
              onInput={(event) => setReason(event.currentTarget.value)}
            />
          </Field>
          <button type="submit" disabled={action.busy}>
            Correct tracks
          </button>
        </div>
        <ErrorText error={invalid ?? action.error} />
      </fieldset>
    </form>
  );
}

/** A track correction form for each shipment of the order. */
export function CorrectTracks({
  store,
  detail,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  onDone: () => void;
}) {
  return (
    <>
      {detail.shipments.map((shipment) => (
        <CorrectShipmentTracks
          key={shipment.id}
          store={store}
          number={detail.order.fulfillment_order_number}
          shipment={shipment}
          onDone={onDone}
        />
      ))}
    </>
  );
}
