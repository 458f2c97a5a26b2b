import type { Label, OrderDetail, Shipment } from '../../api.js';
import { orderPath } from '../../api.js';
import { Badge } from '../../ui/badge.js';
import { Card } from '../../ui/card.js';
import { Facts } from '../../ui/facts.js';
import { dateTime, money } from '../../ui/format.js';
import { LABEL_STATUS } from '../../ui/words.js';
import { CorrectTracks } from './correct-tracks.js';
import { TrackList } from './tracks.js';

/** Formats the browser shows itself; any other (ZPL) is for a printer, and downloads. */
const SHOWN = new Set(['pdf', 'png']);

/** A courier label: to view and print, to download for a thermal printer, or its state. */
function LabelLink({ store, number, label }: { store: string; number: string; label: Label }) {
  const state = LABEL_STATUS[label.status];
  const name = `label of parcel ${label.parcel_index} of ${label.parcel_count}`;
  if (label.status !== 'live') {
    return (
      <span class="inline">
        <Badge tone={state.tone}>{state.words}</Badge> <span class="subtle">{name}</span>
      </span>
    );
  }
  const format = (label.document_format ?? '').toLowerCase();
  if (label.document !== null) {
    const url = `api/${orderPath(store, number)}/labels/${label.id}/document`;
    return SHOWN.has(format) ? (
      <a href={url} target="_blank" rel="noopener">
        View and print {format.toUpperCase()} {name}
      </a>
    ) : (
      <a href={url} download>
        Download {format.toUpperCase() || 'the'} {name}
      </a>
    );
  }
  return label.document_url && /^https?:\/\//.test(label.document_url) ? (
    <a href={label.document_url} target="_blank" rel="noopener noreferrer">
      Open the {name} at the carrier
    </a>
  ) : (
    <span class="subtle">No document for the {name}</span>
  );
}

/** One shipment (Medusa's fulfillment card): when, what, its tracks as links, its labels. */
function ShipmentCard({
  store,
  detail,
  shipment,
  position,
  labels,
  editable,
  onChanged,
}: {
  store: string;
  detail: OrderDetail;
  shipment: Shipment;
  position: number;
  labels: readonly Label[];
  editable: boolean;
  onChanged: () => void;
}) {
  const number = detail.order.fulfillment_order_number;
  const own = labels.filter((label) => label.shipment_number === position);
  const items = shipment.items.map((line) => {
    const item = detail.order.items.find((candidate) => candidate.id === line.item_id);
    return `${line.qty} × ${item ? `${item.name} (${item.sku})` : `item ${line.item_id}`}`;
  });
  return (
    <Card title={`Shipment ${position}`} badge={<Badge tone="success">Shipped</Badge>}>
      <Facts
        rows={[
          ['Shipped', dateTime(shipment.created_at)],
          ['Items', items.join(', ')],
          ['Tracks', <TrackList key="tracks" tracks={shipment.tracks} labels={labels} />],
          own.length > 0 && [
            'Labels',
            <ul key="labels" class="plain-list">
              {own.map((label) => (
                <li key={label.id}>
                  <LabelLink store={store} number={number} label={label} />
                </li>
              ))}
            </ul>,
          ],
        ]}
      />
      {editable && (
        <CorrectTracks
          store={store}
          number={number}
          shipment={shipment}
          position={position}
          onDone={onChanged}
        />
      )}
    </Card>
  );
}

export function ShipmentCards(props: {
  store: string;
  detail: OrderDetail;
  labels: readonly Label[];
  editable: boolean;
  onChanged: () => void;
}) {
  return (
    <>
      {props.detail.shipments.map((shipment, index) => (
        <ShipmentCard key={shipment.id} {...props} shipment={shipment} position={index + 1} />
      ))}
    </>
  );
}

/** The order's invoices: number, date, lines and the shipping invoiced. */
export function InvoicesCard({
  detail,
  currency,
}: {
  detail: OrderDetail;
  currency: string | null;
}) {
  if (detail.invoices.length === 0) return null;
  return (
    <Card title="Invoices">
      {detail.invoices.map((invoice) => (
        <Facts
          key={invoice.id}
          rows={[
            ['Invoice', invoice.invoice_number ?? String(invoice.id)],
            ['Date', dateTime(invoice.created_at)],
            [
              'Lines',
              invoice.item_ids
                .map((id) => detail.order.items.find((item) => item.id === id)?.sku ?? `item ${id}`)
                .join(', '),
            ],
            ['Shipping', money(invoice.shipping_amount_incl_tax, currency)],
          ]}
        />
      ))}
    </Card>
  );
}
