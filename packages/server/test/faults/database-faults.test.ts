import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@fulfil/core';
import { skipUnless } from '@fulfil/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import {
  eventually,
  killAll,
  PARTNER,
  type ServerProcess,
  startServer,
  storeSeed,
  writeSeed,
} from '../scale-out/support.js';
import { type Exchange, type Outcome, startLoad } from './load.js';
import {
  createPostgresCluster,
  missingClusterTools,
  type PostgresCluster,
} from './postgres-cluster.js';

/**
 * `fulfil serve` on a Postgres cluster of its own that the test restarts, stops and cuts the
 * connections of while 8 clients keep it busy. The server must never die, answer every request
 * during an outage with 503 + Retry-After and the error body (never a 500, never silence), and
 * serve again by itself once the database is back: the test only waits for it, however slow the
 * machine, and prints how long it took.
 */

const wanted = Boolean(process.env.FULFIL_TEST_POSTGRES_URL) || process.env.CI === 'true';

/** Clients at once, each on a new connection per request. */
const CLIENTS = 8;
/** Only keeps a server that never serves again from hanging the run; no promise of speed. */
const GIVE_UP_MS = 60_000;

/** Half the clients write stock (one SKU each), the other half poll a queue. */
function exchange(client: number, n: number): Exchange {
  return client % 2 === 0
    ? {
        method: 'POST',
        path: 'stockItems',
        token: PARTNER,
        body: { stock_items: [{ warehouse_code: 'WH-A', sku: `SKU-${client}`, qty: n }] },
      }
    : { method: 'GET', path: 'fulfillmentOrders/pending_accept', token: PARTNER };
}

type Fault = 'restart' | 'terminate' | 'outage';
/** Each kind once; `FULFIL_LONG=1` repeats the restarts and the cut connections. */
const FAULTS: readonly Fault[] =
  process.env.FULFIL_LONG === '1'
    ? ['restart', 'terminate', 'restart', 'terminate', 'terminate', 'outage']
    : ['restart', 'terminate', 'outage'];
/** Past every wait of a scenario (at most three per fault), so those fail first, saying what. */
const SCENARIO_GIVE_UP_MS = (FAULTS.length * 3 + 1) * GIVE_UP_MS;

interface Figures {
  faults: number;
  backendsTerminated: number;
  recoveriesMs: number[];
  outcomes: Outcome[];
}

/** Throws, with what it printed, once the server or one of its workers has died. */
function assertAlive(server: ServerProcess, exitCode: () => number | null | undefined): void {
  const code = exitCode();
  if (code !== undefined || /exited unexpectedly/.test(server.stderr())) {
    throw new Error(
      `${code === undefined ? 'a worker' : `the server (exit ${code})`} died:\n${server.stderr().slice(-2000)}`,
    );
  }
}

async function injectFaults(
  cluster: PostgresCluster,
  outcomes: Outcome[],
  checkAlive: () => void,
): Promise<Figures> {
  const firstServedAfter = async (since: number, what: string) => {
    let served: Outcome | undefined;
    await eventually(
      async () => {
        checkAlive();
        served = outcomes.find((outcome) => outcome.sent >= since && outcome.status === 200);
        return served !== undefined;
      },
      what,
      GIVE_UP_MS,
    );
    return (served as Outcome).done - since;
  };
  const recoveriesMs: number[] = [];
  let backendsTerminated = 0;
  for (const fault of FAULTS) {
    // Let the load reach the database first, so the fault cuts connections in use.
    await firstServedAfter(performance.now(), 'a request served before the fault');
    if (fault === 'restart') await cluster.restart();
    if (fault === 'terminate') backendsTerminated += await cluster.terminateBackends('fulfil');
    if (fault === 'outage') {
      await cluster.stop();
      const down = performance.now();
      await eventually(
        async () =>
          checkAlive() ??
          outcomes.filter((outcome) => outcome.sent >= down && outcome.status !== 200).length >=
            2 * CLIENTS,
        'requests answered while the database is down',
        GIVE_UP_MS,
      );
      await cluster.start();
    }
    recoveriesMs.push(
      Math.round(await firstServedAfter(performance.now(), `service after the ${fault}`)),
    );
  }
  return { faults: FAULTS.length, backendsTerminated, recoveriesMs, outcomes };
}

/** Checks what the clients saw; returns the count of each status. */
function checkOutcomes(outcomes: readonly Outcome[]): Record<string, number> {
  const unanswered = outcomes.filter((outcome) => outcome.status === null);
  expect(unanswered.map((outcome) => outcome.failure)).toEqual([]);
  const counts: Record<string, number> = {};
  for (const outcome of outcomes)
    counts[String(outcome.status)] = (counts[String(outcome.status)] ?? 0) + 1;
  expect(Object.keys(counts).sort()).toEqual(['200', '503']);
  for (const outcome of outcomes.filter((outcome) => outcome.status === 503)) {
    expect(outcome.retryAfter).toBe('1');
    expect(outcome.body).toMatchObject({ message: expect.any(String), code: expect.any(Number) });
    expect(outcome.body).not.toHaveProperty('trace');
  }
  return counts;
}

