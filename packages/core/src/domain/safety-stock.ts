import type { StockLevel, Warehouse } from './types.js';

/** The safety stock of a sku at a warehouse: its own, else the warehouse's (docs/behaviour.md). */
export function safetyStockOf(
  level: Pick<StockLevel, 'safety_stock'> | undefined,
  warehouse: Pick<Warehouse, 'safety_stock'> | undefined,
): number {
  return level?.safety_stock ?? warehouse?.safety_stock ?? 0;
}

/**
 * What routing may promise of a sku at a warehouse: on hand minus reserved minus safety stock,
 * negative when partners hold or ship into the safety stock. No row: nothing on hand.
 */
export function availableOf(
  level: StockLevel | undefined,
  warehouse: Pick<Warehouse, 'safety_stock'> | undefined,
): number {
  return (level?.on_hand ?? 0) - (level?.reserved ?? 0) - safetyStockOf(level, warehouse);
}

/** A stock row as operators see it. */
export interface StockView {
  warehouse_code: string;
  sku: string;
  on_hand: number;
  reserved: number;
  /** The sku's own safety stock there, else the warehouse's. */
  safety_stock: number;
  /** On hand minus reserved minus safety stock (may be negative). */
  available: number;
}

/** A stock row as operators see it: the safety stock in effect and what routing may promise. */
export function withSafetyStock(
  level: StockLevel,
  warehouse: Pick<Warehouse, 'safety_stock'> | undefined,
): StockView {
  return {
    warehouse_code: level.warehouse_code,
    sku: level.sku,
    on_hand: level.on_hand,
    reserved: level.reserved,
    safety_stock: safetyStockOf(level, warehouse),
    available: availableOf(level, warehouse),
  };
}
