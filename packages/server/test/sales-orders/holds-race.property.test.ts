import { fixtures, skipUnless } from '@fulfil/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCount } from '../couriers/at-most-one-label.js';
import { expectCleanStop, useServerPair } from '../scale-out/server-pair.js';
import {
  postgresDatabase,
  type ServerProcess,
  sqliteDatabase,
  type TestDatabase,
} from '../scale-out/support.js';
import { expectRaceKeptTheRules } from './holds-race-checks.js';
import {
  ACTION_OF,
  CHANNEL,
  EVERY_OUTCOME,
  isRaceRequest,
  ORDERS,
  OUTCOMES,
  type Placed,
  plan,
  raceRequestId,
  raceSeed,
  requestOf,
  SKUS,
  type Step,
} from './holds-race-plan.js';

/**
 * Channels, a partner and an ERP racing over the same sales orders, over HTTP, against two
 * `fulfil serve` processes on one database (a SQLite file: their writers queue on its lock;
 * Postgres: they race for real): ship, accept and reject cancellation, hold, release, cancel,
 * accept and allocate in random interleavings (holds-race-plan.ts). Whatever the interleaving no
 * request is a 5xx, and the database keeps the rules of holds-race-checks.ts: for every line
 * exactly one of shipped or canceled, stock on hand what was received less what shipped, and
 * every step that did something its one timeline entry.
 */

/**
 * Runs of the property, each on a fresh set of orders, the servers up for all of them: 20 in CI
 * (the written plan and 19 random ones: 60 orders), ten times more with `FULFIL_LONG=1`.
 */
const RUNS = runCount(20);
/**
 * A bound on them, shrinking included (a failure shrinks through the servers too), well above
 * the under-a-second a run takes, so that a failure is reported rather than timed out.
 */
const TIME_LIMIT_MS = RUNS * 5_000;

interface Answer {
  status: number;
  text: string;
}

/** POSTs `body` to a server's REST surface under `requestId`. */
async function post(
  server: ServerProcess,
  token: string,
  path: string,
  body: unknown,
  requestId: string,
): Promise<Answer> {
  const response = await fetch(`${server.url}/rest/default${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-request-id': requestId,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(status);
}

function describeHoldsRace(title: string, makeDatabase: () => Promise<TestDatabase>): void {
  describe(title, () => {
    // No courier warehouse, so no courier loop.
    const pair = useServerPair(makeDatabase, raceSeed, ['--courier-interval', '0']);
    /** Every fulfillment order of the store, over all runs: what stock is summed over. */
    const every: string[] = [];
    let run = 0;
    /** What the runs came to, over all of them: the outcomes a race must have reached. */
    const reached = new Set<string>();
    const server = (index: number) => pair.servers[index % pair.servers.length] as ServerProcess;

    /** Takes the run's orders in through the servers and brings each to its stage. */
    async function placeOrders(stages: readonly number[]): Promise<Placed[]> {
      const placed: Placed[] = [];
      for (let order = 0; order < ORDERS; order++) {
        const salesOrder = `${run}0${order}`;
        const through = server(order);
        const setup = (what: string) => `setup-${run}-${order}-${what}`;
        const taken = await post(
          through,
          CHANNEL,
          '/V1/salesOrders',
          {
            sales_order: fixtures.salesOrder(
              salesOrder,
              SKUS.map((sku) => ({ sku, qty: 1 })),
            ),
          },
          setup('intake'),
        );
        expectStatus(taken, 201, 'intake');
        const [created] = (
          JSON.parse(taken.text) as {
            fulfillment_orders: { fulfillment_order_number: string; items: { id: number }[] }[];
          }
        ).fulfillment_orders;
        if (!created) throw new Error(`intake of ${salesOrder} answered no fulfillment order`);
        const target: Placed = {
          salesOrder,
          number: created.fulfillment_order_number,
          lines: created.items.map((item) => item.id),
        };
        placed.push(target);
        every.push(target.number);
        // Before the race, each under a request id that is not the race's.
        const stage = stages[order] ?? 0;
        if (stage >= 1) {
          const [token, path, body] = requestOf('accept', target, 0);
          expectStatus(await post(through, token, path, body, setup('accept')), 200, 'accept');
        }
        if (stage >= 2) {
          const [token, path, body] = requestOf('allocate', target, 0);
          expectStatus(await post(through, token, path, body, setup('allocate')), 200, 'allocate');
        }
      }
      return placed;
    }

    it(
      'no line both shipped and canceled; stock = received - shipped; one timeline entry per applied step',
      async () => {
        await fc.assert(
          fc.asyncProperty(plan, async ({ stages, actors }) => {
            run += 1;
            const placed = await placeOrders(stages);
            /** Request id → the timeline action it may have written, for the 200s. */
            const answered = new Map<string, string>();
            let sent = 0;
            async function send(step: Step): Promise<void> {
              const [token, path, body] = requestOf(
                step.op,
                placed[step.order] as Placed,
                step.handle,
              );
              sent += 1;
              const id = raceRequestId(run, sent);
              const answer = await post(server(step.server), token, path, body, id);
              // A refusal is a 4xx naming why; never a 5xx, whatever raced with it.
              expect(answer.status, `${step.op} ${answer.text}`).toBeLessThan(500);
              if (answer.status === 200) answered.set(id, ACTION_OF[step.op]);
            }
            await Promise.all(
              actors.map(async (steps) => {
                for (const step of steps) await send(step);
              }),
            );
            await expectRaceKeptTheRules(
              pair.repository,
              pair.engine,
              { placed, answered, every },
              reached,
            );
          }),
          {
            numRuns: RUNS,
            examples: [[EVERY_OUTCOME]],
            interruptAfterTimeLimit: TIME_LIMIT_MS,
            markInterruptAsFailure: true,
          },
        );
        // The races did reach every outcome, not only refusals.
        expect([...reached].sort()).toEqual(OUTCOMES);
      },
      TIME_LIMIT_MS + 60_000,
    );

    it('both processes served the races, neither logged an error, and both stop on SIGTERM with exit 0', async () => {
      for (const process of pair.servers) {
        const served = process
          .logLines()
          .filter((line) => line.msg === 'request' && isRaceRequest(line.request_id as string));
        expect(served.length, `race steps served by process ${process.pid}`).toBeGreaterThan(0);
      }
      await expectCleanStop(pair.servers);
    }, 30_000);
  });
}

describeHoldsRace('holds and cancellations racing: two server processes on one SQLite file', () =>
  sqliteDatabase(),
);

const url = process.env.FULFIL_TEST_POSTGRES_URL;
if (url) {
  describeHoldsRace('holds and cancellations racing: two server processes on Postgres', async () =>
    postgresDatabase(url),
  );
} else {
  describe('holds and cancellations racing: two server processes on Postgres', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
