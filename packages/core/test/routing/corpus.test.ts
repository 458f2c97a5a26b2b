import { describe, expect, it } from 'vitest';
import { decideRouting } from '../../src/index.js';
import { greedyRouter } from '../support/greedy-router.js';
import {
  contextOf,
  generateCorpus,
  optimumShipments,
  snapshotOf,
} from '../support/routing-corpus.js';

const ORDERS = 10_000;
const MAX_SHIPMENTS = 3;

describe('fewest_shipments over a generated corpus (seeded: 1-20 lines, 5-50 warehouses, sparse stock)', () => {
  it(`finds the optimum on every order whose optimum is <= max_shipments, never ships more than the greedy router, and stays within 1 % of the optimum over ${ORDERS} orders`, () => {
    const corpus = generateCorpus(36, ORDERS);
    let engineTotal = 0;
    let optimumTotal = 0;
    let greedyTotal = 0;
    let withinBound = 0;
    let notProven = 0;
    const misses: string[] = [];
    for (const [index, order] of corpus.entries()) {
      const decision = decideRouting(
        snapshotOf(order, ['active', 'stock', 'fewest_shipments', 'priority'], MAX_SHIPMENTS),
      );
      const shipments = decision.assignments.length;
      const optimum = optimumShipments(order);
      const greedy = greedyRouter(order.lines, null, contextOf(order)).length;
      engineTotal += shipments;
      optimumTotal += optimum;
      greedyTotal += greedy;
      if (!decision.optimal) notProven++;
      if (optimum <= MAX_SHIPMENTS) {
        withinBound++;
        if (shipments !== optimum) misses.push(`order ${index}: ${shipments} for ${optimum}`);
      }
      if (shipments > greedy) misses.push(`order ${index}: ${shipments} > greedy ${greedy}`);
      if (decision.optimal && shipments !== optimum)
        misses.push(`order ${index}: said optimal with ${shipments} for ${optimum}`);
    }
    console.log(
      `routing corpus: ${ORDERS} orders, ${withinBound} with an optimum <= ${MAX_SHIPMENTS}; ` +
        `shipments: engine ${engineTotal}, optimum ${optimumTotal}, greedy router ${greedyTotal}; ` +
        `${notProven} not proven optimal`,
    );
    expect(misses).toEqual([]);
    expect(engineTotal).toBeLessThanOrEqual(optimumTotal * 1.01);
  }, 300_000);
});
