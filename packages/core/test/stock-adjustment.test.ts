import { describe, expect, it } from 'vitest';
import {
  type AdjustmentLine,
  adjustedKeys,
  applyAdjustment,
  parseWith,
  repeatedAdjustment,
  type StockAdjustmentRecord,
  StockAdjustmentRequest,
} from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';

const line = (sku: string, delta: number, reason: AdjustmentLine['reason'] = 'counted') => ({
  warehouse_code: 'WH-A',
  sku,
  delta,
  reason,
});
const level = (sku: string, on_hand: number) => ({
  warehouse_code: 'WH-A',
  sku,
  on_hand,
  reserved: 0,
});

describe('stock adjustments (docs/behaviour.md, Stock)', () => {
  it('lines of one sku count on from each other; the deltas are what is written', () => {
    const adjustment = {
      adjustment_number: 'A',
      items: [line('S', 3), line('T', 2), line('S', -5)],
    };
    expect(adjustedKeys(adjustment)).toEqual([
      { warehouse_code: 'WH-A', sku: 'S' },
      { warehouse_code: 'WH-A', sku: 'T' },
    ]);
    const { lines, deltas } = applyAdjustment(adjustment, [level('S', 2)]);
    expect(lines.map((applied) => applied.on_hand)).toEqual([5, 2, 0]);
    expect(deltas.map((delta) => delta.on_hand)).toEqual([3, 2, -5]);
    expect(deltas.every((delta) => delta.reserved === 0)).toBe(true);
  });

  it('refuses every line that would go below 0, naming its delta', () => {
    const adjustment = { adjustment_number: 'A', items: [line('S', -3), line('T', -1)] };
    const error = expectDomainError(
      () => applyAdjustment(adjustment, [level('S', 2)]),
      'invalid_stock_batch',
    );
    expect(error.parameters.map((p) => p.fieldName)).toEqual([
      'adjustment.items[0].delta',
      'adjustment.items[1].delta',
    ]);
  });

  it('a repeat with the same content answers the stored one; other content names each field', () => {
    const stored: StockAdjustmentRecord = {
      id: 1,
      store_id: 1,
      adjustment_number: 'A',
      token_name: 'partner',
      created_at: '2026-11-28 08:40:31',
      items: [{ ...line('S', 3), on_hand: 5 }],
    };
    const same = repeatedAdjustment(stored, { adjustment_number: 'A', items: [line('S', 3)] });
    expect(same.items).toEqual(stored.items);
    const error = expectDomainError(
      () =>
        repeatedAdjustment(stored, {
          adjustment_number: 'A',
          items: [line('S', 3, 'found'), line('T', 1)],
        }),
      'already_exists',
      'adjustment.adjustment_number',
    );
    expect(error.errors.map((e) => e.parameters[0]?.fieldName)).toEqual([
      'adjustment.items[0].reason',
      'adjustment.items[1]',
    ]);
  });

  it('parses a delta that is a whole number other than 0, and a known reason', () => {
    const body = (delta: unknown, reason = 'lost') => ({
      adjustment: {
        adjustment_number: 'A',
        items: [{ warehouse_code: 'W', sku: 'S', delta, reason }],
      },
    });
    expect(parseWith(StockAdjustmentRequest, body(-2)).adjustment.items[0]?.delta).toBe(-2);
    for (const [sent, field] of [
      [body(0), 'adjustment.items[0].delta'],
      [body(0.5), 'adjustment.items[0].delta'],
      [body(2 ** 53), 'adjustment.items[0].delta'],
      [body(1, 'stolen'), 'adjustment.items[0].reason'],
    ] as const) {
      expectDomainError(() => parseWith(StockAdjustmentRequest, sent), 'invalid_request', field);
    }
  });
});
