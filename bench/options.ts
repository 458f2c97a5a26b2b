/**
 * The command line of `pnpm bench`: `--quick` (every scenario, tiny sizes: proves the benchmarks
 * still run, measures nothing worth reading), `--orders N` (how many orders the large
 * database of the scale scenarios holds; default 1,000,000) and `--only <scenario-file-name>`
 * (only the scenarios of that file of bench/, e.g. `--only bulk-import`, with what they need).
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  quick: boolean;
  /** Orders in the large database of the scale scenarios (poll 10k vs N, RSS). */
  orders: number;
  /** `--only`: the one scenario file to run (its name without `.ts`); undefined runs them all. */
  only: string | undefined;
  /** The Postgres scenarios run when this is set (`FULFIL_TEST_POSTGRES_URL`). */
  postgresUrl: string | undefined;
}

const DEFAULT_ORDERS = 1_000_000;

/** The files of bench/ that hold scenarios `--only` can name. */
export const SCENARIO_FILES = [
  'poll',
  'accept',
  'stock-sync',
  'bulk-import',
  'http-poll',
  'http-accept',
  'poll-scale',
] as const;
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
  const only = values.only?.replace(/\.ts$/, '');
  if (only !== undefined && !(SCENARIO_FILES as readonly string[]).includes(only)) {
    throw new Error(`--only takes one of ${SCENARIO_FILES.join(', ')}, not "${values.only}"`);
  }
  return {
    quick,
    only,
    orders: orders ?? (quick ? QUICK_ORDERS : DEFAULT_ORDERS),
    postgresUrl: env.FULFIL_TEST_POSTGRES_URL || undefined,
  };
}

/** Whether the scenarios of `file` run (`--only` names it, or names none). */
export function runs(options: BenchOptions, file: (typeof SCENARIO_FILES)[number]): boolean {
  return options.only === undefined || options.only === file;
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
