import { formatTimestamp } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import { ENDED_HOLDS_ORDER_UPGRADE } from './ended-holds-upgrade.js';
import { KyselyRepositoryTx } from './kysely-repository-tx.js';
import type { ListedOrderUpgrade } from './listed-order-upgrade.js';
import { LIVE_TOTALS_UPGRADE } from './live-totals-upgrade.js';
import { withRetries } from './transaction-retry.js';

/** Orders per transaction while upgrading them. */
const ORDERS_PER_STEP = 200;

/**
 * Brings the orders a migration listed to a rule of this release, as an action writes an order:
 * under its lock, the order, its queue documents and its sales order's feed entry under a new
 * change id (a `since` poller gets it again, a `date` poller sees `updated_at` move, other processes' caches let it go), and its
 * timeline entries. Each step is one transaction that also takes its orders off the list, so an
 * interrupted run resumes where it stopped. Live code, run after the migrations (the schema is
 * then current). `profile` is the adapter's (SQLite's way, without retries, when absent).
 * Returns how many orders changed.
 */
export async function upgradeListedOrders(
  db: Kysely<Database>,
  profile: DriverProfile | undefined,
  upgrade: ListedOrderUpgrade,
  now: () => string = () => formatTimestamp(new Date()),
): Promise<number> {
  const step = () =>
    db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom(upgrade.list)
        .select('order_id')
        .orderBy('order_id')
        .limit(ORDERS_PER_STEP)
        .execute();
      const ids = rows.map((row) => Number(row.order_id));
      if (ids.length === 0) return { listed: 0, changed: 0 };
      const tx = new KyselyRepositoryTx(trx, {
        rowLocks: profile?.rowLocks ?? false,
        ...(profile ? { changeFeed: profile } : {}),
      });
      const at = now();
      let changed = 0;
      for (const id of ids) {
        const order = await tx.lockOrderById(id);
        const upgraded = order && upgrade.upgrade(order, at);
        if (!upgraded) continue;
        await tx.saveOrder(upgraded.order);
        await tx.appendAudit(
          upgraded.details.map((details) => ({
            order_id: id,
            at,
            actor: 'system',
            action: upgrade.action,
            details,
            reason: upgrade.reason,
          })),
        );
        changed += 1;
      }
      // The sales orders of what changed move in their feed, as after any action.
      await tx.finish();
      await trx.deleteFrom(upgrade.list).where('order_id', 'in', ids).execute();
      return { listed: ids.length, changed };
    });
  let changed = 0;
  for (;;) {
    // A step that meets a deadlock or a lock held elsewhere runs again, as an action would.
    const done = await (profile ? withRetries(profile, step) : step());
    changed += done.changed;
    if (done.listed < ORDERS_PER_STEP) return changed;
  }
}

/** Every upgrade of a listed order, in the order their migrations came. */
export const LISTED_UPGRADES: readonly ListedOrderUpgrade[] = [
  LIVE_TOTALS_UPGRADE,
  ENDED_HOLDS_ORDER_UPGRADE,
];

/** Runs every upgrade over what is listed for it; how many orders changed. */
export async function upgradeAllListedOrders(
  db: Kysely<Database>,
  profile: DriverProfile | undefined,
): Promise<number> {
  let changed = 0;
  for (const upgrade of LISTED_UPGRADES) changed += await upgradeListedOrders(db, profile, upgrade);
  return changed;
}
