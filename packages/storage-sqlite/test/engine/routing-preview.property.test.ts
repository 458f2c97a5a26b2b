import {
  createEngine,
  type DomainError,
  isDomainError,
  ManualClock,
  type RoutingPreview,
  renderMessage,
} from '@fulfil/core';
import { fixtures, seededRandom } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';

/**
 * The routing preview answers what intake then does (docs/routing.md, Preview): over 10,000
 * generated sales orders, each previewed and then taken in on the same stock, against stores of
 * generated rules (filters, sorts, fewest shipments, split lines), warehouses (priority, place,
 * markets, daily capacity, time zone, safety stock, partner or courier) and stock, the preview's
 * fulfillment orders are the ones intake opens, a refusal is intake's refusal word for word, and
 * the words of a sample are the ones the order's timeline records. Courier warehouses reserve
 * at intake and daily capacities fill up, so the facts move as the cases go.
 */

const CASES = 10_000;
const ORDERS_PER_STORE = 50;
const SKUS = ['S-1', 'S-2', 'S-3', 'S-4', 'S-5'];
const COUNTRIES = ['IT', 'FR', 'DE'];
const OPERATOR = { name: 'ops', role: 'admin', store_code: null, request_id: null } as const;

const RULE_LISTS = [
  undefined,
  ['active', 'pinned', 'not_rejected', 'market', 'capacity', 'stock', 'priority'],
  ['active', 'pinned', 'market', 'capacity', 'stock', 'fewest_shipments', 'distance', 'priority'],
  ['active', 'stock', 'distance'],
  ['active', 'pinned', 'capacity', 'stock', 'remaining_capacity', 'priority'],
  ['active', 'market', 'stock', 'priority', 'fewest_shipments', 'remaining_capacity'],
  ['active', 'pinned', 'stock', 'fewest_shipments'],
];

describe('routing preview against intake', () => {
  it(`answers what intake does in ${CASES.toLocaleString('en')} generated cases`, async () => {
    const random = seededRandom(20261129);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
    const chance = (p: number) => random() < p;

    const repository = await openSqliteRepository(':memory:');
    const engine = createEngine({
      repository,
      clock: new ManualClock('2026-05-01T22:30:00Z'),
      tracing: false,
    });
    let cases = 0;
    let refused = 0;
    let split = 0;
    try {
      for (let storeIndex = 0; cases < CASES; storeIndex++) {
        const store = `s${storeIndex}`;
        const warehouses = Array.from({ length: int(1, 6) }, (_, index) => ({
          code: `WH-${index}`,
          name: `W${index}`,
          active: index === 0 || chance(0.85),
          fulfilled_by: chance(0.3) ? ('courier' as const) : ('partner' as const),
          priority: int(0, 3),
          ...(chance(0.7) ? { latitude: int(36, 55), longitude: int(-5, 20) } : {}),
          ...(chance(0.3) ? { countries: [pick(COUNTRIES)] } : {}),
          ...(chance(0.4) ? { daily_capacity: int(1, 8) } : {}),
          ...(chance(0.3) ? { timezone: pick(['Europe/Rome', 'Pacific/Kiritimati', 'UTC']) } : {}),
          safety_stock: chance(0.3) ? int(1, 2) : 0,
        }));
        const settings = {
          ...(chance(0.9) ? { routing: pick(RULE_LISTS) } : {}),
          max_shipments: int(1, 3),
          split_lines: chance(0.3),
        };
        await engine.loadSeed({
          stores: [
            {
              code: store,
              settings: JSON.parse(JSON.stringify(settings)),
              warehouses,
              stock: warehouses.flatMap((warehouse) =>
                SKUS.filter(() => chance(0.6)).map((sku) => ({
                  warehouse_code: warehouse.code,
                  sku,
                  qty: int(0, 8),
                  ...(chance(0.1) ? { safety_stock: int(0, 3) } : {}),
                })),
              ),
            },
          ],
        });

        for (let n = 0; n < ORDERS_PER_STORE && cases < CASES; n++, cases++) {
          const number = `${storeIndex}-${n}`;
          const order = fixtures.salesOrder(
            String(100_000 + cases),
            Array.from({ length: int(1, 4) }, () => ({ sku: pick(SKUS), qty: int(1, 4) })),
            {
              sales_order_number: number,
              ...(chance(0.05) ? { warehouse_code: pick(warehouses).code } : {}),
              shipping_address: {
                ...fixtures.address({ country_id: pick(COUNTRIES) }),
                ...(chance(0.5) ? { latitude: int(36, 55), longitude: int(-5, 20) } : {}),
              },
            },
          );
          const what = `case ${cases} (store ${store}, order ${number})`;
          const preview: RoutingPreview | DomainError = await engine.admin
            .previewRouting(OPERATOR, store, order)
            .catch((error: DomainError) => error);
          const taken = await engine.intake(store, order).catch((error: unknown) => error);
          if (isDomainError(preview)) {
            // Refused before routing (a pinned warehouse that is not active): intake alike.
            expect(isDomainError(taken), what).toBe(true);
            expect((taken as Error).message, what).toBe(preview.message);
            refused++;
            continue;
          }
          if (!preview.taken_in) {
            expect(isDomainError(taken), what).toBe(true);
            const error = taken as { message: string; parameters: [] };
            expect(renderMessage(error.message, error.parameters), what).toBe(preview.refusal);
            refused++;
            continue;
          }
          expect(isDomainError(taken), `${what}: ${String(taken)}`).toBe(false);
          const opened = (taken as Awaited<ReturnType<typeof engine.intake>>).map(
            (fulfillment) => ({
              warehouse_code: fulfillment.warehouse_code,
              items: fulfillment.items.map(({ sku, qty }) => ({ sku, qty })),
            }),
          );
          const previewed = preview.fulfillment_orders.map(({ warehouse_code, items }) => ({
            warehouse_code,
            items: items.map(({ sku, qty }) => ({ sku, qty })),
          }));
          expect(opened, what).toEqual(previewed);
          if (preview.decision?.lines.some((line) => line.parts.length > 1)) split++;
          if (cases % 97 === 0) {
            const first = await engine.admin.order(OPERATOR, store, `${number}-1`);
            const recorded = (first.routing?.lines ?? []).map((line) => line.words);
            const lines = new Set(first.routing?.lines.map((line) => line.line));
            expect(recorded, what).toEqual(preview.words.filter((_, index) => lines.has(index)));
          }
        }
      }
    } finally {
      await repository.close();
    }
    // The cases reach every outcome: refusals, and lines split across warehouses.
    expect(refused).toBeGreaterThan(0);
    expect(split).toBeGreaterThan(0);
  }, 600_000);
});
