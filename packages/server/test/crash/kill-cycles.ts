import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readStoredState } from '@fulfil/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import {
  killAll,
  orderNumber,
  type ServerProcess,
  salesOrder,
  startServer,
  storeSeed,
  type TestDatabase,
  writeSeed,
} from '../scale-out/support.js';
import { Ledger } from './ledger.js';
import { ORDER_KINDS, startLoad } from './load.js';
import { ServerSlot } from './server-slot.js';

/**
 * Crash safety: a `fulfil serve` process (the built executable) is killed with SIGKILL again and
 * again while a load of all five order actions and stock syncs runs against it, and restarted on
 * the same database each time. Afterwards every action the load saw acknowledged must be in the
 * database, the stored state must keep core's invariants, and the database must be sound.
 *
 * FULFIL_CRASH_CYCLES sets the number of kills (default 10, what CI runs); more orders are seeded
 * for more cycles, so a long run keeps every action in play.
 */

function cyclesFromEnvironment(): number {
  const text = process.env.FULFIL_CRASH_CYCLES;
  if (text === undefined || text === '') return 10;
  const cycles = Number(text);
  if (!Number.isInteger(cycles) || cycles < 1) {
    throw new Error(`FULFIL_CRASH_CYCLES must be a positive integer, not "${text}"`);
  }
  return cycles;
}

const CYCLES = cyclesFromEnvironment();
const ORDERS = 10 * CYCLES + 20;
const DRIVERS = 8;
const SKUS = Array.from({ length: 8 }, (_, i) => `S-${i + 1}`);
const FIRST_SALES_ORDER = 310_000_001;
/**
 * Each server is killed once the load has had this many acknowledgements from it, and a random
 * further while (up to EXTRA_MS): every kill meets work in progress, however slow the machine.
 */
const ACKS_PER_CYCLE = 5;
const EXTRA_MS = 300;

function seed() {
  const stock = SKUS.map((sku) => ({ warehouse_code: 'WH-A', sku, qty: 1000 }));
  const orders = Array.from({ length: ORDERS }, (_, i) =>
    salesOrder(
      FIRST_SALES_ORDER + i,
      'WH-A',
      [
        [SKUS[i % SKUS.length] as string, 1 + (i % 3)],
        [SKUS[(i + 3) % SKUS.length] as string, 1],
      ],
      // The partial kind ships its lines one at a time.
      ORDER_KINDS[i % ORDER_KINDS.length] === 'partial' ? { allow_partial: true } : {},
    ),
  );
  return storeSeed(stock, orders);
}

const NUMBERS = Array.from({ length: ORDERS }, (_, i) => orderNumber(FIRST_SALES_ORDER + i));

export interface CrashSubject {
  /** What is killed on, for titles and the printed figures: `a SQLite file`, `PostgreSQL`. */
  name: string;
  makeDatabase(): Promise<TestDatabase>;
  /** The database's own consistency checks; none when the database enforces them itself. */
  integrityProblems?(database: TestDatabase): Promise<string[]>;
}

