import { describe, expect, it } from 'vitest';
import { parseWith, SeedFile } from '../../src/index.js';
import { expectDomainError } from '../support/expect-error.js';

/** A seed file's routing configuration is held to the admin API's rules, each error by its path. */
describe('routing configuration in a seed file', () => {
  const seed = (settings: unknown, warehouse: unknown = {}) => ({
    stores: [
      {
        code: 'default',
        settings,
        warehouses: [{ code: 'WH-A', name: 'A', ...(warehouse as object) }],
      },
    ],
  });

  it('takes rules, max_shipments, split_lines and the warehouse attributes', () => {
    const parsed = parseWith(
      SeedFile,
      seed(
        {
          routing: ['active', 'stock', 'fewest_shipments', 'distance'],
          max_shipments: 4,
          split_lines: true,
        },
        { latitude: 48.1, longitude: 11.6, countries: ['DE', 'AT'], daily_capacity: 500 },
      ),
    );
    expect(parsed.stores[0]?.settings).toMatchObject({ max_shipments: 4, split_lines: true });
    expect(parsed.stores[0]?.warehouses[0]).toMatchObject({
      latitude: 48.1,
      longitude: 11.6,
      countries: ['DE', 'AT'],
      daily_capacity: 500,
    });
  });

  it.each([
    [seed({ routing: ['active', 'nearest'] }), 'stores[0].settings.routing[1]'],
    [seed({ routing: ['priority', 'priority'] }), 'stores[0].settings.routing[1]'],
    [seed({ max_shipments: 0 }), 'stores[0].settings.max_shipments'],
    [seed({}, { latitude: -90.5, longitude: 0 }), 'stores[0].warehouses[0].latitude'],
    [seed({}, { longitude: 12 }), 'stores[0].warehouses[0].longitude'],
    [seed({}, { countries: ['UK'] }), 'stores[0].warehouses[0].countries[0]'],
    [seed({}, { daily_capacity: 0 }), 'stores[0].warehouses[0].daily_capacity'],
  ])('refuses %j naming %s', (input, field) => {
    expectDomainError(() => parseWith(SeedFile, input), 'invalid_request', field);
  });
});
