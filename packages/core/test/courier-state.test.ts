import { describe, expect, it } from 'vitest';
import { currentCourierState, type FulfillmentOrder } from '../src/index.js';
import { line, order } from './support/order.js';

/** docs/admin-api.md: an order's courier error is its state only while it is current. */

const tried = (base: FulfillmentOrder): FulfillmentOrder => ({
  ...base,
  courier: {
    attempts: 2,
    last_error: 'permanent: [E1] no',
    next_attempt_at: '2026-01-01 00:01:00',
  },
});

const failedAt = (stage: 'shipment' | 'allocation') => ({
  stage,
  reason: 'courier: permanent: [E1] no',
  abandoned: false,
  failed_at: '2026-01-01 00:00:00',
});

describe('currentCourierState', () => {
  it('while lines await the courier, or the order failed at it, the error is current', () => {
    const waiting = tried(order([line(1, { status: 'pending_shipment' })]));
    expect(currentCourierState(waiting)).toEqual(waiting.courier);
    const failed = { ...tried(order([line(1, { status: 'pending_shipment' })])) };
    expect(currentCourierState({ ...failed, failure: failedAt('shipment') })).toEqual(
      failed.courier,
    );
  });

  it('shipped, canceled, or failed at another stage, it is history: attempts stay, the rest is null', () => {
    const history = { attempts: 2, last_error: null, next_attempt_at: null };
    for (const moved of [
      tried(order([line(1, { status: 'pending_invoice' })])),
      tried(order([line(1, { status: 'canceled' })])),
      {
        ...tried(order([line(1, { status: 'pending_shipment' })])),
        failure: failedAt('allocation'),
      },
    ]) {
      expect(currentCourierState(moved)).toEqual(history);
    }
  });
});
