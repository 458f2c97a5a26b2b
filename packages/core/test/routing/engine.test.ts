import { describe, expect, it } from 'vitest';
import {
  fewestWarehouses,
  SEARCH_BOUND,
  SEARCH_WORK_BOUND,
  searchBound,
} from '../../src/domain/routing/fewest-shipments.js';
import {
  DEFAULT_ROUTING,
  decideRouting,
  describeDecision,
  describeLine,
  type RoutingRule,
  type RoutingSnapshot,
  type RoutingWarehouse,
  type StockFact,
} from '../../src/index.js';

const warehouse = (code: string, extra: Partial<RoutingWarehouse> = {}): RoutingWarehouse => ({
  code,
  active: true,
  priority: 0,
  latitude: null,
  longitude: null,
  countries: null,
  daily_capacity: null,
  routed_today: 0,
  ...extra,
});

/** Stock as `{ 'WH-A/X': 3 }`; a number is unreserved with no safety stock. */
const stockOf = (levels: Record<string, number | [number, number]>): StockFact[] =>
  Object.entries(levels).map(([key, level]) => {
    const [warehouse_code, sku] = key.split('/') as [string, string];
    const [unreserved, safety_stock] = typeof level === 'number' ? [level, 0] : level;
    return { warehouse_code, sku, unreserved, safety_stock };
  });

function snapshot(overrides: Partial<RoutingSnapshot>): RoutingSnapshot {
  return {
    lines: [{ sku: 'X', qty: 1 }],
    pinned: null,
    destination: { country: 'IT', point: null, located_by: null },
    warehouses: [warehouse('WH-A')],
    stock: [],
    rules: DEFAULT_ROUTING,
    max_shipments: 3,
    split_lines: false,
    short_lines: 'route',
    ...overrides,
  };
}

const MILAN = { latitude: 45.4642, longitude: 9.19 };
const HAMBURG = { latitude: 53.5511, longitude: 9.9937 };
const BERGAMO = { latitude: 45.6983, longitude: 9.6773 };

