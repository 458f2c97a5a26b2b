import type { CalendarFields, WarehouseCalendar, Weekday } from './calendar.js';
import { WEEKDAYS } from './calendar.js';
import { formatTimestamp, type Timestamp } from './timestamp.js';
import type { FulfillmentOrder, OrderStatus } from './types.js';

/**
 * Deadlines (docs/deadlines.md): when a fulfillment order must leave its warehouse, and how it
 * stands against that moment. Pure: the time zone rules come from the runtime's Intl data.
 */

export { type CalendarFields, type WarehouseCalendar, WEEKDAYS, type Weekday } from './calendar.js';

/** The calendar of a warehouse and a store that set none. */
export const DEFAULT_CALENDAR: Readonly<WarehouseCalendar> = Object.freeze({
  processing_days: 1,
  working_days: ['mon', 'tue', 'wed', 'thu', 'fri'] as Weekday[],
  holidays: [] as string[],
  cutoff: '17:00',
  timezone: 'UTC',
});

/** The calendar a warehouse works by: each field its own, else the store's, else the default. */
export function calendarOf(
  warehouse: CalendarFields | null | undefined,
  store: CalendarFields | null | undefined,
): WarehouseCalendar {
  const pick = <K extends keyof WarehouseCalendar>(key: K): WarehouseCalendar[K] =>
    (warehouse?.[key] ?? store?.[key] ?? DEFAULT_CALENDAR[key]) as WarehouseCalendar[K];
  return {
    processing_days: pick('processing_days'),
    working_days: pick('working_days'),
    holidays: pick('holidays'),
    cutoff: pick('cutoff'),
    timezone: pick('timezone'),
  };
}

// --- Time zones through Intl ------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Wall times already read, by time zone and second. Every order taken in reads a few (its
 * deadline), and the orders of one second read the same ones: `formatToParts` is then paid once.
 */
const wallClocks = new Map<string, number>();
/** Enough for the seconds of many time zones at once; emptied whole when full. */
const WALL_CLOCKS_KEPT = 4096;

/** The local wall time at an instant, as the epoch milliseconds of the same fields read in UTC. */
function wallClockOf(timeZone: string, epochMs: number): number {
  // The fields stop at the second: every instant of one second reads the same wall time.
  const second = Math.floor(epochMs / 1000) * 1000;
  const key = `${timeZone}\u0000${second}`;
  const known = wallClocks.get(key);
  if (known !== undefined) return known;
  const fields: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(second)))
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  const wall = Date.UTC(
    fields.year as number,
    (fields.month as number) - 1,
    fields.day as number,
    fields.hour as number,
    fields.minute as number,
    fields.second as number,
  );
  if (wallClocks.size >= WALL_CLOCKS_KEPT) wallClocks.clear();
  wallClocks.set(key, wall);
  return wall;
}

/** How far local time is ahead of UTC at an instant, in milliseconds. */
function offsetAt(timeZone: string, epochMs: number): number {
  const whole = Math.floor(epochMs / 1000) * 1000;
  return wallClockOf(timeZone, whole) - whole;
}

const DAY_MS = 86_400_000;

/**
 * The instant a local wall time names. A time that happens twice (clocks set back) is the
 * first; a time that never happens (clocks set forward) moves on by the gap, so a 02:30 cutoff
 * on the spring day is 03:30 summer time: the deadline is never earlier than the wall time says.
 */
export function instantOfWallTime(timeZone: string, wallMs: number): number {
  const before = offsetAt(timeZone, wallMs - DAY_MS);
  const after = offsetAt(timeZone, wallMs + DAY_MS);
  const candidates = [wallMs - before, wallMs - after]
    .filter((instant) => offsetAt(timeZone, instant) === wallMs - instant)
    .sort((a, b) => a - b);
  return candidates[0] ?? wallMs - before;
}

// --- Calendar arithmetic on local dates (UTC-read epoch days) ---------------------------------

function dateText(dayMs: number): string {
  return new Date(dayMs).toISOString().slice(0, 10);
}

function weekdayOf(dayMs: number): Weekday {
  // 1970-01-01 was a Thursday; getUTCDay is 0 for Sunday.
  return WEEKDAYS[(new Date(dayMs).getUTCDay() + 6) % 7] as Weekday;
}

