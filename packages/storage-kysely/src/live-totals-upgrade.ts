import { formatTimestamp, liveTotalsUpgrade } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import { KyselyRepositoryTx } from './kysely-repository-tx.js';
import { withRetries } from './transaction-retry.js';

/** Orders per transaction while bringing them to the live-lines rule. */
const ORDERS_PER_STEP = 200;

/** The audit event's `action` and `reason`, on the timeline of each order it changed. */
export const LIVE_TOTALS_UPGRADE = {
  action: 'live_totals',
  reason: 'upgrade: the totals follow the live lines (migration 0010_live_totals)',
} as const;

/**
 * Brings the orders migration 0010 listed to the live-lines rule (core's `liveTotalsUpgrade`),
 * as an action writes an order: under its lock, the order and its queue documents under a new
 * change id (a `since` poller gets it again, a `date` poller sees `updated_at` move, other
 * processes' caches let it go), and an audit event with the totals before and after. Each step
 * is one transaction that also takes its orders off the list, so an interrupted run resumes
 * where it stopped. Live code, run after the migrations (the schema is then current), as
 * `fillMissingDocuments` is. `profile` is the adapter's (SQLite's way, without retries, when
 * absent). Returns how many orders' totals changed.
 */
export async function bringOrdersToLiveTotals(
  db: Kysely<Database>,
  profile: DriverProfile | undefined,
  now: () => string = () => formatTimestamp(new Date()),
): Promise<number> {
  const step = () =>
    db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('fulfil_live_totals_due')
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
        const upgrade = order && liveTotalsUpgrade(order, at);
        if (!upgrade) continue;
        await tx.saveOrder(upgrade.order);
        await tx.appendAudit([
          {
            order_id: id,
            at,
            actor: 'system',
            action: LIVE_TOTALS_UPGRADE.action,
            details: upgrade.details,
            reason: LIVE_TOTALS_UPGRADE.reason,
          },
        ]);
        changed += 1;
      }
      await trx.deleteFrom('fulfil_live_totals_due').where('order_id', 'in', ids).execute();
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
