import { compareCodes, type SequenceClaim } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database } from './database.js';
import type { PreparedQueries } from './prepared-queries.js';

/**
 * Claims numbers of many sales orders' sequences in one set-based upsert per batch: each row adds
 * its count to the sequence atomically (`last_sequence + count`, never read-modify-write), so two
 * transactions never get the same number, exactly as one `nextFulfillmentSequence` at a time.
 * Answers the first number claimed for each claim, in the order given.
 */
export async function claimSequences(
  db: Kysely<Database>,
  bulk: BulkStatements,
  storeId: number,
  claims: readonly SequenceClaim[],
): Promise<number[]> {
  if (new Set(claims.map((claim) => claim.sales_order_number)).size !== claims.length) {
    throw new TypeError('fulfil: a sequence claim names one sales order twice');
  }
  const rows = claims.map((claim) => {
    if (!Number.isSafeInteger(claim.count) || claim.count < 1) {
      throw new TypeError(`fulfil: a sequence claim counts 1 or more numbers, not ${claim.count}`);
    }
    return {
      store_id: storeId,
      sales_order_number: claim.sales_order_number,
      last_sequence: claim.count,
    };
  });
  // Sorted, so that two transactions claiming overlapping sales orders lock their rows in the
  // same order and cannot deadlock on each other.
  rows.sort((a, b) => compareCodes(a.sales_order_number, b.sales_order_number));
  const claimed = await bulk.run(
    db,
    {
      name: 'claim sales_order_sequences',
      table: 'sales_order_sequences',
      columns: ['store_id', 'sales_order_number', 'last_sequence'],
      finish: (insert) =>
        insert
          .onConflict((oc) =>
            oc.columns(['store_id', 'sales_order_number']).doUpdateSet((eb) => ({
              last_sequence: eb(
                'sales_order_sequences.last_sequence',
                '+',
                eb.ref('excluded.last_sequence'),
              ),
            })),
          )
          .returning(['sales_order_number', 'last_sequence']),
    },
    rows,
  );
  const last = new Map(claimed.map((row) => [row.sales_order_number, Number(row.last_sequence)]));
  return claims.map((claim) => (last.get(claim.sales_order_number) as number) - claim.count + 1);
}

/** The next number of one sales order's sequence (`RepositoryTx.nextFulfillmentSequence`). */
export async function nextSequence(
  db: Kysely<Database>,
  storeId: number,
  salesOrderNumber: string,
): Promise<number> {
  const row = await db
    .insertInto('sales_order_sequences')
    .values({ store_id: storeId, sales_order_number: salesOrderNumber, last_sequence: 1 })
    .onConflict((oc) =>
      oc.columns(['store_id', 'sales_order_number']).doUpdateSet((eb) => ({
        last_sequence: eb('sales_order_sequences.last_sequence', '+', 1),
      })),
    )
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return Number(row.last_sequence);
}

/** Which of these sales orders the store has claimed a sequence of (`knownSalesOrders`). */
export async function knownSalesOrders(
  db: Kysely<Database>,
  prepared: PreparedQueries,
  storeId: number,
  salesOrderNumbers: readonly string[],
): Promise<string[]> {
  const known: string[] = [];
  for (const slice of chunk([...new Set(salesOrderNumbers)], IN_LIST_SIZE)) {
    const { rows } = await prepared.runWithLists(
      db,
      'known sales orders',
      [storeId],
      [slice],
      (db, argument, listed) =>
        db
          .selectFrom('sales_order_sequences')
          .select('sales_order_number')
          .where('store_id', '=', argument<number>(0))
          .where('sales_order_number', 'in', listed<string>(0)),
    );
    for (const row of rows) known.push(row.sales_order_number);
  }
  return known;
}
