/**
 * Intake with routing by the store's rules, in process on a SQLite file: sales orders of 20
 * lines taken in one by one against 50 warehouses across Europe (coordinates, some markets and
 * daily capacities, sparse stock), under the richest rule list and under the default list, the
 * two stores taking turns in the same run. Each intake reads the store's routing facts, decides,
 * explains every line on the timeline and counts the daily capacities, in its transaction.
 */

import { join } from 'node:path';
import { createEngine, DEFAULT_ROUTING, ROUTING_RULES, type RoutingRule } from '@fulfil/core';
import { fixtures, seededRandom } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { addRow, ratioOf } from './summary.js';

const WAREHOUSES = 50;
const LINES = 20;
const SKUS = 400;

function storeSeed(code: string, routing: readonly RoutingRule[]) {
  const random = seededRandom(29);
  const warehouses = Array.from({ length: WAREHOUSES }, (_, index) => ({
    code: `WH-${String(index).padStart(2, '0')}`,
    name: `Warehouse ${index}`,
    priority: Math.floor(random() * 10),
    latitude: 36 + random() * 22,
    longitude: -9 + random() * 33,
    countries: random() < 0.2 ? ['DE', 'AT', 'CH'] : null,
    daily_capacity: random() < 0.3 ? 100_000 : null,
  }));
  const stock = warehouses.flatMap((warehouse) =>
    Array.from({ length: SKUS }, (_, sku) => sku)
      .filter(() => random() < 0.3)
      .map((sku) => ({ warehouse_code: warehouse.code, sku: `SKU-${sku}`, qty: 1_000_000 })),
  );
  return { code, settings: { routing: [...routing] }, warehouses, stock };
}

export async function benchRoutingIntake(dir: string, quick: boolean): Promise<void> {
  const count = quick ? 20 : 300;
  const repository = await openSqliteRepository({
    filename: join(dir, 'routing-intake.db'),
    synchronous: 'normal',
  });
  const engine = createEngine({ repository, tracing: false });
  try {
    await engine.loadSeed({
      stores: [storeSeed('richest', ROUTING_RULES), storeSeed('defaults', DEFAULT_ROUTING)],
    });
    const random = seededRandom(1129);
    const orders = Array.from({ length: count }, (_, index) =>
      fixtures.salesOrder(
        String(1_000_000 + index),
        Array.from({ length: LINES }, () => ({
          sku: `SKU-${Math.floor(random() * SKUS)}`,
          qty: 1 + Math.floor(random() * 3),
        })),
        {
          shipping_address: {
            ...fixtures.address({ country_id: 'IT' }),
            latitude: 45.6983,
            longitude: 9.6773,
          },
        },
      ),
    );
    const seconds = { richest: 0, defaults: 0 };
    for (const [index, order] of orders.entries()) {
      // The stores take turns, the first one alternating, so that neither runs on a warmer cache.
      const turn =
        index % 2 === 0 ? (['richest', 'defaults'] as const) : (['defaults', 'richest'] as const);
      for (const store of turn) {
        const started = performance.now();
        await engine.intake(store, order);
        seconds[store] += (performance.now() - started) / 1000;
      }
    }
    const rate = (store: keyof typeof seconds) => count / seconds[store];
    const show = (store: keyof typeof seconds) =>
      `${Math.round(rate(store)).toLocaleString('en')} orders/s (${((seconds[store] / count) * 1000).toFixed(2)} ms each)`;
    console.log(
      `intake of ${count} sales orders of ${LINES} lines against ${WAREHOUSES} warehouses, one at a time, SQLite file`,
    );
    console.log(`  richest rules (${ROUTING_RULES.length}): ${show('richest')}`);
    console.log(`  default rules: ${show('defaults')}`);
    addRow({
      scenario: `intake, ${LINES} lines x ${WAREHOUSES} warehouses, richest rules`,
      fulfil: show('richest'),
      floor: `default rules: ${show('defaults')}`,
      ratio: ratioOf(1 / rate('richest'), 1 / rate('defaults')),
      target: 'close to the default rules',
    });
  } finally {
    await engine.close();
  }
}
