import * as v from 'valibot';
import type { StockHistoryEntry, StockHistoryPosition } from '../domain/stock-history.js';
import { StockHistoryInput } from '../schemas/admin.js';
import { code } from '../schemas/fields.js';
import { parseWith } from '../schemas/parse.js';
import { requireRole } from './admin-access.js';
import { decodeCursor, encodeCursor } from './admin-cursor.js';
import { type EngineDeps, requireStore } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';

const HISTORY_PAGE = 100;

const StockKey = v.object({ warehouse: code, sku: code });

const HistoryCursor = v.tuple([
  v.string(),
  v.picklist(['set', 'adjustment']),
  v.pipe(v.number(), v.safeInteger()),
  v.pipe(v.number(), v.safeInteger()),
]);

function decodePosition(after: string | undefined): StockHistoryPosition | undefined {
  if (after === undefined) return undefined;
  const [at, kind, id, line] = decodeCursor(HistoryCursor, after);
  return { at, kind, id, line };
}

/** What the admin API shows of a history entry: its position only as the cursor. */
export type StockHistoryItem = Omit<StockHistoryEntry, 'id' | 'line'>;

/**
 * The stock history of one warehouse and sku: every absolute set and adjustment, newest first,
 * 100 a page (docs/admin-api.md). Reservations and releases are not recorded in it yet.
 */
export async function stockHistoryFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  warehouseCode: string,
  sku: string,
  query: unknown,
): Promise<{ items: StockHistoryItem[]; next: string | null }> {
  requireRole(operator, 'viewer', storeCode);
  const key = parseWith(StockKey, { warehouse: warehouseCode, sku });
  const before = decodePosition(parseWith(StockHistoryInput, query).after);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const entries = await tx.stockHistory({
      store_id: store.id,
      warehouse_code: key.warehouse,
      sku: key.sku,
      limit: HISTORY_PAGE + 1,
      ...(before === undefined ? {} : { before }),
    });
    const shown = entries.slice(0, HISTORY_PAGE);
    const last = shown[shown.length - 1];
    return {
      items: shown.map(({ id: _id, line: _line, ...item }) => item),
      next:
        entries.length > HISTORY_PAGE && last
          ? encodeCursor([last.at, last.kind, last.id, last.line])
          : null,
    };
  }, 'read');
}
