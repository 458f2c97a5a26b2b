import { describe, expect, it } from 'vitest';
import {
  deriveSalesOrderStatus,
  differingPaths,
  type ItemStatus,
  TRACKING_URL_TEMPLATES,
  trackingUrl,
} from '../src/index.js';

const lines = (...statuses: ItemStatus[]) => statuses.map((status) => ({ status }));

describe('docs/channel-guide.md: the sales order status', () => {
  it('is derived over the live lines of all its fulfillment orders', () => {
    expect(deriveSalesOrderStatus(lines('pending_accept', 'pending_shipment'), 0)).toBe('open');
    expect(deriveSalesOrderStatus(lines('pending_invoice', 'pending_shipment'), 0)).toBe(
      'partially_shipped',
    );
    expect(deriveSalesOrderStatus(lines('pending_invoice', 'invoiced', 'rejected'), 0)).toBe(
      'shipped',
    );
    expect(deriveSalesOrderStatus(lines('invoiced', 'canceled'), 0)).toBe('invoiced');
    expect(deriveSalesOrderStatus(lines('rejected', 'canceled'), 0)).toBe('canceled');
    expect(deriveSalesOrderStatus(lines('rejected'), 0)).toBe('rejected');
    expect(deriveSalesOrderStatus(lines('invoiced'), 1)).toBe('on_hold');
  });
});

describe('docs/channel-guide.md: tracking URLs', () => {
  it("are the carrier's page with the number percent-encoded; codes match without case, spaces or dashes", () => {
    expect(trackingUrl('UPS', '1Z 99/9?x=1&y#z')).toBe(
      'https://www.ups.com/track?tracknum=1Z%2099%2F9%3Fx%3D1%26y%23z',
    );
    expect(trackingUrl('DHL Express', 'JD1')).toBe(trackingUrl('dhl-express', 'JD1'));
    expect(trackingUrl('dhl_express', 'JD1')).toContain('tracking-id=JD1');
  });

  it('are absent for a carrier not in the table, a code that is no carrier, or no number', () => {
    expect(trackingUrl('brt', '123')).toBeUndefined();
    expect(trackingUrl('__proto__', '123')).toBeUndefined();
    expect(trackingUrl('toString', '123')).toBeUndefined();
    expect(trackingUrl('ups', '  ')).toBeUndefined();
  });

  it('every template is https and fills the number once', () => {
    for (const [carrier, template] of Object.entries(TRACKING_URL_TEMPLATES)) {
      expect({ carrier, https: template.startsWith('https://') }).toEqual({ carrier, https: true });
      expect(template.split('{number}')).toHaveLength(2);
    }
  });
});

describe('what a repeated intake is compared by', () => {
  it('names each differing path; absent and null are the same', () => {
    expect(
      differingPaths(
        { a: 1, b: { c: 'x' }, items: [{ qty: 1 }], gone: null },
        { a: 1, b: { c: 'y' }, items: [{ qty: 2 }, { qty: 1 }] },
        'sales_order',
      ),
    ).toEqual(['sales_order.b.c', 'sales_order.items[0].qty', 'sales_order.items[1]']);
    expect(differingPaths({ a: [1] }, { a: [1] })).toEqual([]);
  });
});
