/** A warehouse's working calendar (docs/deadlines.md): the days and hours its deadlines count. */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A warehouse's working calendar, every field present. */
export interface WarehouseCalendar {
  /** Working days an order is given, the day it starts counting as the first (at least 1). */
  processing_days: number;
  working_days: Weekday[];
  /** Local dates `YYYY-MM-DD` nothing leaves on. */
  holidays: string[];
  /** Local `HH:MM`: an order taken in at or after it starts the next working day. */
  cutoff: string;
  /** IANA time zone the calendar is read in. */
  timezone: string;
}

/** The calendar fields a warehouse or a store may set; null or absent: the next default. */
export type CalendarFields = { [K in keyof WarehouseCalendar]?: WarehouseCalendar[K] | null };
