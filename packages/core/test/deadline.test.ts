import { describe, expect, it } from 'vitest';
import {
  backfilledFulfillBy,
  calendarOf,
  DEFAULT_CALENDAR,
  deadlineStatus,
  deriveFulfillBy,
  fulfillByOf,
  parseIsoDateTime,
  type WarehouseCalendar,
} from '../src/domain/deadline.js';
import { isTimeZone } from '../src/domain/time-zone.js';

const weekdays: WarehouseCalendar['working_days'] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const everyDay: WarehouseCalendar['working_days'] = [...weekdays, 'sat', 'sun'];
const berlin: WarehouseCalendar = {
  processing_days: 1,
  working_days: weekdays,
  holidays: [],
  cutoff: '14:00',
  timezone: 'Europe/Berlin',
};
const newYork: WarehouseCalendar = { ...berlin, cutoff: '15:00', timezone: 'America/New_York' };

/**
 * Written by hand, each deadline worked out on a calendar: 2026-03-29 and 2026-10-25 are the
 * Sundays Berlin moves to and from summer time, 2026-03-08 and 2026-11-01 New York's.
 */
const CASES: [string, WarehouseCalendar, string, string][] = [
  ['Monday morning: the same day', berlin, '2026-03-23 09:00:00', '2026-03-23 13:00:00'],
  ['a second before the cutoff', berlin, '2026-03-23 12:59:59', '2026-03-23 13:00:00'],
  ['the cutoff minute itself: the next day', berlin, '2026-03-23 13:00:00', '2026-03-24 13:00:00'],
  ['a minute after the cutoff', berlin, '2026-03-23 13:01:00', '2026-03-24 13:00:00'],
  ['Saturday: Monday', berlin, '2026-03-21 10:00:00', '2026-03-23 13:00:00'],
  ['Sunday night, already Monday in Berlin', berlin, '2026-03-22 23:30:00', '2026-03-23 13:00:00'],
  [
    'Friday after cutoff, summer time from Sunday',
    berlin,
    '2026-03-27 17:00:00',
    '2026-03-30 12:00:00',
  ],
  [
    'Friday after cutoff, winter time from Sunday',
    berlin,
    '2026-10-23 16:00:00',
    '2026-10-26 13:00:00',
  ],
  [
    'two days over the spring change',
    { ...berlin, processing_days: 2 },
    '2026-03-27 08:00:00',
    '2026-03-30 12:00:00',
  ],
  [
    'three days in one week',
    { ...berlin, processing_days: 3 },
    '2026-03-25 08:00:00',
    '2026-03-27 13:00:00',
  ],
  [
    'Easter: Good Friday and Easter Monday',
    { ...berlin, holidays: ['2026-04-03', '2026-04-06'] },
    '2026-04-02 15:00:00',
    '2026-04-07 12:00:00',
  ],
  [
    'a holiday on the day taken in',
    { ...berlin, holidays: ['2026-03-23'] },
    '2026-03-23 09:00:00',
    '2026-03-24 13:00:00',
  ],
  [
    'New York Friday evening, summer time from Sunday',
    newYork,
    '2026-03-06 21:00:00',
    '2026-03-09 19:00:00',
  ],
  [
    'New York Friday evening, winter time from Sunday',
    newYork,
    '2026-10-30 20:00:00',
    '2026-11-02 20:00:00',
  ],
  [
    'UTC Tuesday, still Monday night in New York',
    newYork,
    '2026-03-10 03:00:00',
    '2026-03-10 19:00:00',
  ],
  ['New York before the cutoff, summer', newYork, '2026-07-01 18:59:00', '2026-07-01 19:00:00'],
  [
    'a cutoff in the spring gap moves on by the gap',
    { ...berlin, working_days: everyDay, cutoff: '02:30' },
    '2026-03-28 02:00:00',
    '2026-03-29 01:30:00',
  ],
  [
    'a cutoff in the autumn overlap is the first one',
    { ...berlin, working_days: everyDay, cutoff: '02:30' },
    '2026-10-24 02:00:00',
    '2026-10-25 00:30:00',
  ],
  [
    'Saturday a working day',
    { ...berlin, working_days: [...weekdays, 'sat'] },
    '2026-03-21 10:00:00',
    '2026-03-21 13:00:00',
  ],
  [
    'Tokyo, no summer time',
    { ...berlin, timezone: 'Asia/Tokyo', cutoff: '16:00' },
    '2026-03-23 06:00:00',
    '2026-03-23 07:00:00',
  ],
  [
    'Kolkata, half-hour offset',
    { ...berlin, timezone: 'Asia/Kolkata', cutoff: '12:00' },
    '2026-03-23 06:29:00',
    '2026-03-23 06:30:00',
  ],
  [
    'the defaults: 17:00 UTC, Monday to Friday',
    { ...DEFAULT_CALENDAR },
    '2026-03-27 17:00:00',
    '2026-03-30 17:00:00',
  ],
  [
    'over a year end with holidays',
    { ...berlin, holidays: ['2026-12-24', '2026-12-25', '2026-12-31', '2027-01-01'] },
    '2026-12-23 14:00:00',
    '2026-12-28 13:00:00',
  ],
];

