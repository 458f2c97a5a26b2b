import { describe, expect, it } from 'vitest';
import {
  API_ACTIONS,
  formatMoney,
  formatTimestamp,
  fromMoney,
  generateTokenSecret,
  hashTokenSecret,
  MAX_AMOUNT,
  parseTimestamp,
  prorate,
  ROLE_PRESETS,
  renderMessage,
  resolveAcl,
  resourceOf,
  sameHash,
  splitLine,
  toMoney,
} from '../src/index.js';
import { line } from './support/order.js';

describe('docs/api.md: money is exact', () => {
  it('round-trips decimals without float drift', () => {
    expect(toMoney(0.1) + toMoney(0.2)).toBe(toMoney(0.3));
    expect(fromMoney(toMoney(4.1))).toBe(4.1);
    expect(formatMoney(toMoney(-12.5))).toBe('-12.5000');
  });

  it('splitting a line keeps the totals adding up exactly', () => {
    const { kept, rest } = splitLine(line(1, { qty: 3, amounts: { total_price: toMoney(10) } }), 1);
    expect((kept.amounts.total_price ?? 0) + (rest.amounts.total_price ?? 0)).toBe(toMoney(10));
  });

  it('a share of the largest amount over the largest qty is exact, rounded half up', () => {
    const total = toMoney(MAX_AMOUNT) - 1; // 9999999999999 ten-thousandths
    // total * 6659 / 6660 in integers: the product is past what a double holds exactly, and
    // the float quotient rounds to one ten-thousandth more.
    const exact = (BigInt(total) * 6659n * 2n + 6660n) / (2n * 6660n);
    expect(prorate(total, 6659, 6660)).toBe(Number(exact));
    expect(prorate(5, 1, 2)).toBe(3);
  });
});

describe('docs/api.md: timestamps', () => {
  it('are YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(formatTimestamp(new Date('2026-03-01T10:11:12.999Z'))).toBe('2026-03-01 10:11:12');
    // One second formatted again, then the next, then one long before: each its own text.
    expect(formatTimestamp(new Date('2026-03-01T10:11:12.001Z'))).toBe('2026-03-01 10:11:12');
    expect(formatTimestamp(new Date('2026-03-01T10:11:13.000Z'))).toBe('2026-03-01 10:11:13');
    expect(formatTimestamp(new Date('1969-12-31T23:59:59.500Z'))).toBe('1969-12-31 23:59:59');
    expect(() => formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
    expect(parseTimestamp('2026-03-01 10:11:12')?.toISOString()).toBe('2026-03-01T10:11:12.000Z');
    expect(parseTimestamp('2026-13-01 10:11:12')).toBeNull();
  });
});

describe('docs/behaviour.md: tokens and ACL', () => {
  it('resources are <prefix>_FulfillmentOrder::api_<action> and <prefix>_Inventory::api_<action>', () => {
    expect(resourceOf('pending_accept')).toBe('Fulfil_FulfillmentOrder::api_pending_accept');
    expect(resourceOf('stock_items', 'Acme')).toBe('Acme_Inventory::api_stock_items');
  });

  it('role presets grant exactly the documented actions', () => {
    expect([...ROLE_PRESETS.partner].sort()).toEqual(
      [
        'pending_accept',
        'pending_shipment',
        'failed',
        'accept',
        'reject',
        'ship',
        'pending_cancellation',
        'accept_cancellation',
        'reject_cancellation',
        'warehouses',
        'stock_items',
        'stock_adjust',
        'returns_pending_receipt',
        'receive_return',
      ].sort(),
    );
    expect([...ROLE_PRESETS.erp].sort()).toEqual(
      [
        'pending_allocation',
        'pending_invoice',
        'failed',
        'allocate',
        'invoice',
        'warehouses',
        'returns_pending_credit',
        'credit_return',
      ].sort(),
    );
    expect([...ROLE_PRESETS.channel].sort()).toEqual(
      [
        'create_sales_order',
        'read_sales_orders',
        'cancel_sales_order',
        'hold_sales_order',
        'create_return',
      ].sort(),
    );
    expect(resolveAcl('all')).toHaveLength(25);
  });

  it('a resource is one row: its group, and its name when it is not the action', () => {
    expect(resolveAcl('channel', 'Acme').sort()).toEqual([
      'Acme_Return::api_create',
      'Acme_SalesOrder::api_cancel',
      'Acme_SalesOrder::api_create',
      'Acme_SalesOrder::api_hold',
      'Acme_SalesOrder::api_read',
    ]);
    // Every row names a resource of its own: two actions never share one.
    const resources = API_ACTIONS.map((action) => resourceOf(action));
    expect(new Set(resources).size).toBe(API_ACTIONS.length);
    expect(resolveAcl('all').sort()).toEqual([...resources].sort());
  });

  it('secrets carry at least 32 bytes of entropy and are compared by hash in constant time', () => {
    const secret = generateTokenSecret();
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(generateTokenSecret()).not.toBe(secret);
    expect(sameHash(hashTokenSecret(secret), hashTokenSecret(secret))).toBe(true);
    expect(sameHash(hashTokenSecret(secret), hashTokenSecret(`${secret}x`))).toBe(false);
  });
});

describe('docs/behaviour.md: error messages', () => {
  it('keep %placeholders, filled from parameters for people', () => {
    expect(
      renderMessage('Item %fieldValue of %fieldName', [
        { fieldName: 'order.items[0]', fieldValue: '7' },
      ]),
    ).toBe('Item 7 of order.items[0]');
  });
});
