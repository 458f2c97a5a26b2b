import { describe, expect, it } from 'vitest';
import {
  canApply,
  INITIAL_ITEM_STATUSES,
  ITEM_TRANSITIONS,
  type ItemStatus,
  isApplied,
} from '../src/index.js';

const ALL: ItemStatus[] = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'invoiced',
  'rejected',
  'canceled',
];

describe('the item state machine, as data', () => {
  it('names only known states', () => {
    for (const transition of Object.values(ITEM_TRANSITIONS)) {
      expect(ALL).toContain(transition.to);
      for (const from of transition.from) expect(ALL).toContain(from);
    }
  });

  it('reaches every state from the initial ones', () => {
    const reached = new Set<ItemStatus>(INITIAL_ITEM_STATUSES);
    let grew = true;
    while (grew) {
      grew = false;
      for (const { from, to } of Object.values(ITEM_TRANSITIONS)) {
        if (from.some((state) => reached.has(state)) && !reached.has(to)) {
          reached.add(to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...ALL].sort());
  });

  it('moves forward one stage per action', () => {
    expect(canApply('accept', 'pending_accept')).toBe(true);
    expect(canApply('ship', 'pending_allocation')).toBe(false);
    expect(canApply('invoice', 'pending_invoice')).toBe(true);
  });

  it('spec rule 1: an item at or past the target state counts as applied (idempotent retry)', () => {
    expect(isApplied('accept', 'pending_allocation')).toBe(true);
    expect(isApplied('accept', 'invoiced')).toBe(true);
    expect(isApplied('ship', 'pending_invoice')).toBe(true);
    expect(isApplied('ship', 'pending_shipment')).toBe(false);
    expect(isApplied('reject', 'rejected')).toBe(true);
    expect(isApplied('accept', 'rejected')).toBe(false);
  });
});
