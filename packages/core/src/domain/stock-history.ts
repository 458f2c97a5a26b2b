import type { Timestamp } from './timestamp.js';

/** Where an absolute set came from: `POST /V1/stockItems` or an operator's set in the admin API. */
export type StockSetSource = 'stock_items' | 'admin';

/** One absolute set of one (warehouse, sku), as stored in the stock history. */
export interface StockSetRecord {
  store_id: number;
  warehouse_code: string;
  sku: string;
  on_hand_before: number;
  on_hand_after: number;
  /** The on hand the sender believed current, when it sent one. */
  change_from: number | null;
  /** The token's or the operator's name. */
  actor: string;
  source: StockSetSource;
  request_id: string | null;
  created_at: Timestamp;
}

/** Who set, how and when: the same for every row of one set. */
export type StockSetContext = Pick<
  StockSetRecord,
  'actor' | 'source' | 'request_id' | 'created_at'
>;

/** Where an entry stands in the history: newest first by time, then set before adjustment, id, line. */
export interface StockHistoryPosition {
  at: Timestamp;
  kind: 'set' | 'adjustment';
  /** The set's or the adjustment's id. */
  id: number;
  /** The adjustment's line; 0 for a set. */
  line: number;
}

/** One entry of a (warehouse, sku)'s stock history. */
export interface StockHistoryEntry extends StockHistoryPosition {
  delta: number;
  on_hand_after: number;
  /** Sets only: the on hand the set replaced. */
  on_hand_before?: number;
  /** Adjustments only. */
  reason?: string;
  /** The token's or the operator's name. */
  by: string;
  /** Sets only. */
  source?: StockSetSource;
  adjustment_number?: string;
  request_id?: string;
}

export interface StockHistoryQuery {
  store_id: number;
  warehouse_code: string;
  sku: string;
  /** Only entries older than this one. */
  before?: StockHistoryPosition;
  limit: number;
}

const KIND_RANK = { adjustment: 0, set: 1 } as const;

/** Orders history entries newest first (a total order over both kinds). */
export function newestFirst(a: StockHistoryPosition, b: StockHistoryPosition): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  return KIND_RANK[b.kind] - KIND_RANK[a.kind] || b.id - a.id || b.line - a.line;
}

/** Sets and adjustment lines, each newest first, merged into one page of at most `limit`. */
export function mergeHistory(
  sets: readonly StockHistoryEntry[],
  adjustments: readonly StockHistoryEntry[],
  limit: number,
): StockHistoryEntry[] {
  return [...sets, ...adjustments].sort(newestFirst).slice(0, limit);
}