describe('fewest_shipments', () => {
  // Stock A at X and Y, B at Y and Z, C at Z; the greedy router, filling each line from the
  // highest-priority warehouse, ships three parcels where two would do.
  const threeLines = snapshot({
    lines: [
      { sku: 'X', qty: 1 },
      { sku: 'Y', qty: 1 },
      { sku: 'Z', qty: 1 },
    ],
    warehouses: [
      warehouse('WH-A', { priority: 1 }),
      warehouse('WH-B', { priority: 2 }),
      warehouse('WH-C', { priority: 3 }),
    ],
    stock: stockOf({ 'WH-A/X': 5, 'WH-A/Y': 5, 'WH-B/Y': 5, 'WH-B/Z': 5, 'WH-C/Z': 5 }),
  });

  it('ships in the fewest warehouses, the best-ranked set among the fewest', () => {
    const decision = decideRouting({
      ...threeLines,
      rules: ['active', 'stock', 'fewest_shipments', 'priority'],
    });
    expect(decision.assignments).toEqual([
      {
        warehouse_code: 'WH-A',
        lines: [
          { line: 0, qty: 1 },
          { line: 1, qty: 1 },
        ],
      },
      { warehouse_code: 'WH-C', lines: [{ line: 2, qty: 1 }] },
    ]);
    expect(decision.optimal).toBe(true);
    const [, lineY] = decision.lines;
    expect(lineY?.decided_by).toBe('fewest_shipments');
    expect(lineY?.considered).toEqual([
      { warehouse_code: 'WH-A', ranks: { fewest_shipments: 1, priority: 2 }, available: 5 },
      { warehouse_code: 'WH-B', ranks: { fewest_shipments: 2, priority: 1 }, available: 5 },
    ]);
    expect(describeLine(decision, lineY as (typeof decision.lines)[number])).toBe(
      'Routed to WH-A: fewest shipments (2); WH-C excluded: no stock',
    );
  });

  it('without it, the default rules fill each line from the highest priority: three parcels', () => {
    expect(decideRouting(threeLines).assignments.map((a) => a.warehouse_code)).toEqual([
      'WH-A',
      'WH-B',
      'WH-C',
    ]);
  });

  it('falls back to the greedy answer past max_shipments, and says the count is not proven', () => {
    const decision = decideRouting(
      snapshot({
        lines: [
          { sku: 'X', qty: 1 },
          { sku: 'Y', qty: 1 },
          { sku: 'Z', qty: 1 },
        ],
        warehouses: [warehouse('WH-A'), warehouse('WH-B'), warehouse('WH-C')],
        stock: stockOf({ 'WH-A/X': 1, 'WH-B/Y': 1, 'WH-C/Z': 1 }),
        rules: ['active', 'stock', 'fewest_shipments'],
        max_shipments: 1,
      }),
    );
    expect(decision.assignments).toHaveLength(3);
    expect(decision.optimal).toBe(false);
    expect(decision.lines.every((line) => !line.optimal)).toBe(true);
    expect(describeDecision(decision)[0]).toContain('fewer shipments not proven');
  });

  it('past max_shipments, a greedy count one above it is proven the fewest', () => {
    const decision = decideRouting(
      snapshot({
        lines: [
          { sku: 'X', qty: 1 },
          { sku: 'Y', qty: 1 },
        ],
        warehouses: [warehouse('WH-A'), warehouse('WH-B')],
        stock: stockOf({ 'WH-A/X': 1, 'WH-B/Y': 1 }),
        rules: ['stock', 'fewest_shipments'],
        max_shipments: 1,
      }),
    );
    expect(decision.assignments).toHaveLength(2);
    expect(decision.optimal).toBe(true);
  });

  it('stops at its bound and says so', () => {
    // Three demands, each served by one warehouse of its own: no set of 1 or 2 covers them.
    const problem = {
      needs: [1, 1, 1],
      gives: [[{ demand: 0, amount: 1 }], [{ demand: 1, amount: 1 }], [{ demand: 2, amount: 1 }]],
    };
    expect(fewestWarehouses(problem, 3).set).toEqual([0, 1, 2]);
    const cut = fewestWarehouses(problem, 3, 2);
    expect(cut).toMatchObject({ set: null, cutShort: true });
  });

  it('bounds the work of a search over many lines, not only the sets it tries', () => {
    expect(searchBound(20)).toBe(SEARCH_BOUND);
    expect(searchBound(2_000)).toBe(SEARCH_WORK_BOUND / 2_000);
    // 2,000 demands, each served by two of 40 warehouses, no small cover: the search stops at
    // its bound for that many demands.
    const demands = 2_000;
    const gives = Array.from({ length: 40 }, () => [] as { demand: number; amount: number }[]);
    for (let demand = 0; demand < demands; demand++)
      for (const warehouse of [demand % 40, (demand * 7 + 3) % 40])
        gives[warehouse]?.push({ demand, amount: 1 });
    const search = fewestWarehouses({ needs: Array(demands).fill(1), gives }, 30);
    expect(search.tried).toBeLessThanOrEqual(searchBound(demands) + 1);
  });

  it('lets the sorts before it outrank fewer shipments', () => {
    const decision = decideRouting({
      ...threeLines,
      rules: ['active', 'stock', 'priority', 'fewest_shipments'],
    });
    expect(decision.assignments.map((a) => a.warehouse_code)).toEqual(['WH-A', 'WH-B', 'WH-C']);
    expect(decision.lines[1]?.decided_by).toBe('priority');
  });

  it('splits a line across warehouses only with split_lines', () => {
    const base = snapshot({
      lines: [{ sku: 'X', qty: 5 }],
      warehouses: [warehouse('WH-A', { priority: 2 }), warehouse('WH-B', { priority: 1 })],
      stock: stockOf({ 'WH-A/X': 3, 'WH-B/X': 2 }),
      rules: ['active', 'stock', 'fewest_shipments', 'priority'],
    });
    const whole = decideRouting(base);
    expect(whole.lines[0]).toMatchObject({
      short: true,
      parts: [{ warehouse_code: 'WH-A', qty: 5 }],
    });
    const split = decideRouting({ ...base, split_lines: true });
    expect(split.lines[0]).toMatchObject({
      short: false,
      parts: [
        { warehouse_code: 'WH-A', qty: 3 },
        { warehouse_code: 'WH-B', qty: 2 },
      ],
    });
    expect(describeDecision(split)[0]).toBe(
      'Split: 3 from WH-A, 2 from WH-B: no warehouse has all of it',
    );
  });
});

