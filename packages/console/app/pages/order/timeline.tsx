import type { HoldReason } from '@fulfil/core';
import { type ComponentChildren, Fragment } from 'preact';
import type { Label, OrderDetail, OrderItem, Shipment, TimelineEntry, Track } from '../../api.js';
import { Card } from '../../ui/card.js';
import { EmptyState } from '../../ui/empty-state.js';
import { dateTime, money, plural } from '../../ui/format.js';
import { CANCELLATION_REASON, HOLD_REASON, humanize } from '../../ui/words.js';
import { OrderLink } from '../order-link.js';
import { TrackList } from './tracks.js';

/**
 * The order's timeline, newest first (Medusa's order activity, Polaris' timeline): each entry
 * says what happened in words, who did it and when, why, and every detail the admin API
 * recorded (where lines moved and as which order, tracks before and after, the partials
 * allowed); the request id on demand.
 */

export interface TimelineContext {
  store: string;
  currency: string | null;
  /** The order's warehouse: who a cancellation request asks. */
  warehouse: string;
  items: readonly OrderItem[];
  /** Every hold of the order: a release names the hold's reason. */
  holds: OrderDetail['holds'];
  labels: readonly Label[];
  /** The order's shipments, oldest first: a shipment is named by its place among them. */
  shipments: readonly Shipment[];
}

/** `1` for the order's first shipment, by its id; the id itself for one it no longer has. */
export function shipmentPosition(shipments: readonly Shipment[], id: unknown): string {
  const index = shipments.findIndex((shipment) => shipment.id === id);
  return index < 0 ? String(text(id) ?? '—') : String(index + 1);
}

type Details = Record<string, unknown>;

const isRecord = (value: unknown): value is Details =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

/** `2 × Product SKU-1 (SKU-1)` for an item of the order by id, or a line given by sku. */
function lineOf(context: TimelineContext, line: unknown): string | null {
  if (typeof line === 'number') {
    const item = context.items.find((candidate) => candidate.id === line);
    return item ? `${item.qty} × ${item.sku}` : `item ${line}`;
  }
  if (!isRecord(line)) return null;
  const item = context.items.find((candidate) => candidate.id === line.item_id);
  const sku = text(line.sku) ?? item?.sku ?? (line.item_id ? `item ${line.item_id}` : null);
  const qty = text(line.qty) ?? (item ? String(item.qty) : null);
  return sku && (qty ? `${qty} × ${sku}` : sku);
}

const lines = (context: TimelineContext, value: unknown) =>
  list(value)
    .map((line) => lineOf(context, line))
    .filter((line): line is string => line !== null)
    .join(', ');

/** What a receipt said of one returned line: `1 restocked, 1 quarantined`. */
function receiptWords(line: Record<string, unknown>): string {
  const said = (['restocked', 'quarantined', 'disposed', 'missing'] as const)
    .filter(
      (word) => typeof line[`qty_${word}`] === 'number' && (line[`qty_${word}`] as number) > 0,
    )
    .map((word) => `${line[`qty_${word}`]} ${word}`);
  return said.join(', ') || 'nothing';
}

function tracksOf(value: unknown): Track[] {
  return list(value).filter(
    (track): track is Track => isRecord(track) && typeof track.track_number === 'string',
  );
}

const TOTAL_WORDS: Record<string, string> = {
  grand_total: 'Total',
  grand_total_excl_tax: 'Total excl. tax',
  tax_amount: 'Tax',
  shipping_amount: 'Shipping',
  cod_amount: 'Cash on delivery',
  package_value: 'Package value',
};

/** Totals before → after, when the action changed them. */
function totals(context: TimelineContext, value: unknown): ComponentChildren[] {
  if (!isRecord(value) || !isRecord(value.before) || !isRecord(value.after)) return [];
  const { before, after } = value;
  return Object.keys(after).map((field) => {
    const from = typeof before[field] === 'number' ? (before[field] as number) : null;
    const to = typeof after[field] === 'number' ? (after[field] as number) : null;
    return `${TOTAL_WORDS[field] ?? humanize(field)}: ${money(from, context.currency)} → ${money(to, context.currency)}`;
  });
}

