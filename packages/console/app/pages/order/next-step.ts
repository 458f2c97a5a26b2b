import type { FulfilledBy } from '@fulfil/core';
import type { OrderDetail } from '../../api.js';
import { plural } from '../../ui/format.js';
import { HOLD_REASON } from '../../ui/words.js';
import { activeHolds } from './holds.js';

/** What happens to the order next, and who does it: one sentence under its title. */
export function nextStep(detail: OrderDetail, fulfilledBy: FulfilledBy | undefined): string {
  const { order, failure } = detail;
  const warehouse = order.warehouse_code;
  if (failure?.abandoned) {
    return 'Abandoned: it stays failed and holds no stock. It can still be canceled.';
  }
  if (failure) return 'Needs a person: requeue it to put it back in its queue, or cancel it.';
  if (order.status === 'canceled') return 'Canceled: nothing more happens to it.';
  if (order.status === 'rejected') return `Rejected by ${warehouse}: nothing more happens to it.`;
  if (order.status === 'invoiced') return 'Done: every line is shipped and invoiced.';
  const held = activeHolds(detail);
  if (held.length > 0) {
    const why = held.map((hold) => HOLD_REASON[hold.reason].toLowerCase()).join(', ');
    return `On hold (${why}): in no queue, nothing moves until ${held.length === 1 ? 'the hold is' : 'every hold is'} released.`;
  }
  const count = (status: string) => order.items.filter((item) => item.status === status).length;
  const courier = fulfilledBy === 'courier';
  const steps = [
    count('pending_accept') &&
      `${warehouse} accepts or rejects ${plural(count('pending_accept'), 'line')}`,
    count('pending_allocation') &&
      `the ERP allocates ${plural(count('pending_allocation'), 'line')}${courier ? ', then the courier ships them' : ''}`,
    count('pending_shipment') &&
      (courier
        ? `the courier books the shipment of ${plural(count('pending_shipment'), 'line')}`
        : `${warehouse} ships ${plural(count('pending_shipment'), 'line')}`),
    count('pending_invoice') &&
      `the ERP invoices ${plural(count('pending_invoice'), 'shipped line')}`,
  ].filter(Boolean);
  return steps.length ? `Next: ${steps.join('; ')}.` : 'Nothing is waiting on anyone.';
}
