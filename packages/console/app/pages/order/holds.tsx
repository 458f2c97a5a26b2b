import type { HoldReason } from '@fulfil/core';
import { useState } from 'preact/hooks';
import { api, type OrderDetail, seg } from '../../api.js';
import { useConsole } from '../../context.js';
import { Badge } from '../../ui/badge.js';
import { ErrorBanner } from '../../ui/banner.js';
import { Button } from '../../ui/button.js';
import { Card } from '../../ui/card.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { Field } from '../../ui/field.js';
import { age, plural } from '../../ui/format.js';
import { useAction } from '../../ui/load.js';
import { toast } from '../../ui/toast.js';
import { CANCELLATION_REASON, CANCELLATION_STATUS, HOLD_REASON } from '../../ui/words.js';

type Hold = OrderDetail['holds'][number];

/** The holds of the order not released yet. */
export const activeHolds = (detail: OrderDetail): Hold[] =>
  detail.holds.filter((hold) => hold.released_at === null);
type Request = OrderDetail['cancellation_requests'][number];

// The console takes only types from core: its list of reasons comes from their words.
const HOLD_REASONS = Object.keys(HOLD_REASON) as HoldReason[];

/** The most a handle holds (core's `code` field). */
const HANDLE_MAX = 128;

/** A handle nobody has to invent, unique enough per sales order: who placed it, and when. */
function newHandle(operator: string): string {
  return `console-${operator}-${new Date().toISOString()}`.slice(0, HANDLE_MAX);
}

const salesOrderPath = (store: string, detail: OrderDetail, action: 'hold' | 'release') =>
  `stores/${seg(store)}/sales-orders/${seg(detail.order.sales_order_number)}/${action}`;

/** Asks for the hold's reason and note, then holds every fulfillment order it applies to. */
function HoldDialog({
  store,
  detail,
  onClose,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  onClose: () => void;
  onDone: () => void;
}) {
  const { session } = useConsole();
  const [reason, setReason] = useState<HoldReason>('awaiting_payment');
  const salesOrder = detail.order.sales_order_number;
  return (
    <ConfirmDialog
      title={`Hold sales order ${salesOrder}?`}
      confirm="Hold sales order"
      keep="Don't hold"
      destructive={false}
      reason={{ label: 'Note (optional)' }}
      onClose={onClose}
      onConfirm={async (note) => {
        const answer = await api<{ held: string[] }>(
          'POST',
          salesOrderPath(store, detail, 'hold'),
          {
            handle: newHandle(session.name),
            reason,
            ...(note ? { note } : {}),
          },
        );
        toast(
          `Sales order ${salesOrder} on hold: ${plural(answer.held.length, 'fulfillment order')}`,
        );
        onDone();
      }}
    >
      <p>
        Its fulfillment orders no partner has allocated yet leave their queues until the hold is
        released: no partner sees them, and no action applies to them meanwhile.
      </p>
      <Field label="Reason">
        <select
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value as HoldReason)}
        >
          {HOLD_REASONS.map((known) => (
            <option key={known} value={known}>
              {HOLD_REASON[known]}
            </option>
          ))}
        </select>
      </Field>
    </ConfirmDialog>
  );
}

function HoldItem({
  hold,
  release,
}: {
  hold: Hold;
  /** Releases it; absent for a viewer. */
  release: (() => Promise<unknown>) | undefined;
}) {
  return (
    <li class="hold">
      <div class="related__item">
        <Badge tone="warning">On hold</Badge>
        <span>
          {HOLD_REASON[hold.reason]}, placed by {hold.placed_by} {age(hold.placed_at)} ago
        </span>
        {release && (
          <Button variant="plain" label={`Release hold ${hold.handle}`} onClick={release}>
            Release
          </Button>
        )}
      </div>
      {hold.note && <div class="note">{hold.note}</div>}
    </li>
  );
}

/** `shipped` with no one answering: a ship that came before any answer, refusing those lines. */
const shippedFirst = (request: Request) =>
  request.status === 'rejected' && request.message === 'shipped' && request.answered_by === null;

/** `1 × SKU-1, 2 × SKU-2`: the lines a request names, by sku. */
function requestedLines(request: Request, detail: OrderDetail): string {
  return request.item_ids
    .map((id) => {
      const item = detail.order.items.find((line) => line.id === id);
      return item ? `${item.qty} × ${item.sku}` : `item ${id}`;
    })
    .join(', ');
}

function RequestItem({ request, detail }: { request: Request; detail: OrderDetail }) {
  const status = shippedFirst(request)
    ? { words: 'Shipped first', tone: 'neutral' as const }
    : CANCELLATION_STATUS[request.status];
  const answer = request.status === 'open' || shippedFirst(request) ? null : request.message;
  return (
    <li>
      <div class="related__item">
        <span>
          Cancellation of {requestedLines(request, detail)} asked by {request.requested_by}{' '}
          {age(request.requested_at)} ago
        </span>
        <Badge tone={status.tone} title={request.status}>
          {status.words}
        </Badge>
      </div>
      <div class="subtle">
        {CANCELLATION_REASON[request.reason]}
        {answer && <> · {answer}</>}
      </div>
    </li>
  );
}

/**
 * Who holds the order and why, and what its partner was asked to cancel: the active holds with
 * their reason and who placed them, each with its release for an operator; the requests with
 * their answers. An operator may hold the sales order while a hold still applies to this order.
 */
export function HoldsCard({
  store,
  detail,
  operator,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  /** Whether the session may act: a viewer sees no button. */
  operator: boolean;
  onDone: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const release = useAction();
  const active = activeHolds(detail);
  const requests = detail.cancellation_requests;
  const holdable = operator && detail.actions.includes('hold');
  if (!holdable && active.length === 0 && requests.length === 0) return null;
  const releaseOf = (hold: Hold) => () =>
    release.run(async () => {
      await api('POST', salesOrderPath(store, detail, 'release'), { handle: hold.handle });
      toast(`Hold of sales order ${detail.order.sales_order_number} released`);
      onDone();
    });
  return (
    <Card
      title="Holds and cancellation requests"
      actions={holdable && <Button onClick={() => setAsking(true)}>Hold</Button>}
    >
      {active.length === 0 && requests.length === 0 ? (
        <p class="subtle">Not held, and no cancellation asked.</p>
      ) : (
        <ul class="plain-list">
          {active.map((hold) => (
            <HoldItem
              key={hold.handle}
              hold={hold}
              release={operator ? releaseOf(hold) : undefined}
            />
          ))}
          {requests.map((request) => (
            <RequestItem key={request.id} request={request} detail={detail} />
          ))}
        </ul>
      )}
      <ErrorBanner error={release.error} />
      {asking && (
        <HoldDialog
          store={store}
          detail={detail}
          onClose={() => setAsking(false)}
          onDone={onDone}
        />
      )}
    </Card>
  );
}