/** A reason the API gives as an identifier, in words; an unknown one as words too. */
function reasonOf(words: Readonly<Record<string, string>>, reason: unknown): string | null {
  const code = text(reason);
  if (code === null) return null;
  return Object.hasOwn(words, code) ? (words[code] as string) : humanize(code);
}

/** `Awaiting payment (pay-1)`: a hold by its reason, its handle for those who integrate. */
function holdWords(context: TimelineContext, handle: unknown): string | null {
  const name = text(handle);
  if (name === null) return null;
  const hold = context.holds.find((known) => known.handle === name);
  return hold
    ? `${HOLD_REASON[hold.reason as HoldReason] ?? humanize(hold.reason)} (${name})`
    : name;
}

const holdList = (context: TimelineContext, handles: unknown) =>
  list(handles)
    .map((handle) => holdWords(context, handle))
    .filter((words): words is string => words !== null)
    .join(', ');

const requestNumber = (id: unknown) => (text(id) === null ? '' : ` ${text(id)}`);

/** What a ship did to a cancellation request it shipped lines of. */
function shippedOverRequest(context: TimelineContext, d: Details): ComponentChildren[] {
  if (d.cancellation_rejected === undefined) return [];
  const request = `Cancellation request${requestNumber(d.cancellation_rejected)}`;
  const refused = lines(context, d.cancellation_refused);
  const still = lines(context, d.cancellation_still_requested);
  return [
    refused
      ? `${request} refused for what shipped: ${refused}`
      : `${request} refused: its lines shipped`,
    still && `Still asked to cancel: ${still}`,
  ];
}

function links(context: TimelineContext, numbers: unknown): ComponentChildren {
  return list(numbers)
    .map(text)
    .filter((number): number is string => number !== null)
    .map((number, index) => (
      <Fragment key={number}>
        {index > 0 && ', '}
        <OrderLink store={context.store} number={number} />
      </Fragment>
    ));
}

const PARTIALS: Record<string, string> = {
  true: 'Partial shipments allowed',
  false: 'Partial shipments not allowed',
  null: "Partial shipments as the store's settings say",
};

const STAGE: Record<string, string> = {
  allocation: 'Before allocation',
  shipment: 'Before shipment',
  invoice: 'Before the invoice',
};

/**
 * Why routing sent the lines where it did, a line each, as the server said it ("Routed to
 * WH-MILAN: closest with stock (312 km); WH-HAMBURG excluded: over daily capacity"); the lines
 * the entry does not explain are counted.
 */
function routingWords(routing: unknown): string[] {
  if (!isRecord(routing)) return [];
  const said = list(routing.lines).flatMap((line) => {
    if (!isRecord(line)) return [];
    const words = text(line.words);
    return words ? [`${text(line.sku) ?? ''}: ${words}`] : [];
  });
  const more = typeof routing.lines_more === 'number' ? routing.lines_more : 0;
  return more > 0 ? [...said, `${plural(more, 'more line')} not explained here`] : said;
}