describe('filters: each warehouse excluded says why', () => {
  it('names the first filter, in the rules order, that removed each warehouse', () => {
    const decision = decideRouting(
      snapshot({
        lines: [{ sku: 'X', qty: 2, rejected_by: ['WH-G'] }],
        warehouses: [
          warehouse('WH-A'),
          warehouse('WH-B', { active: false }),
          warehouse('WH-C', { countries: ['DE', 'AT'] }),
          warehouse('WH-D'),
          warehouse('WH-E'),
          warehouse('WH-F', { daily_capacity: 300, routed_today: 300 }),
          warehouse('WH-G'),
        ],
        stock: stockOf({
          'WH-A/X': 2,
          'WH-B/X': 9,
          'WH-C/X': 9,
          'WH-D/X': 1,
          'WH-E/X': [3, 2],
          'WH-F/X': 9,
          'WH-G/X': 9,
        }),
      }),
    );
    const [line] = decision.lines;
    expect(line?.parts).toEqual([{ warehouse_code: 'WH-A', qty: 2 }]);
    expect(line?.decided_by).toBe('stock');
    expect(line?.excluded.map(({ warehouse_code, reason }) => [warehouse_code, reason])).toEqual([
      ['WH-B', 'inactive'],
      ['WH-C', 'not_in_market'],
      ['WH-D', 'no_stock'],
      ['WH-E', 'below_safety_stock'],
      ['WH-F', 'over_capacity'],
      ['WH-G', 'rejected_before'],
    ]);
    expect(describeDecision(decision)[0]).toBe(
      'Routed to WH-A: the only one with stock; WH-B excluded: inactive; ' +
        'WH-C excluded: does not ship to IT; WH-D excluded: no stock; ' +
        'WH-E excluded: only safety stock left; WH-F excluded: over daily capacity; ' +
        'WH-G excluded: rejected it before',
    );
  });

  it('sends every line of a pinned order to its warehouse, stock or not', () => {
    const decision = decideRouting(
      snapshot({
        pinned: 'WH-B',
        warehouses: [warehouse('WH-A', { priority: 9 }), warehouse('WH-B')],
        stock: stockOf({ 'WH-A/X': 9 }),
      }),
    );
    expect(decision.lines[0]).toMatchObject({
      parts: [{ warehouse_code: 'WH-B', qty: 1 }],
      short: true,
      excluded: [{ warehouse_code: 'WH-A', reason: 'pinned_elsewhere' }],
    });
  });

  it('routes a short line to the best warehouse by the other rules, or leaves it when asked', () => {
    const base = snapshot({
      warehouses: [warehouse('WH-A', { priority: 1 }), warehouse('WH-B', { priority: 5 })],
    });
    expect(decideRouting(base).lines[0]).toMatchObject({
      short: true,
      parts: [{ warehouse_code: 'WH-B', qty: 1 }],
      decided_by: 'priority',
    });
    const left = decideRouting({ ...base, short_lines: 'leave' });
    expect(left.assignments).toEqual([]);
    expect(left.lines[0]).toMatchObject({ short: true, parts: [], decided_by: null });
    expect(describeDecision(left)[0]).toBe(
      'Not routed: no warehouse has the stock; WH-A, WH-B excluded: no stock',
    );
  });

  it('leaves a line no warehouse may take unassigned, not short', () => {
    const decision = decideRouting(
      snapshot({ warehouses: [warehouse('WH-A', { countries: ['FR'] })] }),
    );
    expect(decision.lines[0]).toMatchObject({ parts: [], short: false });
    expect(describeDecision(decision)[0]).toBe(
      'Not routed: no warehouse can take it; WH-A excluded: does not ship to IT',
    );
  });

  it('counts lines of one sku on the stock of their total', () => {
    const decision = decideRouting(
      snapshot({
        lines: [
          { sku: 'X', qty: 1 },
          { sku: 'X', qty: 1 },
        ],
        warehouses: [warehouse('WH-A', { priority: 9 }), warehouse('WH-B')],
        stock: stockOf({ 'WH-A/X': 1, 'WH-B/X': 2 }),
      }),
    );
    expect(decision.assignments).toEqual([
      {
        warehouse_code: 'WH-B',
        lines: [
          { line: 0, qty: 1 },
          { line: 1, qty: 1 },
        ],
      },
    ]);
  });
});

