import * as v from 'valibot';
import { parseIsoDateTime, WEEKDAYS } from '../domain/deadline.js';
import { isTimeZone } from '../domain/time-zone.js';

/**
 * A warehouse's calendar fields (docs/deadlines.md), as a warehouse and a store's `calendar`
 * setting take them: each may be null (the next default). A calendar that cannot work is refused
 * here, naming the field, so that deriving a deadline never fails.
 */

const processingDays = v.pipe(
  v.number(),
  v.integer('must be a whole number of days'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(365, 'must be at most 365'),
);

const workingDays = v.pipe(
  v.array(v.picklist(WEEKDAYS, `must be one of ${WEEKDAYS.map((day) => `"${day}"`).join(', ')}`)),
  v.minLength(1, 'must list at least one working day'),
  v.check((days) => new Set(days).size === days.length, 'must name each day once'),
);

/** A date that exists, `YYYY-MM-DD`. */
const holiday = v.pipe(
  v.string(),
  v.check((text) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
  }, 'must be a date YYYY-MM-DD that exists'),
);

const holidays = v.pipe(v.array(holiday), v.maxLength(1000, 'must list at most 1000 dates'));

/** Local time `HH:MM`, 00:00 to 23:59. */
const cutoff = v.pipe(
  v.string(),
  v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a local time HH:MM from 00:00 to 23:59'),
);

const timezone = v.pipe(
  v.string(),
  v.check(isTimeZone, 'must be an IANA time zone such as "Europe/Milan"'),
);

/** The calendar fields, each optional and nullable: a warehouse's and a store's default. */
export const CalendarFieldsInput = v.object({
  processing_days: v.optional(v.nullable(processingDays)),
  working_days: v.optional(v.nullable(workingDays)),
  holidays: v.optional(v.nullable(holidays)),
  cutoff: v.optional(v.nullable(cutoff)),
  timezone: v.optional(v.nullable(timezone)),
});

/** Hours before `fulfill_by` an unshipped order is at risk. */
export const atRiskHours = v.pipe(
  v.number(),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(8760, 'must be at most 8760'),
);

/** A `fulfill_by` as sent: ISO 8601 (UTC without an offset), read as the API's UTC timestamp. */
export const fulfillByInput = v.pipe(
  v.string(),
  v.check(
    (text) => parseIsoDateTime(text) !== null,
    'must be an ISO 8601 date and time such as "2026-03-23T17:00:00Z"',
  ),
  v.transform((text) => parseIsoDateTime(text) as string),
);