/** The words of one entry: its title, and its details, one per line. */
export function describe(
  entry: TimelineEntry,
  context: TimelineContext,
): { title: string; details: ComponentChildren[] } {
  const d = entry.details;
  const rerouted = list(d.rerouted_to).length
    ? [<>Rejected lines rerouted to {links(context, d.rerouted_to)}</>]
    : [];
  switch (entry.action) {
    case 'intake':
      return {
        title: 'Received',
        details: [
          `From sales order ${text(d.sales_order_number) ?? '—'}, for ${text(d.warehouse_code) ?? '—'}`,
          ...routingWords(d.routing),
        ],
      };
    case 'accept': {
      const rejected = lines(context, d.rejected);
      return {
        title: rejected ? 'Accepted in part' : 'Accepted',
        details: [
          lines(context, d.accepted) && `Accepted: ${lines(context, d.accepted)}`,
          rejected && `Rejected: ${rejected}`,
          ...totals(context, d.totals),
          ...rerouted,
        ],
      };
    }
    case 'reject':
      return {
        title: 'Rejected',
        details: [
          `Rejected: ${lines(context, d.rejected)}`,
          ...totals(context, d.totals),
          ...rerouted,
        ],
      };
    case 'allocate':
      return {
        title: 'Allocated',
        details: list(d.items)
          .filter(isRecord)
          .map(
            (line) => `${lineOf(context, line.item_id)} from ${text(line.warehouse_code) ?? '—'}`,
          ),
      };
    case 'ship':
      return {
        // The entry's actor says who shipped it: "Shipped by courier".
        title: 'Shipped',
        details: [
          lines(context, d.items),
          d.courier === true && "With the courier's labels",
          tracksOf(d.tracks).length > 0 && (
            <>
              Tracks: <TrackList tracks={tracksOf(d.tracks)} labels={context.labels} />
            </>
          ),
          ...shippedOverRequest(context, d),
        ],
      };
    case 'invoice':
      return {
        title: 'Invoiced',
        details: [
          `Invoice ${text(d.invoice_number) ?? '—'}: ${lines(context, d.items)}`,
          typeof d.shipping_amount_incl_tax === 'number' &&
            `Shipping invoiced: ${money(d.shipping_amount_incl_tax, context.currency)}`,
        ],
      };
    case 'fail':
      return {
        title: 'Failed',
        details: [
          STAGE[text(d.stage) ?? ''],
          typeof d.attempts === 'number' && `After ${plural(d.attempts, 'courier attempt')}`,
          typeof d.error === 'string' && `The courier said: ${d.error}`,
        ],
      };
    case 'courier_retry':
      return {
        title: 'Courier attempt failed',
        details: [
          `Attempt ${text(d.attempts) ?? '—'}: ${text(d.error) ?? '—'}`,
          text(d.retry_at) && `Next attempt ${dateTime(text(d.retry_at))}`,
        ],
      };
    case 'requeue':
      return { title: 'Requeued', details: ['Back in its queue'] };
    case 'abandon':
      return { title: 'Abandoned', details: ['Stays failed; its stock is released'] };
    case 'cancel': {
      // Lines no partner holds are canceled at once; the others are asked of the partner.
      const canceled = lines(context, d.items);
      const requested = lines(context, d.requested);
      return {
        title: canceled
          ? requested
            ? 'Canceled in part, the rest asked of the partner'
            : 'Canceled'
          : 'Cancellation requested',
        details: [
          canceled && `Canceled: ${canceled}`,
          requested &&
            `Asked ${context.warehouse} to cancel: ${requested}${d.cancellation_request === undefined ? '' : ` (request${requestNumber(d.cancellation_request)})`}`,
          reasonOf(CANCELLATION_REASON, d.reason),
          list(d.released_holds).length > 0 &&
            `Holds released with it: ${holdList(context, d.released_holds)}`,
          ...totals(context, d.totals),
        ],
      };
    }
    case 'accept_cancellation':
      return {
        title: 'Cancellation accepted',
        details: [
          `Request${requestNumber(d.cancellation_request)}: ${lines(context, d.items) || 'nothing left to cancel'} canceled`,
          text(d.message) && `“${text(d.message)}”`,
          ...totals(context, d.totals),
        ],
      };
    case 'reject_cancellation':
      return {
        title: 'Cancellation refused',
        details: [
          `Request${requestNumber(d.cancellation_request)}: the lines stay in the flow`,
          text(d.message) && `“${text(d.message)}”`,
        ],
      };
    case 'hold':
      return {
        title: 'Held',
        details: [
          `${reasonOf(HOLD_REASON, d.reason) ?? 'On hold'}${text(d.handle) ? ` (${text(d.handle)})` : ''}`,
          text(d.note) && `“${text(d.note)}”`,
          'Out of every queue until released',
        ],
      };
    case 'release':
      return {
        title: 'Hold released',
        details: [
          holdWords(context, d.handle),
          list(d.still_held).length > 0
            ? `Still held: ${holdList(context, d.still_held)}`
            : 'No hold left',
        ],
      };
    case 'allow_partial':
      return {
        title: PARTIALS[String(d.allow_partial)] ?? 'Partial shipments changed',
        details: [`Before: ${(PARTIALS[String(d.before)] ?? '—').toLowerCase()}`],
      };
    case 'move_lines':
    case 'reroute':
      return d.moved_to
        ? {
            title: 'Lines moved',
            details: [
              <>
                {lines(context, d.items)} moved to {text(d.to)} as{' '}
                <OrderLink store={context.store} number={String(d.moved_to)} />
              </>,
            ],
          }
        : {
            title: entry.action === 'reroute' ? 'Rerouted here' : 'Lines moved here',
            details: [
              <>
                From <OrderLink store={context.store} number={String(d.from ?? '')} />:{' '}
                {lines(context, d.items)}
              </>,
              ...routingWords(d.routing),
            ],
          };
    case 'correct_tracks':
      return {
        title: 'Tracks corrected',
        details: [
          <>
            Shipment {shipmentPosition(context.shipments, d.shipment)}:{' '}
            <TrackList tracks={tracksOf(d.before)} labels={context.labels} /> →{' '}
            <TrackList tracks={tracksOf(d.after)} labels={context.labels} />
          </>,
        ],
      };
    case 'return_open':
      return {
        title: `Return ${text(d.rma_number) ?? '—'} opened`,
        details: [
          `Coming back: ${lines(context, d.items)}`,
          text(d.warehouse_code) && `To ${text(d.warehouse_code)}`,
        ],
      };
    case 'return_receive':
      return {
        title: `Return ${text(d.rma_number) ?? '—'} received`,
        details: [
          `Receipt ${text(d.receipt_number) ?? '—'}`,
          ...list(d.items)
            .filter(isRecord)
            .map((line) => `${lineOf(context, line.item_id)}: ${receiptWords(line)}`),
        ],
      };
    case 'return_credit':
      return {
        title: `Return ${text(d.rma_number) ?? '—'} credited`,
        details: [
          `Credit note ${text(d.credit_note_number) ?? '—'}: ${lines(context, d.items)}`,
          typeof d.amount_incl_tax === 'number' &&
            `Credited: ${money(d.amount_incl_tax, context.currency)}`,
          typeof d.shipping_refund_incl_tax === 'number' &&
            d.shipping_refund_incl_tax > 0 &&
            `Shipping refunded: ${money(d.shipping_refund_incl_tax, context.currency)}`,
        ],
      };
    case 'return_cancel':
      return { title: `Return ${text(d.rma_number) ?? '—'} canceled`, details: [] };
    case 'label_void':
      return { title: 'Label voided', details: [`Label ${text(d.reference) ?? '—'}`] };
    case 'label_void_failed':
      return {
        title: 'Label void failed',
        details: [`Label ${text(d.reference) ?? '—'}: ${text(d.error) ?? '—'}`],
      };
    default:
      // An action without words yet: its name, and its plain details as "Name: value".
      return {
        title: humanize(entry.action),
        details: Object.entries(d)
          .filter(([, value]) => text(value) !== null)
          .map(([name, value]) => `${humanize(name)}: ${text(value)}`),
      };
  }
}

