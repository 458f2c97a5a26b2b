import { createEngine, type Engine, isDomainError, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { locate } from '@fulfil/geo';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';

/**
 * Intake and reroute decide on the store's own routing rules (docs/routing.md): its rule list,
 * the warehouses' places and markets, safety stock apart from stock, the destination from the
 * address's coordinates or located offline, and each decision explained on the timeline and
 * in the admin API's order view.
 */

const OPERATOR = { name: 'ops', role: 'admin', store_code: null, request_id: null } as const;

const WAREHOUSES = [
  // Milan and Hamburg, as the console says: Milan the closer to Rome, Hamburg to Berlin.
  { code: 'WH-HAMBURG', name: 'Hamburg', priority: 10, latitude: 53.5511, longitude: 9.9937 },
  { code: 'WH-MILAN', name: 'Milan', priority: 5, latitude: 45.4642, longitude: 9.19 },
  {
    code: 'WH-PARIS',
    name: 'Paris',
    priority: 1,
    latitude: 48.8566,
    longitude: 2.3522,
    countries: ['FR'],
  },
];

function seedWith(settings: Record<string, unknown>, stock: [string, string, number][]) {
  return {
    stores: [
      {
        code: 'default',
        settings,
        warehouses: WAREHOUSES,
        stock: stock.map(([warehouse_code, sku, qty]) => ({ warehouse_code, sku, qty })),
      },
    ],
  };
}

const DISTANCE_RULES = ['active', 'pinned', 'not_rejected', 'market', 'stock', 'distance'];

for (const kind of databaseKinds()) {
  describe(`routing by the store's rules on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    /** The engine the server runs: addresses without coordinates located by @fulfil/geo. */
    async function open(seed: unknown): Promise<Engine> {
      database = await kind.open();
      const engine = createEngine({
        repository: database.repository,
        clock: new ManualClock('2026-05-01T10:00:00Z'),
        locate,
      });
      await engine.loadSeed(seed as never);
      return engine;
    }

    it('sends a line to the closest warehouse with stock, by coordinates or by city, and says why', async () => {
      const engine = await open(
        seedWith({ routing: DISTANCE_RULES }, [
          ['WH-HAMBURG', 'SKU-1', 10],
          ['WH-MILAN', 'SKU-1', 10],
          ['WH-PARIS', 'SKU-1', 10],
        ]),
      );
      const rome = fixtures.salesOrder('800', [{ sku: 'SKU-1', qty: 1 }], {
        shipping_address: { ...fixtures.address(), latitude: 41.9028, longitude: 12.4964 },
      });
      const [toRome] = await engine.intake('default', rome);
      expect(toRome?.warehouse_code).toBe('WH-MILAN');

      const berlin = fixtures.salesOrder('801', [{ sku: 'SKU-1', qty: 1 }], {
        shipping_address: fixtures.address({ city: 'Berlin', country_id: 'DE' }),
      });
      const [toBerlin] = await engine.intake('default', berlin);
      expect(toBerlin?.warehouse_code).toBe('WH-HAMBURG');

      const view = await engine.admin.order(
        OPERATOR,
        'default',
        toRome?.fulfillment_order_number as string,
      );
      expect(view.routing).toMatchObject({
        by: 'rules',
        rules: DISTANCE_RULES,
        destination: { country: 'IT', located_by: 'address' },
        lines_more: 0,
        lines: [
          {
            line: 0,
            sku: 'SKU-1',
            parts: [{ warehouse_code: 'WH-MILAN', qty: 1 }],
            decided_by: 'distance',
            short: false,
            optimal: true,
            considered: [
              { warehouse_code: 'WH-MILAN', ranks: { distance: 1 } },
              { warehouse_code: 'WH-HAMBURG', ranks: { distance: 2 } },
            ],
            excluded: [{ warehouse_code: 'WH-PARIS', reason: 'not_in_market' }],
          },
        ],
      });
      const words = view.routing?.lines[0]?.words ?? '';
      expect(words).toMatch(/^Routed to WH-MILAN: closest with stock \(\d+ km\)/);
      expect(words).toContain('WH-PARIS excluded: does not ship to IT');
      // The timeline's intake entry carries it: the console says it from there.
      const intake = view.timeline.find((entry) => entry.action === 'intake');
      expect(intake?.details.routing).toEqual(view.routing);

      const berlinView = await engine.admin.order(
        OPERATOR,
        'default',
        toBerlin?.fulfillment_order_number as string,
      );
      expect(berlinView.routing?.destination).toMatchObject({
        country: 'DE',
        located_by: 'city',
      });
      // A fulfillment order carries the address alone, never the sales order's coordinates.
      expect(toRome?.shipping_address).not.toHaveProperty('latitude');
    });

    it('tells a warehouse whose stock is all safety stock from one without stock, and explains a reroute', async () => {
      const engine = await open({
        stores: [
          {
            code: 'default',
            warehouses: [
              { code: 'WH-A', name: 'A', priority: 30, safety_stock: 4 },
              { code: 'WH-B', name: 'B', priority: 20 },
              { code: 'WH-C', name: 'C', priority: 10 },
            ],
            stock: [
              { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 },
              { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 2 },
              { warehouse_code: 'WH-C', sku: 'SKU-1', qty: 2 },
            ],
          },
        ],
      });
      const [first] = await engine.intake(
        'default',
        fixtures.salesOrder('810', [{ sku: 'SKU-1', qty: 2 }]),
      );
      expect(first?.warehouse_code).toBe('WH-B');
      const number = first?.fulfillment_order_number as string;
      const view = await engine.admin.order(OPERATOR, 'default', number);
      expect(view.routing?.lines[0]).toMatchObject({
        decided_by: 'priority',
        considered: [
          { warehouse_code: 'WH-B', ranks: { priority: 1 }, available: 2 },
          { warehouse_code: 'WH-C', ranks: { priority: 2 }, available: 2 },
        ],
        excluded: [{ warehouse_code: 'WH-A', reason: 'below_safety_stock', available: 1 }],
      });
      expect(view.routing?.lines[0]?.words).toBe(
        'Routed to WH-B: highest priority with stock (20); WH-A excluded: only safety stock left',
      );

      await engine.reject(engine.operator('default'), {
        order: { order_id: number, items: [{ item_id: first?.items[0]?.id as number }] },
      });
      const rerouted = await engine.admin.order(OPERATOR, 'default', `810-2`);
      expect(rerouted.order.warehouse_code).toBe('WH-C');
      expect(rerouted.routing?.lines[0]).toMatchObject({
        parts: [{ warehouse_code: 'WH-C', qty: 2 }],
        excluded: [
          { warehouse_code: 'WH-A', reason: 'below_safety_stock' },
          { warehouse_code: 'WH-B', reason: 'rejected_before' },
        ],
      });
      const reroute = rerouted.timeline.find((entry) => entry.action === 'reroute');
      expect(reroute?.details.routing).toEqual(rerouted.routing);
    });

    it('daily capacity: the capacity rule blocks a full warehouse, remaining_capacity prefers the emptier, counted per local day', async () => {
      const capacitySeed = (settings: Record<string, unknown>) => ({
        stores: [
          {
            code: 'default',
            settings,
            warehouses: [
              // 10:00 UTC on 1 May is already 2 May in Kiritimati (UTC+14).
              {
                code: 'WH-A',
                name: 'A',
                priority: 20,
                daily_capacity: 1,
                timezone: 'Pacific/Kiritimati',
              },
              { code: 'WH-B', name: 'B', priority: 10, daily_capacity: 3 },
            ],
            stock: [
              { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 50 },
              { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 50 },
            ],
          },
        ],
      });
      const engine = await open(capacitySeed({}));
      const routedTo = async (number: string) =>
        (await engine.intake('default', fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }])))[0]
          ?.warehouse_code;
      expect(await routedTo('830')).toBe('WH-A');
      // WH-A took its one order of the day: the default list's capacity rule leaves it out.
      expect(await routedTo('831')).toBe('WH-B');
      const view = await engine.admin.order(OPERATOR, 'default', '831-1');
      expect(view.routing?.lines[0]?.excluded).toMatchObject([
        { warehouse_code: 'WH-A', reason: 'over_capacity' },
      ]);
      expect(view.routing?.lines[0]?.words).toContain('WH-A excluded: over daily capacity');
      const counted = await database?.repository.transaction((tx) =>
        tx.routedOn(1, [
          { warehouse_code: 'WH-A', day: '2026-05-02' },
          { warehouse_code: 'WH-B', day: '2026-05-01' },
        ]),
      );
      expect(counted).toEqual([1, 1]);
      await database?.drop();

      // Prefer mode: no capacity filter, the emptier warehouse first; a full one still takes
      // orders when it is the only one left (here: never, B has room).
      const prefer = await open(
        capacitySeed({ routing: ['active', 'pinned', 'stock', 'remaining_capacity', 'priority'] }),
      );
      const preferred = async (number: string) =>
        (await prefer.intake('default', fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }])))[0]
          ?.warehouse_code;
      expect([await preferred('840'), await preferred('841'), await preferred('842')]).toEqual([
        'WH-B',
        'WH-B',
        'WH-A',
      ]);
      const words = (await prefer.admin.order(OPERATOR, 'default', '840-1')).routing?.lines[0]
        ?.words;
      expect(words).toBe('Routed to WH-B: most capacity left today with stock (3)');
    });

    it('refuses an order no warehouse can take, naming the line, and out-of-range coordinates, naming the field', async () => {
      const engine = await open({
        stores: [
          {
            code: 'default',
            warehouses: [
              { code: 'WH-PARIS', name: 'Paris', countries: ['FR'] },
              { code: 'WH-MILAN', name: 'Milan', active: false },
            ],
            stock: [{ warehouse_code: 'WH-PARIS', sku: 'SKU-1', qty: 10 }],
          },
        ],
      });
      // Paris ships to France only and Milan is inactive: nothing can ship to Italy.
      const refusal = await engine
        .intake('default', fixtures.salesOrder('820', [{ sku: 'SKU-1', qty: 1 }]))
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isDomainError(refusal)).toBe(true);
      expect(refusal).toMatchObject({
        code: 'invalid_request',
        parameters: [{ fieldName: 'items[0].sku', fieldValue: 'SKU-1' }],
      });
      expect(String((refusal as Error).message)).toContain(
        'WH-PARIS excluded: does not ship to IT',
      );
      expect(String((refusal as Error).message)).toContain('WH-MILAN excluded: inactive');
      expect(await engine.listStock('default')).toMatchObject([{ reserved: 0 }]);

      for (const [coordinates, field] of [
        [{ latitude: 91, longitude: 0 }, 'shipping_address.latitude'],
        [{ latitude: 0, longitude: -181 }, 'shipping_address.longitude'],
        [{ latitude: 45 }, 'shipping_address.longitude'],
      ] as const) {
        const error = await engine
          .intake(
            'default',
            fixtures.salesOrder('821', [{ sku: 'SKU-1', qty: 1 }], {
              shipping_address: { ...fixtures.address(), ...coordinates },
            }),
          )
          .then(
            () => null,
            (caught: unknown) => caught,
          );
        expect(isDomainError(error), JSON.stringify(coordinates)).toBe(true);
        expect(JSON.stringify(error)).toContain(field);
      }
    });
  });
}
