import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { loadOrdersById } from './order-persistence.js';
import { writeQueueEntries } from './queue-entry-writes.js';

/** Orders per transaction while filling documents in. */
const ORDERS_PER_STEP = 500;

/**
 * Writes the document of every queue entry that has none: the orders that were in a queue when
 * the read model was introduced (migration 0002), or whose documents a later migration cleared
 * because the presentation changed. Each step is one transaction and rewrites whole orders, so
 * an interrupted run leaves every order either done or still to do, and the next run resumes.
 * Returns how many orders it completed.
 */
export async function fillMissingDocuments(db: Kysely<Database>): Promise<number> {
  let filled = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('queue_entries')
        .select('order_id')
        .distinct()
        .where('document', 'is', null)
        .orderBy('order_id')
        .limit(ORDERS_PER_STEP)
        .execute();
      const orders = await loadOrdersById(
        trx,
        rows.map((row) => Number(row.order_id)),
      );
      for (const order of orders) await writeQueueEntries(trx, order, null, null);
      return orders.length;
    });
    filled += done;
    if (done < ORDERS_PER_STEP) return filled;
  }
}
