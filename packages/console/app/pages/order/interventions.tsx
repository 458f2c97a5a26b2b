import { useState } from 'preact/hooks';
import { api, type Intervention, type OrderDetail, orderPath } from '../../api.js';
import { Button } from '../../ui/button.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { plural } from '../../ui/format.js';
import { useAction } from '../../ui/load.js';
import { toast } from '../../ui/toast.js';

type Asked = 'fail' | 'abandon' | 'cancel';

const UNSHIPPED = new Set(['pending_accept', 'pending_allocation', 'pending_shipment']);

/** What each destructive intervention says before it acts, naming the order and its lines. */
function question(detail: OrderDetail, asked: Asked, liveLabels: number) {
  const number = detail.order.fulfillment_order_number;
  const warehouse = detail.order.warehouse_code;
  const open = detail.order.items.filter((item) => UNSHIPPED.has(item.status));
  const lines = plural(open.length, 'unshipped line');
  switch (asked) {
    case 'cancel':
      return {
        title: `Cancel order ${number}?`,
        body: [
          `Its ${lines} ${open.length === 1 ? 'is' : 'are'} canceled and the stock ${open.length === 1 ? 'it holds is' : 'they hold is'} released; ${warehouse} no longer sees ${open.length === 1 ? 'it' : 'them'} in its queues.`,
          liveLabels > 0 ? 'Its courier labels not yet shipped are voided.' : null,
          'This cannot be undone.',
        ],
        verb: 'Cancel order',
        past: 'canceled',
        reason: { label: 'Reason (optional)' },
      };
    case 'fail':
      return {
        title: `Fail order ${number}?`,
        body: [
          `It leaves its queues for the failed queue, where it waits for a person; ${warehouse} no longer sees it. Requeue it later to put it back.`,
        ],
        verb: 'Fail order',
        past: 'failed',
        reason: { label: 'Reason', required: true },
      };
    case 'abandon':
      return {
        title: `Abandon order ${number}?`,
        body: [
          'It stays failed for good, and the stock its lines hold is released. It can still be canceled.',
          'This cannot be undone.',
        ],
        verb: 'Abandon order',
        past: 'abandoned',
        reason: { label: 'Reason (optional)' },
      };
  }
}

/**
 * The interventions that apply to the order as it stands (the API says which), for the page's
 * header: requeueing a failed order is its one primary action; failing, abandoning and
 * canceling are red, secondary, and ask first.
 */
export function useInterventions({
  store,
  detail,
  liveLabels,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  liveLabels: number;
  onDone: () => void;
}) {
  const [asked, setAsked] = useState<Asked>();
  const requeue = useAction();
  const number = detail.order.fulfillment_order_number;
  const path = (action: Intervention) => `${orderPath(store, number)}/${action}`;
  const offers = (action: Intervention) => detail.actions.includes(action);
  const words = asked && question(detail, asked, liveLabels);
  return {
    primary: offers('requeue') && (
      <Button
        variant="primary"
        busy={requeue.busy}
        onClick={async () => {
          if (await requeue.run(() => api<OrderDetail>('POST', path('requeue'), {}))) {
            toast(`Order ${number} requeued`);
            onDone();
          }
        }}
      >
        Requeue
      </Button>
    ),
    secondary: (
      <>
        {(['fail', 'abandon', 'cancel'] as const).filter(offers).map((action) => (
          <Button key={action} variant="destructive" onClick={() => setAsked(action)}>
            {question(detail, action, liveLabels).verb}
          </Button>
        ))}
        {asked && words && (
          <ConfirmDialog
            title={words.title}
            confirm={words.verb}
            keep="Keep order"
            reason={words.reason}
            onClose={() => setAsked(undefined)}
            onConfirm={async (reason) => {
              const body = reason ? { reason } : {};
              await api<OrderDetail>('POST', path(asked), body);
              toast(`Order ${number} ${words.past}`);
              onDone();
            }}
          >
            {words.body.filter(Boolean).map((line) => (
              <p key={line}>{line}</p>
            ))}
          </ConfirmDialog>
        )}
      </>
    ),
    error: requeue.error,
  };
}
