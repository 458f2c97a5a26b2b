import { describe, expect, it } from 'vitest';
import {
  ageBucket,
  attentionHours,
  type CancellationRequest,
  countByAge,
  type HeldOrder,
  type OrderHold,
  openCancellationRequests,
  openHolds,
  type RequestedOrder,
} from '../src/index.js';
import { fixtures } from '../src/testing/index.js';

const { storeSettings } = fixtures;

/** The open holds and requests as the lists show them, and their ages as the metrics count. */

const hold = (handle: string, placed_at: string, released = false): OrderHold => ({
  handle,
  reason: 'other',
  note: null,
  placed_by: 'crm',
  placed_at,
  released_by: released ? 'crm' : null,
  released_at: released ? placed_at : null,
});

const held = (number: string, holds: OrderHold[]): HeldOrder => ({
  fulfillment_order_number: number,
  sales_order_number: number.split('-')[0] as string,
  warehouse_code: 'WH-A',
  status: 'pending_accept',
  holds,
});

const request = (
  id: number,
  requested_at: string,
  status: CancellationRequest['status'] = 'open',
): CancellationRequest => ({
  id,
  reason: 'customer',
  item_ids: [1],
  requested_by: 'shop',
  requested_at,
  status,
  message: null,
  answered_by: null,
  answered_at: null,
});

const requested = (number: string, requests: CancellationRequest[]): RequestedOrder => ({
  fulfillment_order_number: number,
  sales_order_number: number.split('-')[0] as string,
  warehouse_code: 'WH-A',
  cancellation_requests: requests,
  lines: [{ item_id: 1, sku: 'SKU-1', qty: 2 }],
});

describe('open holds and cancellation requests', () => {
  it('one row per active hold, oldest placed first, ties by order then handle', () => {
    const rows = openHolds([
      held('2-1', [hold('b', '2026-01-01 10:00:00'), hold('gone', '2026-01-01 08:00:00', true)]),
      held('1-1', [hold('z', '2026-01-01 10:00:00'), hold('a', '2026-01-01 11:00:00')]),
      held('3-1', [hold('a', '2026-01-01 09:00:00')]),
    ]);
    expect(rows.map((row) => `${row.fulfillment_order_number}/${row.handle}`)).toEqual([
      '3-1/a',
      '1-1/z',
      '2-1/b',
      '1-1/a',
    ]);
  });

  it('the open request of each order only, oldest first', () => {
    const rows = openCancellationRequests([
      requested('1-1', [
        request(1, '2026-01-01 08:00:00', 'rejected'),
        request(2, '2026-01-02 10:00:00'),
      ]),
      requested('2-1', [request(1, '2026-01-01 09:00:00')]),
      requested('3-1', [request(1, '2026-01-01 07:00:00', 'accepted')]),
    ]);
    expect(rows.map((row) => [row.fulfillment_order_number, row.id])).toEqual([
      ['2-1', 1],
      ['1-1', 2],
    ]);
    expect(rows[0]).toMatchObject({
      reason: 'customer',
      requested_by: 'shop',
      lines: [{ qty: 2 }],
    });
  });

  it('ages fall in buckets by their lower bound, every bucket counted', () => {
    const now = '2026-01-02 12:00:00';
    expect(ageBucket('2026-01-02 11:00:01', now)).toBe('under_1h');
    expect(ageBucket('2026-01-02 11:00:00', now)).toBe('1h_to_4h');
    expect(ageBucket('2026-01-02 08:00:00', now)).toBe('4h_to_24h');
    expect(ageBucket('2026-01-01 12:00:00', now)).toBe('over_24h');
    expect(countByAge(['2026-01-02 11:30:00', '2026-01-01 00:00:00'], now)).toEqual({
      under_1h: 1,
      '1h_to_4h': 0,
      '4h_to_24h': 0,
      over_24h: 1,
    });
  });

  it('a request may wait 4 hours by default; a store sets its own or none', () => {
    expect(attentionHours(storeSettings()).pending_cancellation).toBe(4);
    const own = { ...storeSettings(), attention_after_hours: { pending_cancellation: null } };
    expect(attentionHours(own).pending_cancellation).toBeNull();
    expect(attentionHours(own).pending_accept).toBe(24);
  });
});
