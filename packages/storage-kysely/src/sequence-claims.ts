import { compareCodes, type SequenceClaim } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import type { Database } from './database.js';

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
