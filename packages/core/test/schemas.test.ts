import type * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AllocateRequest,
  InvoiceRequest,
  MAX_PAGE,
  PollParams,
  parseWith,
  SalesOrderItemInput,
  StockItemsRequest,
  toMoney,
  WarehouseInput,
} from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';

describe('request schemas', () => {
  it('invoice rule 4 / docs/behaviour.md: doc_type and other unknown fields are dropped, never stored', () => {
    const parsed = parseWith(InvoiceRequest, {
      invoice: {
        order_id: '1-1',
        items: [{ item_id: 1 }],
        invoice_number: 'A',
        doc_type: 'x',
        shipping_amount_incl_tax: 5.1,
      },
      extra: true,
    });
    expect(parsed).toEqual({
      invoice: {
        order_id: '1-1',
        items: [{ item_id: 1 }],
        invoice_number: 'A',
        shipping_amount_incl_tax: toMoney(5.1),
      },
    });
  });

  it('docs/behaviour.md: allocate takes the key allocation, and order as the ERP guide writes it', () => {
    const body = { order_id: '1-1', items: [{ item_id: 3, qty: 9 }] };
    expect(parseWith(AllocateRequest, { allocation: body }).allocation.items[0]?.item_id).toBe(3);
    expect(parseWith(AllocateRequest, { order: body }).allocation.order_id).toBe('1-1');
  });

  it('errors name the path of the bad field', () => {
    expectDomainError(
      () => parseWith(InvoiceRequest, { invoice: { order_id: '1', items: [{ item_id: 'x' }] } }),
      'invalid_request',
      'invoice.items[0].item_id',
    );
    expectDomainError(
      () =>
        parseWith(InvoiceRequest, {
          invoice: { order_id: '1', items: [{ item_id: 1 }, { item_id: 1 }], invoice_number: 'A' },
        }),
      'invalid_request',
      'invoice.items',
    );
    expectDomainError(() => parseWith(InvoiceRequest, {}), 'invalid_request', 'invoice');
  });

  it('docs/api.md: page defaults to 1; anything but an integer >= 1 is 400', () => {
    expect(parseWith(PollParams, {})).toEqual({ page: 1 });
    expect(parseWith(PollParams, { page: '3' }).page).toBe(3);
    for (const page of ['0', '-1', '1.5', 'abc', '', '1e2']) {
      expectDomainError(() => parseWith(PollParams, { page }), 'invalid_request', 'page');
    }
  });

  it('a page over the last one says which pages exist', () => {
    const error = expectDomainError(
      () => parseWith(PollParams, { page: String(MAX_PAGE + 1) }),
      'invalid_request',
    );
    expect(error.errors[0]?.message).toBe(
      `Invalid value of "%fieldName": must be an integer from 1 to ${MAX_PAGE}`,
    );
  });

  it("issue 16 item 13: no message is written in valibot's words", () => {
    const bad: [v.GenericSchema, unknown][] = [
      [StockItemsRequest, { stock_items: [{ warehouse_code: 'A', sku: 'S', qty: -1 }] }],
      [StockItemsRequest, { stock_items: [{ warehouse_code: 7, sku: null, qty: 'x' }] }],
      [StockItemsRequest, { stock_items: 'none' }],
      [StockItemsRequest, 'a string'],
      [AllocateRequest, { allocation: { order_id: '1', items: [{ item_id: 0, qty: 1 }] } }],
      [AllocateRequest, { allocation: { order_id: {}, items: [{ item_id: 1.5, qty: 2 ** 31 }] } }],
      [InvoiceRequest, { invoice: { order_id: '1', items: [], invoice_number: true } }],
      [PollParams, { page: '0' }],
      [WarehouseInput, { code: 'W', name: 'N', active: 'yes' }],
    ];
    for (const [schema, input] of bad) {
      const error = expectDomainError(() => parseWith(schema, input), 'invalid_request');
      const messages = [error.message, ...error.errors.map((detail) => detail.message)];
      expect(messages.length).toBeGreaterThan(1);
      for (const message of messages) {
        expect(message).not.toMatch(/Invalid (value|type|key|length):|Expected|received/);
      }
    }
  });

  it('docs/api.md: date is yyyy-mm-dd hh:mm:ss and must exist', () => {
    expect(parseWith(PollParams, { date: '2026-02-28 23:59:59' }).date).toBe('2026-02-28 23:59:59');
    for (const date of [
      '2026-02-30 00:00:00',
      '2026-02-28',
      '2026-02-28T10:00:00',
      '2026-02-28 25:00:00',
    ]) {
      expectDomainError(() => parseWith(PollParams, { date }), 'invalid_request', 'date');
    }
  });

  it('docs/behaviour.md: stock qty is an integer >= 0 and a batch holds at most 10,000 entries', () => {
    expectDomainError(
      () =>
        parseWith(StockItemsRequest, { stock_items: [{ warehouse_code: 'A', sku: 'S', qty: -1 }] }),
      'invalid_request',
      'stock_items[0].qty',
    );
    expectDomainError(
      () =>
        parseWith(StockItemsRequest, {
          stock_items: [{ warehouse_code: 'A', sku: 'S', qty: 1.5 }],
        }),
      'invalid_request',
      'stock_items[0].qty',
    );
    const big = Array.from({ length: 10_001 }, (_, i) => ({
      warehouse_code: 'A',
      sku: `S${i}`,
      qty: 1,
    }));
    expectDomainError(
      () => parseWith(StockItemsRequest, { stock_items: big }),
      'invalid_request',
      'stock_items',
    );
  });
});

