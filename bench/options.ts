/**
 * The command line of `pnpm bench`: `--quick` (every scenario, tiny sizes: proves the benchmarks
 * still run, measures nothing worth reading), `--orders N` (how many orders the large
 * database of the scale scenarios holds; default 1,000,000) and `--only GROUP[,GROUP]` (only
 * those groups of scenarios, see `SCENARIO_GROUPS`).
 */
import { parseArgs } from 'node:util';

/** The groups of scenarios `--only` can pick, in the order a run takes them. */
export const SCENARIO_GROUPS = [
  'in-process',
  'import',
  'http-poll',
  'http-accept',
  'poll-scale',
] as const;
export type ScenarioGroup = (typeof SCENARIO_GROUPS)[number];

export interface BenchOptions {
  quick: boolean;
  /** The groups to run: all of them unless `--only` names some. */
  only: ReadonlySet<ScenarioGroup>;
  /** Orders in the large database of the scale scenarios (poll 10k vs N, RSS). */
  orders: number;
  /** The Postgres scenarios run when this is set (`FULFIL_TEST_POSTGRES_URL`). */
  postgresUrl: string | undefined;
}

const DEFAULT_ORDERS = 1_000_000;
const QUICK_ORDERS = 2_000;

export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { quick: { type: 'boolean' }, orders: { type: 'string' }, only: { type: 'string' } },
    strict: true,
  });
  const quick = values.quick === true;
  const orders = values.orders === undefined ? undefined : Number(values.orders);
  if (orders !== undefined && !(Number.isInteger(orders) && orders >= 1_000)) {
    throw new Error(`--orders takes an integer >= 1000, not "${values.orders}"`);
  }
  return {
    quick,
    only: groupsOf(values.only),
    orders: orders ?? (quick ? QUICK_ORDERS : DEFAULT_ORDERS),
    postgresUrl: env.FULFIL_TEST_POSTGRES_URL || undefined,
  };
}

function groupsOf(only: string | undefined): ReadonlySet<ScenarioGroup> {
  if (only === undefined) return new Set(SCENARIO_GROUPS);
  const names = only.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(SCENARIO_GROUPS as readonly string[]).includes(name)) {
      throw new Error(`--only takes groups among ${SCENARIO_GROUPS.join(', ')}, not "${name}"`);
    }
  }
  return new Set(names as ScenarioGroup[]);
}

/** How much each scenario does: the sizes, or tiny ones with `--quick`. */
export interface Sizes {
  /** Orders imported, then polled (pending_accept) and accepted over HTTP. */
  poolOrders: number;
  /** Seconds of load per measurement, and of warm-up before it. */
  seconds: number;
  warmupSeconds: number;
  /** Accepts over HTTP: warm-up requests, then measured ones; each takes a fresh order. */
  acceptWarmup: number;
  acceptRequests: number;
  /** The scale scenarios: orders of the small and the large database, how many pending. */
  smallOrders: number;
  largeOrders: number;
  pendingOrders: number;
}

export function sizesOf(options: BenchOptions): Sizes {
  return options.quick
    ? {
        poolOrders: 150,
        seconds: 1,
        warmupSeconds: 0.3,
        acceptWarmup: 20,
        acceptRequests: 100,
        smallOrders: 500,
        largeOrders: options.orders,
        pendingOrders: 120,
      }
    : {
        poolOrders: 5_000,
        seconds: 10,
        warmupSeconds: 2,
        acceptWarmup: 500,
        acceptRequests: 4_000,
        smallOrders: 10_000,
        largeOrders: options.orders,
        pendingOrders: 1_000,
      };
}