function Entry({ entry, context }: { entry: TimelineEntry; context: TimelineContext }) {
  const { title, details } = describe(entry, context);
  const shown = details.filter((detail) => detail !== false && detail !== '' && detail !== null);
  return (
    <li class="timeline__entry">
      <div class="timeline__head">
        <strong>{title}</strong>
        <span class="subtle">
          {' '}
          by <span class="timeline__actor">{entry.actor}</span>,{' '}
          <time dateTime={entry.at} title={`${entry.at} UTC`}>
            {dateTime(entry.at)}
          </time>
        </span>
      </div>
      {entry.reason && <p class="timeline__reason">“{entry.reason}”</p>}
      {shown.length > 0 && (
        <ul class="timeline__details">
          {shown.map((detail, index) => (
            <li key={index}>{detail}</li>
          ))}
        </ul>
      )}
      {entry.request_id && (
        <details class="timeline__request">
          <summary class="timeline__request-toggle">Request id</summary>
          <code>{entry.request_id}</code>
        </details>
      )}
    </li>
  );
}

export function TimelineCard({
  timeline,
  context,
}: {
  timeline: readonly TimelineEntry[];
  context: TimelineContext;
}) {
  const newestFirst = [...timeline].reverse();
  return (
    <Card title="Timeline">
      {newestFirst.length === 0 ? (
        <EmptyState title="Nothing recorded yet" />
      ) : (
        <ol class="timeline">
          {newestFirst.map((entry) => (
            <Entry key={entry.id} entry={entry} context={context} />
          ))}
        </ol>
      )}
    </Card>
  );
}