describe('sorts', () => {
  const italy = { country: 'IT', point: BERGAMO, located_by: 'address' as const };

  it('distance: the closest warehouse with stock, in whole km, and the ones excluded', () => {
    const decision = decideRouting(
      snapshot({
        destination: italy,
        warehouses: [
          warehouse('WH-HAMBURG', {
            ...HAMBURG,
            priority: 9,
            daily_capacity: 300,
            routed_today: 300,
          }),
          warehouse('WH-MILAN', MILAN),
          warehouse('WH-MUNICH', { latitude: 48.1351, longitude: 11.582 }),
        ],
        stock: stockOf({ 'WH-HAMBURG/X': 5, 'WH-MILAN/X': 5, 'WH-MUNICH/X': 5 }),
        rules: ['active', 'capacity', 'stock', 'distance', 'priority'],
      }),
    );
    const [line] = decision.lines;
    expect(line?.decided_by).toBe('distance');
    expect(decision.warehouses.find((w) => w.warehouse_code === 'WH-MILAN')?.km).toBe(46);
    expect(describeDecision(decision)).toEqual([
      'Routed to WH-MILAN: closest with stock (46 km); WH-HAMBURG excluded: over daily capacity',
    ]);
  });

  it('distance: a warehouse without coordinates sorts last and the explanation says so', () => {
    const decision = decideRouting(
      snapshot({
        destination: italy,
        warehouses: [warehouse('WH-AAA', { priority: 9 }), warehouse('WH-MILAN', MILAN)],
        stock: stockOf({ 'WH-AAA/X': 5, 'WH-MILAN/X': 5 }),
        rules: ['stock', 'distance', 'priority'],
      }),
    );
    expect(decision.lines[0]?.parts[0]?.warehouse_code).toBe('WH-MILAN');
    expect(decision.lines[0]?.considered.map((w) => [w.warehouse_code, w.ranks])).toEqual([
      ['WH-MILAN', { distance: 1, priority: 2 }],
      ['WH-AAA', { distance: 2, priority: 1 }],
    ]);
    expect(describeDecision(decision)[0]).toBe(
      'Routed to WH-MILAN: closest with stock (46 km); WH-AAA sorted last: distance unknown',
    );
  });

  it('remaining_capacity: the most orders left today first, no limit before any', () => {
    const rules: RoutingRule[] = ['active', 'remaining_capacity'];
    const warehouses = [
      warehouse('WH-A', { daily_capacity: 100, routed_today: 90 }),
      warehouse('WH-B', { daily_capacity: 100, routed_today: 10 }),
    ];
    expect(decideRouting(snapshot({ warehouses, rules })).lines[0]?.parts[0]?.warehouse_code).toBe(
      'WH-B',
    );
    const unlimited = [...warehouses, warehouse('WH-C')];
    expect(
      decideRouting(snapshot({ warehouses: unlimited, rules })).lines[0]?.parts[0]?.warehouse_code,
    ).toBe('WH-C');
  });

  it('breaks a tie under every sort by the warehouse code', () => {
    const decision = decideRouting(
      snapshot({ warehouses: [warehouse('WH-B'), warehouse('WH-A')], rules: ['priority'] }),
    );
    expect(decision.lines[0]).toMatchObject({
      parts: [{ warehouse_code: 'WH-A', qty: 1 }],
      decided_by: 'code',
    });
  });
});

describe('determinism', () => {
  it('decides the same whatever order the warehouses and stock come in', () => {
    const warehouses = ['WH-A', 'WH-B', 'WH-C', 'WH-D', 'WH-E'].map((code, index) =>
      warehouse(code, { priority: index % 2, ...(index % 3 === 0 ? MILAN : HAMBURG) }),
    );
    const stock = stockOf({
      'WH-A/X': 2,
      'WH-B/X': 2,
      'WH-B/Y': 1,
      'WH-C/Y': 4,
      'WH-D/Z': 1,
      'WH-E/Z': 3,
      'WH-E/X': 1,
    });
    const base = snapshot({
      lines: [
        { sku: 'X', qty: 1 },
        { sku: 'Y', qty: 1 },
        { sku: 'Z', qty: 1 },
      ],
      destination: { country: 'IT', point: BERGAMO, located_by: 'address' },
      warehouses,
      stock,
      rules: ['active', 'stock', 'fewest_shipments', 'distance', 'priority'],
    });
    const first = decideRouting(base);
    const shuffled = decideRouting({
      ...base,
      warehouses: [...warehouses].reverse(),
      stock: [...stock].reverse(),
    });
    expect(shuffled).toEqual(first);
  });
});
