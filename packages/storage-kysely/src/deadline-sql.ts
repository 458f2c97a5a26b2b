import {
  type DeadlineClock,
  type DeadlineStatus,
  ENDED_STATUSES,
  SHIPPED_STATUSES,
} from '@fulfil/core';
import { type RawBuilder, sql } from 'kysely';
import { NO_DEADLINE } from './database.js';

/**
 * Deadline statuses in SQL (docs/deadlines.md): the same rule as core's `deadlineStatus`, over
 * the columns of `fulfillment_orders` (unqualified), for the admin search's filter, the
 * dashboard's counts and the metrics. A test holds the two together on both databases.
 */

const list = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));
export const shipped = sql<boolean>`status in (${list(SHIPPED_STATUSES)})`;
export const open = sql<boolean>`status not in (${list([...SHIPPED_STATUSES, ...ENDED_STATUSES])})`;
export const hasDeadline = sql<boolean>`fulfill_by <> ${sql.lit(NO_DEADLINE)}`;
/** The comparison migration 0031 indexes, as written there: compared to a constant. */
const shippedLate = sql<boolean>`(shipped_at > fulfill_by)`;

/** The orders in `status` at `clock`; each bound on `fulfill_by` a range of its index. */
export function deadlineWhere(status: DeadlineStatus, clock: DeadlineClock): RawBuilder<boolean> {
  switch (status) {
    case 'overdue':
      return sql`(fulfill_by < ${clock.now} and ${open})`;
    case 'at_risk':
      return sql`(fulfill_by >= ${clock.now} and fulfill_by < ${clock.at_risk_until} and ${open})`;
    case 'on_track':
      return sql`(fulfill_by >= ${clock.at_risk_until} and ${hasDeadline} and ${open})`;
    case 'met':
      // `shipped_at <= fulfill_by` (shipped_at is never null once shipped), as migration 0031's
      // indexes say it; "none" is no deadline kept.
      return sql`(${shippedLate} = false and ${shipped} and ${hasDeadline})`;
    case 'missed':
      // Nothing ships after "none", so no `hasDeadline`: the terms of 0031's expression index,
      // and (folded by Postgres into `shipped_at > fulfill_by`) of 0030's partial one.
      return sql`(${shippedLate} = true and ${shipped})`;
  }
}

/** The deadline status of the row at `clock`, null for none: `deadlineWhere` as one CASE. */
export function statusCase(clock: DeadlineClock): RawBuilder<DeadlineStatus | null> {
  return sql`case
    when not ${hasDeadline} or status in (${list(ENDED_STATUSES)}) then null
    when ${shipped} then case when shipped_at <= fulfill_by then 'met' else 'missed' end
    when fulfill_by < ${clock.now} then 'overdue'
    when fulfill_by < ${clock.at_risk_until} then 'at_risk'
    else 'on_track' end`;
}