describe('deriveFulfillBy', () => {
  it.each(CASES)('%s', (_name, calendar, createdAt, expected) => {
    expect(deriveFulfillBy(calendar, createdAt)).toBe(expected);
  });

  it('has 0 mismatches over the whole table', () => {
    const mismatches = CASES.filter(
      ([, calendar, at, want]) => deriveFulfillBy(calendar, at) !== want,
    );
    expect(mismatches).toEqual([]);
  });

  it('derives again when the calendar differs from the last one, even one changed in place', () => {
    const at = '2026-03-23 09:00:00';
    const calendar: WarehouseCalendar = { ...berlin, holidays: [] };
    expect(deriveFulfillBy(calendar, at)).toBe('2026-03-23 13:00:00');
    // Another calendar at the same instant: its own deadline, not the one derived before.
    expect(deriveFulfillBy({ ...calendar, cutoff: '08:00' }, at)).toBe('2026-03-24 07:00:00');
    expect(deriveFulfillBy(calendar, at)).toBe('2026-03-23 13:00:00');
    calendar.holidays.push('2026-03-23');
    expect(deriveFulfillBy(calendar, at)).toBe('2026-03-24 13:00:00');
  });
});

describe('fulfillByOf', () => {
  it('keeps an intake fulfill_by in the past as it is', () => {
    expect(
      fulfillByOf({
        requested: '2020-01-01T00:00:00Z',
        calendar: berlin,
        createdAt: '2026-03-23 09:00:00',
      }),
    ).toBe('2020-01-01 00:00:00');
  });
  it('reads the offset of an intake fulfill_by', () => {
    expect(
      fulfillByOf({
        requested: '2026-03-24T18:00:00+01:00',
        calendar: berlin,
        createdAt: '2026-03-23 09:00:00',
      }),
    ).toBe('2026-03-24 17:00:00');
    expect(parseIsoDateTime('2026-03-24T18:00-0530')).toBe('2026-03-24 23:30:00');
    expect(parseIsoDateTime('2026-03-24T18:00:07.999Z')).toBe('2026-03-24 18:00:07');
    expect(parseIsoDateTime('2026-03-24 18:00:07')).toBe('2026-03-24 18:00:07');
  });
  it('derives without one', () => {
    expect(
      fulfillByOf({ requested: null, calendar: berlin, createdAt: '2026-03-23 09:00:00' }),
    ).toBe('2026-03-23 13:00:00');
  });
  it('refuses what is not a moment', () => {
    for (const text of [
      '2026-02-30T10:00:00Z',
      '2026-03-24',
      '24/03/2026 10:00',
      '2026-03-24T25:00:00Z',
      'soon',
    ])
      expect(parseIsoDateTime(text), text).toBeNull();
  });
});