function cutoffMinutes(cutoff: string): number {
  const [hours, minutes] = cutoff.split(':').map(Number);
  return (hours as number) * 60 + (minutes as number);
}

/** The longest a search for a working day may run: a calendar refused by validation, not a hang. */
const MAX_DAYS_SEARCHED = 3660;

/**
 * The deadline derived from a calendar for an order taken in at `createdAt` (UTC): the order
 * starts on its local day when that is a working day and it came before the cutoff, else on the
 * next working day; that day is the first of its `processing_days`, and the deadline is the
 * cutoff of the last of them, in UTC.
 */
export function deriveFulfillBy(calendar: WarehouseCalendar, createdAt: Timestamp): Timestamp {
  const last = lastDerived;
  if (last && last.createdAt === createdAt && sameCalendar(last.calendar, calendar)) {
    return last.fulfillBy;
  }
  const fulfillBy = computeFulfillBy(calendar, createdAt);
  lastDerived = {
    calendar: {
      ...calendar,
      working_days: [...calendar.working_days],
      holidays: [...calendar.holidays],
    },
    createdAt,
    fulfillBy,
  };
  return fulfillBy;
}

/**
 * The last deadline derived. Timestamps stop at the second and a store's warehouses share few
 * calendars: the orders of a batch, and those taken in within one second, derive the same
 * deadline, which then costs a comparison instead of the calendar walk.
 */
let lastDerived:
  | { calendar: WarehouseCalendar; createdAt: Timestamp; fulfillBy: Timestamp }
  | undefined;

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

function sameCalendar(a: WarehouseCalendar, b: WarehouseCalendar): boolean {
  return (
    a.timezone === b.timezone &&
    a.cutoff === b.cutoff &&
    a.processing_days === b.processing_days &&
    sameList(a.working_days, b.working_days) &&
    sameList(a.holidays, b.holidays)
  );
}

function computeFulfillBy(calendar: WarehouseCalendar, createdAt: Timestamp): Timestamp {
  const created = Date.parse(`${createdAt.replace(' ', 'T')}Z`);
  const wall = wallClockOf(calendar.timezone, created);
  const cutoff = cutoffMinutes(calendar.cutoff);
  const working = new Set(calendar.working_days);
  const holidays = new Set(calendar.holidays);
  const isWorkingDay = (dayMs: number) =>
    working.has(weekdayOf(dayMs)) && !holidays.has(dateText(dayMs));
  let day = Math.floor(wall / DAY_MS) * DAY_MS;
  const minuteOfDay = Math.floor((wall - day) / 60_000);
  if (!isWorkingDay(day) || minuteOfDay >= cutoff) day += DAY_MS;
  let remaining = Math.max(1, calendar.processing_days);
  for (let searched = 0; ; searched++) {
    if (searched > MAX_DAYS_SEARCHED) throw new Error('the calendar has no working day');
    if (isWorkingDay(day)) {
      remaining -= 1;
      if (remaining === 0) break;
    }
    day += DAY_MS;
  }
  return formatTimestamp(new Date(instantOfWallTime(calendar.timezone, day + cutoff * 60_000)));
}

/**
 * The deadline of an order taken in before deadlines were kept, as intake would have given it
 * when it was created: its warehouse's calendar over the store's. A calendar that cannot work
 * (stored before calendars were checked) gives way to the defaults: an upgrade never stops on
 * one order.
 */
export function backfilledFulfillBy(
  warehouse: CalendarFields | null | undefined,
  store: CalendarFields | null | undefined,
  createdAt: Timestamp,
): Timestamp {
  try {
    return deriveFulfillBy(calendarOf(warehouse, store), createdAt);
  } catch {
    return deriveFulfillBy(DEFAULT_CALENDAR, createdAt);
  }
}

/**
 * ISO 8601 date and time, with seconds and fraction optional and the offset `Z` or `±HH:MM`
 * (read as UTC when absent, as every time of the API), or the API's own `YYYY-MM-DD HH:MM:SS`.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** An ISO 8601 date and time in UTC, to the second; null when it is not one or does not exist. */
