import { describe, expect, test } from 'vitest';
import { adminCall, adminServerPerTest, fieldsOf } from './support.js';

/**
 * The routing settings of a store and the routing attributes of its warehouses through the
 * admin API (docs/admin-api.md, docs/routing.md): configuration that cannot work is refused
 * with 400 naming the field, and a refused request changes nothing.
 */

const serve = adminServerPerTest();

describe('store routing settings', () => {
  test('show their defaults, take a rule list, and refuse one that cannot work', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const read = async () =>
      (await adminCall(server, 'GET', '/stores/default', { secret })).body.settings;
    const put = (settings: unknown) =>
      adminCall(server, 'PUT', '/stores/default', { secret, json: { settings } });

    expect(await read()).toMatchObject({
      routing: ['active', 'pinned', 'not_rejected', 'market', 'capacity', 'stock', 'priority'],
      max_shipments: 3,
      split_lines: false,
    });
    const rules = ['active', 'market', 'stock', 'fewest_shipments', 'distance', 'priority'];
    expect((await put({ routing: rules, max_shipments: 2, split_lines: true })).status).toBe(200);
    expect(await read()).toMatchObject({ routing: rules, max_shipments: 2, split_lines: true });

    const refusals: [unknown, string][] = [
      [{ routing: ['active', 'closest'] }, 'settings.routing[1]'],
      [{ routing: ['active', 'stock', 'active'] }, 'settings.routing[2]'],
      [{ routing: [] }, 'settings.routing'],
      [{ max_shipments: 0 }, 'settings.max_shipments'],
      [{ max_shipments: 1.5 }, 'settings.max_shipments'],
      [{ split_lines: 'yes' }, 'settings.split_lines'],
    ];
    for (const [settings, field] of refusals) {
      const refused = await put(settings);
      expect(refused.status, JSON.stringify(settings)).toBe(400);
      expect(fieldsOf(refused.body)).toContain(field);
    }
    expect(await read()).toMatchObject({ routing: rules, max_shipments: 2, split_lines: true });
  });
});

describe('warehouse routing attributes', () => {
  test('are kept and shown, each null when not set, and refused when they cannot work', async () => {
    const server = await serve();
    const secret = server.secrets.admin;
    const list = async () =>
      (await adminCall(server, 'GET', '/stores/default/warehouses', { secret })).body.warehouses;
    const put = (json: unknown) =>
      adminCall(server, 'PUT', '/stores/default/warehouses/WH-MILAN', { secret, json });

    const milan = {
      name: 'Milan',
      latitude: 45.4642,
      longitude: 9.19,
      countries: ['IT', 'SM', 'VA'],
      daily_capacity: 300,
      safety_stock: 4,
      timezone: 'Europe/Rome',
    };
    expect((await put(milan)).status).toBe(200);
    const shown = (await list()).find(
      (warehouse: { code: string }) => warehouse.code === 'WH-MILAN',
    );
    expect(shown).toEqual({
      code: 'WH-MILAN',
      active: true,
      fulfilled_by: 'partner',
      priority: 0,
      ...milan,
      // The warehouse's calendar (docs/deadlines.md): none of its own but its time zone.
      processing_days: null,
      working_days: null,
      holidays: null,
      cutoff: null,
    });
    const other = (await list()).find(
      (warehouse: { code: string }) => warehouse.code !== 'WH-MILAN',
    );
    expect(other).toMatchObject({
      latitude: null,
      longitude: null,
      countries: null,
      daily_capacity: null,
      safety_stock: 0,
      timezone: null,
    });

    const refusals: [unknown, string][] = [
      [{ ...milan, latitude: 91 }, 'latitude'],
      [{ ...milan, longitude: -180.5 }, 'longitude'],
      [{ ...milan, latitude: null }, 'longitude'],
      [{ ...milan, countries: ['IT', 'XX'] }, 'countries[1]'],
      [{ ...milan, countries: ['it'] }, 'countries[0]'],
      [{ ...milan, countries: ['IT', 'IT'] }, 'countries'],
      [{ ...milan, countries: [] }, 'countries'],
      [{ ...milan, daily_capacity: 0 }, 'daily_capacity'],
      [{ ...milan, daily_capacity: 2.5 }, 'daily_capacity'],
      [{ ...milan, safety_stock: -1 }, 'safety_stock'],
      [{ ...milan, safety_stock: 1.5 }, 'safety_stock'],
      [{ ...milan, safety_stock: null }, 'safety_stock'],
      [{ ...milan, safety_stock: 1_000_000_001 }, 'safety_stock'],
      [{ ...milan, timezone: 'Europe/Milano' }, 'timezone'],
      [{ ...milan, timezone: '' }, 'timezone'],
      [{ ...milan, timezone: 3 }, 'timezone'],
    ];
    for (const [json, field] of refusals) {
      const refused = await put(json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(fieldsOf(refused.body)).toContain(field);
    }
    expect(
      (await list()).find((warehouse: { code: string }) => warehouse.code === 'WH-MILAN'),
    ).toEqual(shown);

    // A PUT replaces the warehouse: what it leaves out takes its default.
    expect((await put({ name: 'Milan' })).status).toBe(200);
    expect(
      (await list()).find((warehouse: { code: string }) => warehouse.code === 'WH-MILAN'),
    ).toMatchObject({
      latitude: null,
      longitude: null,
      countries: null,
      daily_capacity: null,
      safety_stock: 0,
      timezone: null,
    });
  });
});