export function describeCrashSafety(subject: CrashSubject): void {
  describe(`crash safety on ${subject.name}: kill -9 under load, restart, nothing acknowledged lost`, () => {
    let database: TestDatabase | undefined;
    let dir = '';
    const slot = new ServerSlot();

    afterAll(async () => {
      slot.close();
      await killAll();
      await database?.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 30_000);

    it(
      `${CYCLES} SIGKILL cycles: acknowledged actions present, invariants kept`,
      async () => {
        dir = await mkdtemp(join(tmpdir(), 'fulfil-crash-'));
        const db = await subject.makeDatabase();
        database = db;
        const seedFile = await writeSeed(dir, seed());
        const start = (extra: string[]) =>
          startServer(['--db', db.url, '--courier-interval', '0', ...extra], { built: true });

        slot.fill(await start(['--seed', seedFile]));
        const before = await db.open();
        const seeded = await readStoredState(before, 'default', NUMBERS).finally(() =>
          before.close(),
        );
        expect(seeded.violations).toEqual([]);
        const initialOnHand = new Map(
          seeded.stock.map((row) => [`${row.warehouse_code}/${row.sku}`, row.on_hand]),
        );

        const ledger = new Ledger();
        const load = startLoad({
          slot,
          ledger,
          orders: seeded.orders,
          skus: SKUS,
          drivers: DRIVERS,
        });
        const diedOnTheirOwn: string[] = [];
        let kills = 0;
        const killCurrent = async () => {
          const server = slot.empty() as ServerProcess;
          const ended = await Promise.race([server.exited.then(() => true), sleep(0, false)]);
          if (ended) diedOnTheirOwn.push(`pid ${server.pid}: ${server.stderr()}`);
          await server.stop('SIGKILL');
          kills += 1;
        };
        const startedAt = Date.now();
        const acknowledgements = () => ledger.actions.length + ledger.stockSyncs;
        const loadThisServer = async () => {
          const target = acknowledgements() + ACKS_PER_CYCLE;
          const deadline = Date.now() + 20_000;
          while (acknowledgements() < target) {
            if (Date.now() > deadline) throw new Error('the load got no acknowledgement for 20 s');
            await sleep(10);
          }
          await sleep(Math.random() * EXTRA_MS);
        };
        for (let cycle = 0; cycle < CYCLES; cycle++) {
          await loadThisServer();
          await killCurrent();
          slot.fill(await start([]));
        }
        // The last server answers what the last kill cut off; then the load ends, answered.
        await loadThisServer();
        const report = await load.stop();
        // Nothing is in flight now: this kill only ends the run, and is not counted.
        await (slot.empty() as ServerProcess).stop('SIGKILL');
        slot.close();
        const elapsed = Date.now() - startedAt;

        const after = await db.open();
        const stored = await readStoredState(after, 'default', NUMBERS).finally(() =>
          after.close(),
        );
        const integrity = subject.integrityProblems ? await subject.integrityProblems(db) : [];
        const lost = ledger.lost(stored.orders);
        const serverErrors = slot.history.flatMap((server) =>
          server
            .logLines()
            .filter((line) => line.level === 'error' || Number(line.status) >= 500)
            .map((line) => JSON.stringify(line)),
        );

        console.log(
          [
            `crash safety on ${subject.name}:`,
            `${kills} kill -9 cycles in ${(elapsed / 1000).toFixed(1)} s,`,
            `${ledger.actions.length + ledger.stockSyncs} acknowledged actions checked`,
            `(${ledger.actions.length} order actions over ${report.ordersDriven} orders,`,
            `${ledger.stockSyncs} stock syncs),`,
            `${report.cutOff} requests cut off by a kill and sent again;`,
            `lost ${lost.length}, invariant violations ${stored.violations.length},`,
            subject.integrityProblems
              ? `integrity problems ${integrity.length}`
              : 'integrity enforced by the database',
          ].join(' '),
        );

        expect(kills).toBe(CYCLES);
        const problems = {
          lost,
          unexpectedStatuses: ledger.unexpectedStatuses(stored.orders),
          onHandMismatches: ledger.onHandMismatches(initialOnHand, stored.stock),
          violations: stored.violations,
          integrity,
          refused: report.refused,
          serverErrors,
          diedOnTheirOwn,
        };
        const found = Object.entries(problems).filter(([, list]) => list.length > 0);
        // The whole list, which an assertion's diff would cut short: the reproduction starts here.
        if (found.length > 0) console.error(JSON.stringify(Object.fromEntries(found), null, 2));
        expect(found.map(([kind]) => kind)).toEqual([]);
        // The kills must have met work in progress, or the test proved nothing.
        expect(report.cutOff).toBeGreaterThan(0);
      },
      60_000 + CYCLES * 6_000,
    );
  });
}