export function parseIsoDateTime(text: string): Timestamp | null {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (match === null) return null;
  const [, year, month, day, hours, minutes, seconds = '00', zone = 'Z'] = match;
  const fields = [year, month, day, hours, minutes, seconds].map(Number) as number[];
  const [y, mo, d, h, mi, s] = fields as [number, number, number, number, number, number];
  if (h > 23 || mi > 59 || s > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  if (dateText(wall) !== `${year}-${month}-${day}`) return null;
  let offset = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const zoneHours = Number(digits.slice(1, 3));
    const zoneMinutes = Number(digits.slice(3, 5));
    if (zoneHours > 23 || zoneMinutes > 59) return null;
    offset = (zone.startsWith('-') ? -1 : 1) * (zoneHours * 60 + zoneMinutes) * 60_000;
  }
  return formatTimestamp(new Date(wall - offset));
}

/**
 * The `fulfill_by` of a new fulfillment order: the one the sales order asked for, as it is (a
 * promise in the past stays the promise: the order is overdue at once, not refused), else the
 * calendar's.
 */
export function fulfillByOf(args: {
  requested: string | null | undefined;
  calendar: WarehouseCalendar;
  createdAt: Timestamp;
}): Timestamp {
  const requested = args.requested == null ? null : parseIsoDateTime(args.requested);
  return requested ?? deriveFulfillBy(args.calendar, args.createdAt);
}

// --- Status -----------------------------------------------------------------------------------

export const DEADLINE_STATUSES = ['on_track', 'at_risk', 'overdue', 'met', 'missed'] as const;
export type DeadlineStatus = (typeof DEADLINE_STATUSES)[number];

/** Hours before `fulfill_by` an unshipped order is at risk, when a store sets none. */
export const DEFAULT_AT_RISK_HOURS = 24;

/** Statuses of an order whose every live item left the warehouse: shipped, for its deadline. */
export const SHIPPED_STATUSES: readonly OrderStatus[] = [
  'pending_invoice',
  'partially_invoiced',
  'invoiced',
];
/** Statuses of an order with nothing left to ship: it has no deadline status. */
export const ENDED_STATUSES: readonly OrderStatus[] = ['rejected', 'canceled'];

/**
 * How an order stands against its deadline at `now`; null when it has none or nothing left to
 * ship (rejected, canceled). Shipped means every live item shipped, the last shipment being
 * `shipped_at`: `met` at or before `fulfill_by`, `missed` after. Unshipped: `overdue` past it,
 * `at_risk` with less than `atRiskHours` left, else `on_track`. The SQL of the counts and the
 * filters (storage) says the same; a test holds them together.
 */
export function deadlineStatus(
  order: Pick<FulfillmentOrder, 'status' | 'shipped_at'> & { fulfill_by?: Timestamp | null },
  now: Timestamp,
  atRiskHours: number = DEFAULT_AT_RISK_HOURS,
): DeadlineStatus | null {
  const fulfillBy = order.fulfill_by ?? null;
  if (fulfillBy === null || ENDED_STATUSES.includes(order.status)) return null;
  if (SHIPPED_STATUSES.includes(order.status) && order.shipped_at !== null)
    return order.shipped_at <= fulfillBy ? 'met' : 'missed';
  if (now > fulfillBy) return 'overdue';
  return now > atRiskFrom(fulfillBy, atRiskHours) ? 'at_risk' : 'on_track';
}

/** The moment an unshipped order becomes at risk: `atRiskHours` before its deadline. */
export function atRiskFrom(fulfillBy: Timestamp, atRiskHours: number): Timestamp {
  const deadline = Date.parse(`${fulfillBy.replace(' ', 'T')}Z`);
  return formatTimestamp(new Date(deadline - atRiskHours * 3_600_000));
}

/** The moments `deadlineStatus` reads a store's orders against at `now`, for SQL to read alike. */
export function deadlineClockOf(
  settings: { at_risk_hours?: number | undefined },
  now: Timestamp,
): { now: Timestamp; at_risk_until: Timestamp } {
  const hours = settings.at_risk_hours ?? DEFAULT_AT_RISK_HOURS;
  const at = Date.parse(`${now.replace(' ', 'T')}Z`);
  return { now, at_risk_until: formatTimestamp(new Date(at + hours * 3_600_000)) };
}

/** The window of shipments the late-shipment metrics count: the last 30 days. */
export const LATE_SHIPMENT_WINDOW_DAYS = 30;

export function shipmentWindowStart(now: Timestamp): Timestamp {
  const at = Date.parse(`${now.replace(' ', 'T')}Z`);
  return formatTimestamp(new Date(at - LATE_SHIPMENT_WINDOW_DAYS * 86_400_000));
}