describe('calendarOf', () => {
  it('takes each field from the warehouse, else the store, else the default', () => {
    expect(
      calendarOf(
        { cutoff: '12:00', timezone: null },
        { timezone: 'Europe/Milan', processing_days: 2 },
      ),
    ).toEqual({
      processing_days: 2,
      working_days: DEFAULT_CALENDAR.working_days,
      holidays: [],
      cutoff: '12:00',
      timezone: 'Europe/Milan',
    });
    expect(calendarOf(null, undefined)).toEqual(DEFAULT_CALENDAR);
  });
  it('knows time zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('deadlineStatus', () => {
  const by = '2026-03-23 13:00:00';
  const open = { status: 'pending_shipment' as const, shipped_at: null, fulfill_by: by };
  it.each([
    ['on track with more than a day left', open, '2026-03-22 12:59:59', 'on_track'],
    ['on track with exactly a day left', open, '2026-03-22 13:00:00', 'on_track'],
    ['at risk with less than a day left', open, '2026-03-22 13:00:01', 'at_risk'],
    ['at risk at the deadline itself', open, by, 'at_risk'],
    ['overdue a second after', open, '2026-03-23 13:00:01', 'overdue'],
    [
      'partly shipped and past: overdue',
      { ...open, status: 'partially_shipped' as const, shipped_at: '2026-03-23 12:00:00' },
      '2026-03-24 00:00:00',
      'overdue',
    ],
    [
      'shipped at the deadline: met',
      { ...open, status: 'pending_invoice' as const, shipped_at: by },
      '2026-04-01 00:00:00',
      'met',
    ],
    [
      'shipped after: missed',
      { ...open, status: 'invoiced' as const, shipped_at: '2026-03-23 13:00:01' },
      '2026-03-23 14:00:00',
      'missed',
    ],
    [
      'failed and past: overdue',
      { ...open, status: 'failed' as const },
      '2026-03-24 00:00:00',
      'overdue',
    ],
    ['canceled: none', { ...open, status: 'canceled' as const }, '2026-03-24 00:00:00', null],
    ['no deadline: none', { ...open, fulfill_by: null }, '2026-03-24 00:00:00', null],
  ] as const)('%s', (_name, order, now, expected) => {
    expect(deadlineStatus(order, now)).toBe(expected);
  });
  it("takes the store's at_risk_hours", () => {
    expect(deadlineStatus(open, '2026-03-23 10:00:00', 2)).toBe('on_track');
    expect(deadlineStatus(open, '2026-03-23 11:30:00', 2)).toBe('at_risk');
  });
});

describe('the deadline of an order taken in before deadlines were kept', () => {
  it("is intake's: the warehouse's calendar over the store's, from its creation", () => {
    // Friday 2026-03-06 18:00 UTC: after a 17:00 cutoff, so Monday's.
    const created = '2026-03-06 18:00:00';
    expect(backfilledFulfillBy(null, null, created)).toBe('2026-03-09 17:00:00');
    expect(backfilledFulfillBy({ cutoff: '19:00' }, { cutoff: '12:00' }, created)).toBe(
      '2026-03-06 19:00:00',
    );
    expect(backfilledFulfillBy({ cutoff: null }, { processing_days: 2 }, created)).toBe(
      deriveFulfillBy(calendarOf(null, { processing_days: 2 }), created),
    );
  });

  it('falls back to the defaults when a stored calendar cannot work, never failing', () => {
    const created = '2026-03-06 18:00:00';
    expect(backfilledFulfillBy({ timezone: 'Mars/Olympus' }, null, created)).toBe(
      '2026-03-09 17:00:00',
    );
    expect(backfilledFulfillBy({ working_days: [] }, null, created)).toBe('2026-03-09 17:00:00');
  });
});
