import { describe, expect, it } from 'vitest';
import { deriveOrderStatus, type ItemStatus } from '../src/index.js';

const items = (...statuses: ItemStatus[]) => statuses.map((status) => ({ status }));

describe('docs/behaviour.md: the order status is derived from the live items', () => {
  it.each([
    [['pending_accept', 'pending_accept'], 'pending_accept'],
    [['pending_allocation'], 'pending_allocation'],
    [['pending_shipment', 'pending_shipment'], 'pending_shipment'],
    [['pending_invoice'], 'pending_invoice'],
    [['invoiced', 'invoiced'], 'invoiced'],
    [['pending_accept', 'pending_allocation'], 'partially_accepted'],
    [['pending_allocation', 'pending_shipment'], 'partially_allocated'],
    [['pending_shipment', 'pending_invoice'], 'partially_shipped'],
    [['pending_shipment', 'invoiced'], 'partially_shipped'],
    [['pending_invoice', 'invoiced'], 'partially_invoiced'],
    [['pending_accept', 'invoiced'], 'partially_accepted'],
  ] as [ItemStatus[], string][])('%j → %s', (statuses, expected) => {
    expect(deriveOrderStatus(items(...statuses), null)).toBe(expected);
  });

  it('ignores rejected and canceled items when live ones remain', () => {
    expect(deriveOrderStatus(items('rejected', 'pending_allocation', 'canceled'), null)).toBe(
      'pending_allocation',
    );
  });

  it('is rejected when no live item is left, canceled when an operator canceled one', () => {
    expect(deriveOrderStatus(items('rejected', 'rejected'), null)).toBe('rejected');
    expect(deriveOrderStatus(items('rejected', 'canceled'), null)).toBe('canceled');
  });

  it('is failed while the order is out of the flow, whatever the items', () => {
    const failure = {
      stage: 'shipment' as const,
      reason: 'x',
      abandoned: false,
      failed_at: '2026-01-01 00:00:00',
    };
    expect(deriveOrderStatus(items('pending_shipment', 'invoiced'), failure)).toBe('failed');
  });
});