/**
 * Each client wrote its own SKU, one request after the other: the stored quantity is the one of
 * its last acknowledged (200) write, or of a later write whose 503 left the commit unknown.
 */
async function checkNothingLost(db: string, outcomes: readonly Outcome[]): Promise<void> {
  const engine = createEngine({ repository: await openRepository(db, { skipMigrations: true }) });
  try {
    const stored = new Map(
      (await engine.listStock('default')).map((row) => [row.sku, row.on_hand] as const),
    );
    const writes = outcomes.filter((outcome) => outcome.request.method === 'POST');
    for (const sku of new Set(writes.map(skuOf))) {
      const mine = writes.filter((outcome) => skuOf(outcome) === sku);
      let lastAcknowledged = -1;
      mine.forEach((outcome, i) => {
        if (outcome.status === 200) lastAcknowledged = i;
      });
      // Before any acknowledged write, the row may not exist at all.
      const possible: (number | undefined)[] = mine.slice(Math.max(lastAcknowledged, 0)).map(qtyOf);
      if (lastAcknowledged === -1) possible.push(undefined);
      expect(possible, `${sku} holds ${stored.get(sku)}`).toContain(stored.get(sku));
    }
  } finally {
    await engine.close();
  }
}

type StockWrite = { stock_items: { sku: string; qty: number }[] };
const firstItem = (outcome: Outcome) =>
  (outcome.request.body as StockWrite).stock_items[0] as StockWrite['stock_items'][number];
const skuOf = (outcome: Outcome) => firstItem(outcome).sku;
const qtyOf = (outcome: Outcome) => firstItem(outcome).qty;

function report(mode: string, figures: Figures, counts: Record<string, number>) {
  const { recoveriesMs } = figures;
  console.log(
    `database faults, ${mode}: ${figures.faults} faults injected ` +
      `(${figures.backendsTerminated} backends terminated), ${figures.outcomes.length} requests ` +
      `(${Object.entries(counts)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ')}), process deaths: 0, recovery after the database is back: ` +
      `${recoveriesMs.join(', ')} ms (max ${Math.max(...recoveriesMs)} ms), slowest 503: ` +
      `${Math.round(Math.max(...figures.outcomes.filter((o) => o.status === 503).map((o) => o.done - o.sent)))} ms`,
  );
}

if (!wanted) {
  describe('database faults', () => {
    it(
      'all of its tests',
      skipUnless(
        wanted,
        'FULFIL_TEST_POSTGRES_URL is not set, nor CI=true (it makes its own cluster)',
      ),
      () => {},
    );
  });
} else {
  describe('database faults: fulfil serve on a Postgres cluster that restarts and drops connections', () => {
    let cluster: PostgresCluster | undefined;
    let dir: string;
    let seedFile: string;

    beforeAll(async () => {
      const missing = await missingClusterTools();
      if (missing) {
        throw new Error(
          `the database-fault tests make a PostgreSQL cluster of their own, and ${missing}`,
        );
      }
      dir = await mkdtemp(join(tmpdir(), 'fulfil-faults-'));
      seedFile = await writeSeed(dir, storeSeed([], []));
      cluster = await createPostgresCluster();
    }, 60_000);

    afterAll(async () => {
      await killAll();
      await cluster?.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 60_000);

    const scenario = async (mode: string, extra: string[]) => {
      const db = `${(cluster as PostgresCluster).url}?schema=faults_${mode.replace(/\W/g, '_')}`;
      const server: ServerProcess = await startServer([
        '--db',
        db,
        '--seed',
        seedFile,
        '--courier-interval',
        '200',
        ...extra,
      ]);
      let exitCode: number | null | undefined;
      void server.exited.then((code) => {
        exitCode = code;
      });
      const checkAlive = () => assertAlive(server, () => exitCode);
      const load = startLoad(server.url, CLIENTS, exchange);
      let figures: Figures;
      try {
        figures = await injectFaults(cluster as PostgresCluster, load.outcomes, checkAlive);
      } finally {
        await load.stop();
      }
      checkAlive();
      const counts = checkOutcomes(figures.outcomes);
      report(mode, figures, counts);
      expect(server.stderr()).toBe('');
      // Each 503 is logged with what the database said, for the operator.
      const logged503 = server.logLines().filter((line) => line.status === 503);
      expect(logged503.length).toBe(counts['503']);
      for (const line of logged503) expect(line.cause).toEqual(expect.any(String));
      expect(figures.backendsTerminated).toBeGreaterThan(0);
      await checkNothingLost(db, figures.outcomes);
      // Nothing was left broken: it stops as gracefully as ever.
      expect(await server.stop('SIGTERM')).toBe(0);
    };

    it(
      'one process: never dies, 503 + Retry-After during the outage, serves again',
      async () => {
        await scenario('one process', []);
      },
      SCENARIO_GIVE_UP_MS,
    );

    it(
      '--workers 2: no worker dies, 503 + Retry-After during the outage, serves again',
      async () => {
        await scenario('workers', ['--workers', '2']);
      },
      SCENARIO_GIVE_UP_MS,
    );
  });
}
