import type { FulfillmentOrder } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/** A table a migration filled with the ids of the orders live code must bring to a new rule. */
export type UpgradeList = 'fulfil_live_totals_due' | 'fulfil_ended_holds_due';

/** What one upgrade does to one listed order: its timeline entries, and the order they leave. */
export interface ListedOrderUpgrade {
  list: UpgradeList;
  /** The timeline's `action` and `reason` of each entry; `actor` is `system`. */
  action: string;
  reason: string;
  /**
   * Lists the orders of a store that may not follow the rule, as the migration listed every
   * order: for a store imported from a dump an older release wrote. Listing one that follows it
   * already costs a read: `upgrade` then leaves it alone.
   */
  listStore(db: Kysely<Database>, storeId: number): Promise<void>;
  /** The order brought to the rule and each entry's details; null when it follows it already. */
  upgrade(
    order: FulfillmentOrder,
    now: string,
  ): { order: FulfillmentOrder; details: Record<string, unknown>[] } | null;
}
