import {
  adjustedKeys,
  applyAdjustment,
  assertAdjustableWarehouses,
  presentAdjustment,
  repeatedAdjustment,
  type StockAdjustmentResource,
} from '../domain/stock-adjustment.js';
import { parseWith } from '../schemas/parse.js';
import { StockAdjustmentRequest } from '../schemas/requests.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { releaseRoutable } from './short-stock.js';
import { authorize, type Principal } from './tokens.js';

/** What an adjustment came to: applied now (201), or the same one asked for again (200). */
export interface AppliedAdjustment {
  outcome: 'created' | 'exists';
  adjustment: StockAdjustmentResource;
}

/**
 * POST /V1/stockAdjustments: changes on hand by deltas, all or nothing, once per adjustment
 * number (docs/behaviour.md, Stock). The rows are locked before their on hand is checked, so
 * that concurrent adjustments never take one below 0; the number's unique key makes a racing
 * repeat wait for the first and answer as to a repeat.
 */
export async function adjustStock(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<AppliedAdjustment> {
  authorize(deps, actor, 'stock_adjust');
  const { adjustment } = parseWith(StockAdjustmentRequest, body, 'invalid_stock_batch');
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    // Scope first: a repeat answers on hand figures, which a token sees of its own warehouses
    // only.
    const visible = await tx.listWarehouses(store.id, actor.warehouses);
    assertAdjustableWarehouses(adjustment, new Set(visible.map((warehouse) => warehouse.code)));
    const known = await tx.findStockAdjustment(store.id, adjustment.adjustment_number);
    if (known) return { outcome: 'exists', adjustment: repeatedAdjustment(known, adjustment) };
    const locked = await tx.lockStock(store.id, adjustedKeys(adjustment));
    // A racing repeat that held these rows has committed by now: answer as to a repeat, not
    // from the on hand it left.
    const winner = await tx.findStockAdjustment(store.id, adjustment.adjustment_number);
    if (winner) return { outcome: 'exists', adjustment: repeatedAdjustment(winner, adjustment) };
    const { lines, deltas } = applyAdjustment(adjustment, locked);
    const stored = await tx.insertStockAdjustment({
      id: 0,
      store_id: store.id,
      adjustment_number: adjustment.adjustment_number,
      token_name: actor.name,
      created_at: now(deps),
      items: lines,
    });
    if (!stored) {
      // A racing request applied this number to other rows meanwhile: nothing of ours is
      // written yet.
      const other = await tx.findStockAdjustment(store.id, adjustment.adjustment_number);
      if (!other) throw new Error('fulfil: an adjustment number both taken and absent');
      return { outcome: 'exists', adjustment: repeatedAdjustment(other, adjustment) };
    }
    await tx.adjustStock(store.id, deltas);
    await releaseRoutable(
      deps,
      tx,
      store,
      deltas.map((delta) => delta.sku),
      now(deps),
    );
    return { outcome: 'created', adjustment: presentAdjustment(stored) };
  });
}
