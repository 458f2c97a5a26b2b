import { describe, expect, it } from 'vitest';
import { invoice, toMoney } from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';
import { context, LATER, line, order } from './support/order.js';

const request = (
  ids: number[],
  extra: { invoice_number?: string; shipping_amount_incl_tax?: number } = {},
) => ({
  order_id: '100001-1',
  items: ids.map((item_id) => ({ item_id })),
  invoice_number: 'INV-1',
  ...extra,
});
const shipped = (id: number) => line(id, { status: 'pending_invoice' });

describe('POST invoice', () => {
  it('invoices exactly the shipped items; the order becomes invoiced', () => {
    const outcome = invoice(
      order([shipped(1), shipped(2)]),
      request([1, 2], { shipping_amount_incl_tax: toMoney(5) }),
      context(),
    );
    expect(outcome.order.status).toBe('invoiced');
    expect(outcome.order.invoiced_at).toBe(LATER);
    expect(outcome.order.items.map((item) => item.invoice_number)).toEqual(['INV-1', 'INV-1']);
  });

  it('invoice rule 1: items[] that differ from the shipped items are 400 naming the expected items', () => {
    const error = expectDomainError(
      () => invoice(order([shipped(1), shipped(2)]), request([1]), context()),
      'invoice_mismatch',
      'invoice.items',
    );
    expect(error.errors[0]?.message).toContain('[1,2]');
  });

  it('invoice rule 1: items not yet shipped cannot be invoiced', () => {
    expectDomainError(
      () =>
        invoice(
          order([shipped(1), line(2, { status: 'pending_shipment' })]),
          request([1, 2]),
          context(),
        ),
      'invoice_mismatch',
    );
  });

  it('invoice rule 2 / docs/behaviour.md: the first invoice states the shipping amount incl. tax, exact to 4 decimals', () => {
    const error = expectDomainError(
      () =>
        invoice(
          order([shipped(1)]),
          request([1], { shipping_amount_incl_tax: toMoney(4.99) }),
          context(),
        ),
      'invoice_mismatch',
      'invoice.shipping_amount_incl_tax',
    );
    expect(error.errors[0]?.message).toContain('5.0000');
    expect(
      invoice(
        order([shipped(1)]),
        request([1], { shipping_amount_incl_tax: toMoney(5.00001) }),
        context(),
      ).changed,
    ).toBe(true);
  });

  it('invoice rule 2 / docs/behaviour.md: later invoices state shipping 0', () => {
    const first = invoice(
      order([shipped(1), line(2, { status: 'pending_shipment' })]),
      request([1], { shipping_amount_incl_tax: toMoney(5) }),
      context({ partial_items: true }),
    );
    const second = {
      ...first.order,
      items: first.order.items.map((item) =>
        item.id === 2 ? { ...item, status: 'pending_invoice' as const } : item,
      ),
    };
    expectDomainError(
      () =>
        invoice(
          second,
          request([2], { invoice_number: 'INV-2', shipping_amount_incl_tax: toMoney(5) }),
          context(),
        ),
      'invoice_mismatch',
      'invoice.shipping_amount_incl_tax',
    );
    const outcome = invoice(
      second,
      request([2], { invoice_number: 'INV-2', shipping_amount_incl_tax: 0 }),
      context(),
    );
    expect(outcome.order.status).toBe('invoiced');
  });

  it('invoice rule 3: both mismatches are reported in one 400 body, each with its field', () => {
    const error = expectDomainError(
      () =>
        invoice(
          order([shipped(1), shipped(2)]),
          request([1], { shipping_amount_incl_tax: 1 }),
          context(),
        ),
      'invoice_mismatch',
    );
    expect(error.errors.map((detail) => detail.parameters[0]?.fieldName)).toEqual([
      'invoice.items',
      'invoice.shipping_amount_incl_tax',
    ]);
  });

  it('docs/behaviour.md: the same invoice_number again is a no-op', () => {
    const done = invoice(order([shipped(1)]), request([1]), context()).order;
    const retry = invoice(done, request([1]), context());
    expect(retry.changed).toBe(false);
    expect(retry.order).toBe(done);
  });

  it('docs/behaviour.md: invoiced items under another number contradict what was applied: 400', () => {
    const done = invoice(order([shipped(1)]), request([1]), context()).order;
    expectDomainError(
      () => invoice(done, request([1], { invoice_number: 'INV-9' }), context()),
      'conflicts_with_applied',
    );
  });

  it('an unknown item_id is 400 unknown_item', () => {
    expectDomainError(
      () => invoice(order([shipped(1)]), request([7]), context()),
      'unknown_item',
      'invoice.items[0].item_id',
    );
  });
});