describe('validation messages', () => {
  it('a missing field says it is required, naming its path', () => {
    const error = expectDomainError(
      () => parseWith(InvoiceRequest, { invoice: { items: [{ item_id: 1 }] } }),
      'invalid_request',
      'invoice.order_id',
    );
    expect(error.errors.map((detail) => detail.message)).toContain(
      'Missing required field "%fieldName".',
    );
  });

  it('a body that is not there at all is a 400, not a crash', () => {
    expectDomainError(() => parseWith(InvoiceRequest, undefined), 'invalid_request', '(root)');
  });
});

describe('hostile values get a 400, never a crash', () => {
  it('a value nested thousands deep is described, not written out', () => {
    let deep: unknown = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const error = expectDomainError(
      () => parseWith(InvoiceRequest, { invoice: { order_id: deep } }),
      'invalid_request',
      'invoice.order_id',
    );
    expect(error.parameters[0]?.fieldValue).toBe('an array');
  });

  it('a huge string comes back shortened, in the message and the value', () => {
    const error = expectDomainError(
      () => parseWith(InvoiceRequest, { invoice: 'x'.repeat(100_000) }),
      'invalid_request',
      'invoice',
    );
    expect(JSON.stringify(error.errors).length).toBeLessThan(1_000);
  });

  it('integers past 2^53 and amounts past exact range are 400', () => {
    expectDomainError(
      () =>
        parseWith(StockItemsRequest, {
          stock_items: [{ warehouse_code: 'A', sku: 'S', qty: 2 ** 53 }],
        }),
      'invalid_request',
      'stock_items[0].qty',
    );
    expectDomainError(
      () =>
        parseWith(InvoiceRequest, {
          invoice: {
            order_id: '1',
            items: [{ item_id: 1 }],
            invoice_number: 'A',
            shipping_amount_incl_tax: 1e300,
          },
        }),
      'invalid_request',
      'invoice.shipping_amount_incl_tax',
    );
  });
});

describe('values the 32-bit columns cannot hold', () => {
  it('a warehouse priority or an ordered qty past 2^31 is 400, not a database error', () => {
    expectDomainError(
      () => parseWith(WarehouseInput, { code: 'W', name: 'W', priority: 2 ** 31 }),
      'invalid_request',
      'priority',
    );
    expectDomainError(
      () => parseWith(SalesOrderItemInput, { sku: 'S', name: 'S', qty: 2 ** 31 }),
      'invalid_request',
      'qty',
    );
  });
});
