import type { ReturnReason, ReturnStatus } from '@fulfil/core';
import { useState } from 'preact/hooks';
import { api, type ReturnView, seg } from '../api.js';
import { may, useCurrency } from '../context.js';
import { href, navigate } from '../router.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { DataTable } from '../ui/data-table.js';
import { EmptyState } from '../ui/empty-state.js';
import { Facts } from '../ui/facts.js';
import { Field } from '../ui/field.js';
import { dateTime, money } from '../ui/format.js';
import { useAction, useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { toast } from '../ui/toast.js';
import { RETURN_REASON, RETURN_STATUS } from '../ui/words.js';
import { OrderLink } from './order-link.js';

/**
 * Returns (docs/channel-guide.md, Returns): the queue by status, one return with its lines,
 * receipts and credits, opening one for a customer, and canceling one before any receipt.
 */

const returnsPath = (store: string) => `stores/${seg(store)}/returns`;

// The console takes only types from core: its lists come from the words for them.
const RETURN_STATUSES = Object.keys(RETURN_STATUS) as ReturnStatus[];
const RETURN_REASONS = Object.keys(RETURN_REASON) as ReturnReason[];

export function ReturnStatusBadge({ status }: { status: ReturnView['status'] }) {
  const { words, tone } = RETURN_STATUS[status];
  return (
    <Badge tone={tone} title={status}>
      {words}
    </Badge>
  );
}

interface LineInput {
  fulfillment_order_number: string;
  item_id: string;
  qty: string;
  reason: ReturnReason;
}

const emptyLine = (): LineInput => ({
  fulfillment_order_number: '',
  item_id: '',
  qty: '1',
  reason: 'unwanted',
});

/** Opens a return as a channel would: shipped lines by fulfillment order and item id. */
function OpenReturn({ store, onOpened }: { store: string; onOpened: (rma: string) => void }) {
  const [rma, setRma] = useState('');
  const [salesOrder, setSalesOrder] = useState('');
  const [warehouse, setWarehouse] = useState('');
  const [lines, setLines] = useState<LineInput[]>([emptyLine()]);
  const action = useAction();
  const set = (index: number, change: Partial<LineInput>) =>
    setLines(lines.map((line, at) => (at === index ? { ...line, ...change } : line)));
  const submit = async (event: Event) => {
    event.preventDefault();
    const opened = await action.run(() =>
      api<ReturnView>('POST', returnsPath(store), {
        rma_number: rma,
        sales_order_number: salesOrder,
        ...(warehouse ? { warehouse_code: warehouse } : {}),
        // Numbers as typed: the API names a field that is not one.
        items: lines.map((line) => ({
          fulfillment_order_number: line.fulfillment_order_number,
          item_id: Number(line.item_id),
          qty: Number(line.qty),
          reason: line.reason,
        })),
      }),
    );
    if (opened) {
      // On the return's own page: a toast belongs to the page it is shown on.
      onOpened(opened.rma_number);
      toast(`Return ${opened.rma_number} opened`);
    }
  };
  return (
    <Card title="Open a return">
      <form class="stack" onSubmit={submit}>
        <div class="form-row">
          <Field label="RMA number">
            <input required value={rma} onInput={(event) => setRma(event.currentTarget.value)} />
          </Field>
          <Field label="Sales order number">
            <input
              required
              value={salesOrder}
              onInput={(event) => setSalesOrder(event.currentTarget.value)}
            />
          </Field>
          <Field label="Receiving warehouse" hint="Empty: the one that shipped">
            <input value={warehouse} onInput={(event) => setWarehouse(event.currentTarget.value)} />
          </Field>
        </div>
        {lines.map((line, index) => (
          <div class="form-row" key={index}>
            <Field label={`Line ${index + 1}: fulfillment order`}>
              <input
                required
                value={line.fulfillment_order_number}
                onInput={(event) =>
                  set(index, { fulfillment_order_number: event.currentTarget.value })
                }
              />
            </Field>
            <Field label="Item id" size="short">
              <input
                required
                inputMode="numeric"
                value={line.item_id}
                onInput={(event) => set(index, { item_id: event.currentTarget.value })}
              />
            </Field>
            <Field label="Qty" size="short">
              <input
                required
                inputMode="numeric"
                value={line.qty}
                onInput={(event) => set(index, { qty: event.currentTarget.value })}
              />
            </Field>
            <Field label="Reason">
              <select
                value={line.reason}
                onChange={(event) =>
                  set(index, { reason: event.currentTarget.value as ReturnReason })
                }
              >
                {RETURN_REASONS.map((reason) => (
                  <option key={reason} value={reason}>
                    {RETURN_REASON[reason]}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        ))}
        <ErrorBanner error={action.error} />
        <div class="form-row">
          <Button onClick={() => setLines([...lines, emptyLine()])}>Add a line</Button>
          <Button type="submit" variant="primary" busy={action.busy}>
            Open return
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The returns of the store, in one status or all, oldest first. */
export function ReturnsPage({
  store,
  role,
  params,
}: {
  store: string;
  role: string;
  params: URLSearchParams;
}) {
  const status = params.get('status') ?? '';
  const loaded = useLoad(
    () => api<ReturnView[]>('GET', `${returnsPath(store)}${status ? `?status=${status}` : ''}`),
    `${store}/${status}`,
  );
  return (
    <Page
      title="Returns"
      subtitle={<p>Goods coming back to store {store}: received, then credited.</p>}
    >
      {may(role, 'operator') && (
        <OpenReturn store={store} onOpened={(rma) => navigate(href([store, 'returns', rma]))} />
      )}
      <Card flush label="Returns">
        <form class="form-row card-form">
          <Field label="Status">
            <select
              value={status}
              onChange={(event) =>
                navigate(
                  href(
                    [store, 'returns'],
                    event.currentTarget.value ? { status: event.currentTarget.value } : {},
                  ),
                )
              }
            >
              <option value="">Every status</option>
              {RETURN_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {RETURN_STATUS[value].words}
                </option>
              ))}
            </select>
          </Field>
        </form>
        <ErrorBanner error={loaded.error} />
        {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
        {loaded.data && (
          <DataTable<ReturnView>
            label="Returns"
            rows={loaded.data}
            rowKey={(entry) => entry.rma_number}
            empty={
              <EmptyState title="No returns here">
                A return appears when a sales channel or an operator opens one.
              </EmptyState>
            }
            columns={[
              {
                title: 'RMA',
                primary: true,
                cell: (entry) => (
                  <a href={href([store, 'returns', entry.rma_number])}>{entry.rma_number}</a>
                ),
              },
              { title: 'Sales order', cell: (entry) => entry.sales_order_number },
              { title: 'To', cell: (entry) => entry.warehouse_code },
              { title: 'Status', cell: (entry) => <ReturnStatusBadge status={entry.status} /> },
              {
                title: 'Lines',
                cell: (entry) => entry.items.map((line) => `${line.qty} × ${line.sku}`).join(', '),
              },
              { title: 'Updated', cell: (entry) => dateTime(entry.updated_at) },
            ]}
          />
        )}
        {loaded.data && loaded.data.length === 100 && (
          <p class="subtle">The first 100 are shown: pick a status to narrow them.</p>
        )}
      </Card>
    </Page>
  );
}

/** One return: its lines and what became of them, its receipts and credits; cancel before any receipt. */
export function ReturnPage({ store, role, rma }: { store: string; role: string; rma: string }) {
  const currency = useCurrency(store);
  const loaded = useLoad(
    () => api<ReturnView>('GET', `${returnsPath(store)}/${seg(rma)}`),
    `${store}/${rma}`,
  );
  const [asking, setAsking] = useState(false);
  const entry = loaded.data;
  const cancelable =
    may(role, 'operator') && entry?.status !== 'canceled' && entry?.receipts.length === 0;
  return (
    <Page title={`Return ${rma}`} subtitle={<a href={href([store, 'returns'])}>Every return</a>}>
      <ErrorBanner error={loaded.error} />
      {!entry && !loaded.error && <p aria-live="polite">Loading…</p>}
      {entry && (
        <>
          <Card
            title="Return"
            actions={
              cancelable && (
                <Button variant="destructive" onClick={() => setAsking(true)}>
                  Cancel return
                </Button>
              )
            }
          >
            <Facts
              rows={[
                ['Status', <ReturnStatusBadge key="status" status={entry.status} />],
                ['Sales order', entry.sales_order_number],
                ['Receiving warehouse', entry.warehouse_code],
                ['Opened', dateTime(entry.created_at)],
                ['Updated', dateTime(entry.updated_at)],
              ]}
            />
          </Card>
          <Card title="Lines" flush>
            <DataTable<ReturnView['items'][number]>
              label="Lines"
              rows={entry.items}
              rowKey={(line) => String(line.item_id)}
              columns={[
                { title: 'SKU', primary: true, cell: (line) => `${line.sku}: ${line.name}` },
                {
                  title: 'Order',
                  cell: (line) => (
                    <OrderLink store={store} number={line.fulfillment_order_number} />
                  ),
                },
                { title: 'Reason', cell: (line) => RETURN_REASON[line.reason] },
                { title: 'Qty', numeric: true, cell: (line) => line.qty },
                { title: 'Restocked', numeric: true, cell: (line) => line.qty_restocked },
                { title: 'Quarantined', numeric: true, cell: (line) => line.qty_quarantined },
                { title: 'Disposed', numeric: true, cell: (line) => line.qty_disposed },
                { title: 'Missing', numeric: true, cell: (line) => line.qty_missing },
                { title: 'Credited', numeric: true, cell: (line) => line.qty_credited },
                { title: 'Unit price', numeric: true, cell: (line) => money(line.price, currency) },
              ]}
            />
          </Card>
          <Card title="Receipts and credits">
            {entry.receipts.length === 0 && entry.credits.length === 0 && (
              <p class="subtle">Nothing received yet.</p>
            )}
            <ul class="plain-list">
              {entry.receipts.map((receipt) => (
                <li key={`r-${receipt.receipt_number}`}>
                  Receipt {receipt.receipt_number}, {dateTime(receipt.created_at)}:{' '}
                  {receipt.items
                    .map(
                      (line) =>
                        `${entry.items.find((known) => known.item_id === line.item_id)?.sku ?? `item ${line.item_id}`}: ${line.qty_restocked} restocked, ${line.qty_quarantined} quarantined, ${line.qty_disposed} disposed, ${line.qty_missing} missing`,
                    )
                    .join('; ')}
                </li>
              ))}
              {entry.credits.map((credit) => (
                <li key={`c-${credit.credit_note_number}`}>
                  Credit note {credit.credit_note_number}, {dateTime(credit.created_at)}:{' '}
                  {money(credit.amount_incl_tax, currency)}
                  {credit.shipping_refund_incl_tax > 0 &&
                    ` (shipping ${money(credit.shipping_refund_incl_tax, currency)})`}
                </li>
              ))}
            </ul>
          </Card>
        </>
      )}
      {asking && entry && (
        <ConfirmDialog
          title={`Cancel return ${entry.rma_number}?`}
          confirm="Cancel return"
          keep="Keep return"
          destructive
          reason={{ label: 'Reason (optional)' }}
          onClose={() => setAsking(false)}
          onConfirm={async (reason) => {
            await api(
              'POST',
              `${returnsPath(store)}/${seg(entry.rma_number)}/cancel`,
              reason ? { reason } : {},
            );
            toast(`Return ${entry.rma_number} canceled`);
            loaded.reload();
          }}
        >
          <p>
            Nothing of it has been received. Canceled, it takes back nothing: its lines can be
            returned again.
          </p>
        </ConfirmDialog>
      )}
    </Page>
  );
}
