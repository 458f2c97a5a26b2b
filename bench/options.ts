/**
 * The command line of `pnpm bench`: `--quick` (every scenario, tiny sizes: proves the benchmarks
 * still run, measures nothing worth reading), `--orders N` (how many orders the large database
 * of the scale scenarios holds; default 1,000,000), `--only <scenario>` (repeatable: run only
 * the scenarios of these files, e.g. `--only http-accept`) and `--cpu-prof <dir>` (every
 * `fulfil serve` under test writes a CPU profile there when it stops).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The scenarios, each named after its file in bench/. */
export const SCENARIOS = [
  'poll',
  'accept',
  'stock-sync',
  'bulk-import',
  'http-poll',
  'http-accept',
  'http-intake',
  'http-docs',
  'poll-scale',
  'admin-search',
  'admin-dashboard',
  'long-poll',
  'tracing',
  'routing',
  'large-orders',
  'write-path',
  'pipelining',
  'deadlines',
] as const;

export type Scenario = (typeof SCENARIOS)[number];

export interface BenchOptions {
  quick: boolean;
  /** Orders in the large database of the scale scenarios (poll 10k vs N, RSS). */
  orders: number;
  /** The scenarios to run: every one unless `--only` names some. */
  only: ReadonlySet<Scenario>;
  /** Where the servers under test write their `.cpuprofile`, when profiling. */
  cpuProfDir: string | undefined;
  /** The Postgres scenarios run when this is set (`FULFIL_TEST_POSTGRES_URL`). */
  postgresUrl: string | undefined;
  /**
   * `--server-db-params`: what the write path's server adds to its Postgres URL, such as
   * `group_commit=on&group_lanes=2` (docs/operations.md), to compare settings run after run.
   */
  serverDbParams: string | undefined;
}

const DEFAULT_ORDERS = 1_000_000;
const QUICK_ORDERS = 2_000;

export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      orders: { type: 'string' },
      only: { type: 'string', multiple: true },
      'cpu-prof': { type: 'string' },
      'server-db-params': { type: 'string' },
    },
    strict: true,
  });
  const quick = values.quick === true;
  const orders = values.orders === undefined ? undefined : Number(values.orders);
  if (orders !== undefined && !(Number.isInteger(orders) && orders >= 1_000)) {
    throw new Error(`--orders takes an integer >= 1000, not "${values.orders}"`);
  }
  const only = values.only ?? [];
  for (const name of only) {
    if (!(SCENARIOS as readonly string[]).includes(name)) {
      throw new Error(`--only takes one of ${SCENARIOS.join(', ')}, not "${name}"`);
    }
  }
  return {
    quick,
    orders: orders ?? (quick ? QUICK_ORDERS : DEFAULT_ORDERS),
    only: new Set((only.length > 0 ? only : SCENARIOS) as Scenario[]),
    cpuProfDir: values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']),
    postgresUrl: env.FULFIL_TEST_POSTGRES_URL || undefined,
    serverDbParams: values['server-db-params'] || undefined,
  };
}

/** How much each scenario does: the sizes, or tiny ones with `--quick`. */
export interface Sizes {
  /** Orders imported, then polled (pending_accept) and accepted over HTTP. */
  poolOrders: number;
  /** Seconds of load per measurement, and of warm-up before it. */
  seconds: number;
  warmupSeconds: number;
  /**
   * Requests a server under test serves before it is measured, where a scenario has the orders
   * for them (intake, tracing, the write path): a fresh process compiles its hot code over its
   * first few thousand requests, on V8's background threads, a cost a server that runs for days
   * does not pay (docs/benchmarks.md, Warm-up).
   */
  warmupRequests: number;
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
        warmupRequests: 20,
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
        warmupRequests: 5_000,
        acceptWarmup: 500,
        acceptRequests: 4_000,
        smallOrders: 10_000,
        largeOrders: options.orders,
        pendingOrders: 1_000,
      };
}
