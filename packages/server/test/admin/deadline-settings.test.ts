import { describe, expect, test } from 'vitest';
import { adminCall, adminServerPerTest, fieldsOf } from './support.js';

/**
 * A warehouse's calendar and the store's deadline settings through the admin API
 * (docs/deadlines.md): a calendar that cannot work is refused with 400 naming the field, and a
 * refused request changes nothing.
 */

const serve = adminServerPerTest();

describe('warehouse calendars', () => {
  test('are kept and shown, null when not set, and refused when they cannot work', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const milan = async () =>
      (
        await adminCall(server, 'GET', '/stores/default/warehouses', { secret })
      ).body.warehouses.find((warehouse: { code: string }) => warehouse.code === 'WH-MILAN');
    const put = (json: unknown) =>
      adminCall(server, 'PUT', '/stores/default/warehouses/WH-MILAN', { secret, json });

    const calendar = {
      processing_days: 2,
      working_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
      holidays: ['2026-12-25', '2026-12-26'],
      cutoff: '15:30',
      timezone: 'Europe/Rome',
    };
    expect((await put({ name: 'Milan', ...calendar })).status).toBe(200);
    expect(await milan()).toMatchObject(calendar);

    const refusals: [unknown, string][] = [
      [{ timezone: 'Europe/Atlantis' }, 'timezone'],
      [{ timezone: '' }, 'timezone'],
      [{ cutoff: '25:00' }, 'cutoff'],
      [{ cutoff: '9:00' }, 'cutoff'],
      [{ cutoff: '12:60' }, 'cutoff'],
      [{ working_days: [] }, 'working_days'],
      [{ working_days: ['mon', 'funday'] }, 'working_days[1]'],
      [{ working_days: ['mon', 'mon'] }, 'working_days'],
      [{ holidays: ['2026-02-30'] }, 'holidays[0]'],
      [{ holidays: ['2026-12-25', '25/12/2026'] }, 'holidays[1]'],
      [{ processing_days: 0 }, 'processing_days'],
      [{ processing_days: 1.5 }, 'processing_days'],
    ];
    for (const [fields, field] of refusals) {
      const refused = await put({ name: 'Milan', ...calendar, ...(fields as object) });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(fieldsOf(refused.body)).toContain(field);
    }
    expect(await milan()).toMatchObject(calendar);

    // A PUT replaces the warehouse: the calendar it leaves out is the store's again.
    expect((await put({ name: 'Milan' })).status).toBe(200);
    expect(await milan()).toMatchObject({
      processing_days: null,
      working_days: null,
      holidays: null,
      cutoff: null,
      timezone: null,
    });
  });
});

describe('store deadline settings', () => {
  test('take at_risk_hours and a default calendar, refusing one that cannot work', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const read = async () =>
      (await adminCall(server, 'GET', '/stores/default', { secret })).body.settings;
    const put = (settings: unknown) =>
      adminCall(server, 'PUT', '/stores/default', { secret, json: { settings } });

    const settings = {
      at_risk_hours: 6,
      calendar: { timezone: 'America/New_York', cutoff: '16:00' },
    };
    expect((await put(settings)).status).toBe(200);
    expect(await read()).toMatchObject(settings);
    const refusals: [unknown, string][] = [
      [{ at_risk_hours: -1 }, 'settings.at_risk_hours'],
      [{ calendar: { timezone: 'EST5' } }, 'settings.calendar.timezone'],
      [{ calendar: { cutoff: '24:00' } }, 'settings.calendar.cutoff'],
      [{ calendar: { working_days: [] } }, 'settings.calendar.working_days'],
      [{ calendar: { holidays: ['tomorrow'] } }, 'settings.calendar.holidays[0]'],
    ];
    for (const [refusedSettings, field] of refusals) {
      const refused = await put(refusedSettings);
      expect(refused.status, JSON.stringify(refusedSettings)).toBe(400);
      expect(fieldsOf(refused.body)).toContain(field);
    }
    expect(await read()).toMatchObject(settings);
  });
});
