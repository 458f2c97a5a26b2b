import { createEngine, type Engine, type Repository } from '@fulfil/core';
import { fixtures, readStoredState } from '@fulfil/core/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/index.js';
import { type SharedPlace, sharedPlaces } from '../databases/shared-place.js';

/**
 * Channels retrying the same sales orders at once, over HTTP, against two servers on one
 * database (two connections: a SQLite file's writers take turns, Postgres' race for real): some
 * send a sales order twice, some give up on a request before its answer and send it again,
 * some send other content under a number. Whatever the interleaving, each number is taken in
 * exactly once, every intake acknowledged (201 or 200) is what is stored, and nothing is
 * half-written.
 */

const CHANNEL = fixtures.SEED_TOKENS.channel;

/** One request a channel sends until it is answered: which order, which content, how patient. */
interface Attempt {
  order: number;
  variant: 'a' | 'b';
  /** Gives up on an answer after this many ms (then sends it again); null: waits. */
  patienceMs: number | null;
  server: number;
}

const attempt = fc.record({
  order: fc.integer({ min: 0, max: 3 }),
  variant: fc.constantFrom<'a' | 'b'>('a', 'a', 'a', 'b'),
  patienceMs: fc.option(fc.integer({ min: 1, max: 25 }), { nil: null }),
  server: fc.integer({ min: 0, max: 1 }),
});
const plan = fc.array(fc.array(attempt, { minLength: 1, maxLength: 5 }), {
  minLength: 2,
  maxLength: 5,
});

for (const { name, make } of sharedPlaces('ch')) {
  describe(`concurrent retrying channels (${name})`, () => {
    let place: SharedPlace;
    const engines: Engine[] = [];
    const repositories: Repository[] = [];
    const servers: { url: string; close(): Promise<void> }[] = [];
    let run = 0;

    beforeAll(async () => {
      place = await make();
      for (let index = 0; index < 2; index++) {
        const repository = await place.open();
        repositories.push(repository);
        const engine = createEngine({ repository });
        if (index === 0) await engine.loadSeed(fixtures.seed());
        engines.push(engine);
        servers.push(await startHttpServer({ engine, port: 0, log: () => {} }));
      }
    });

    afterAll(async () => {
      for (const server of servers) await server.close();
      for (const engine of engines) await engine.close();
      await place?.cleanup();
    });

    it('each number taken in once; every acknowledged intake is what is stored; nothing half-written', async () => {
      await fc.assert(
        fc.asyncProperty(plan, async (channels) => {
          run += 1;
          const numberOf = (order: number) => `${run}0${order}`;
          const body = (order: number, variant: 'a' | 'b') => ({
            sales_order: fixtures.salesOrder(numberOf(order), [{ sku: 'SKU-1', qty: 1 }], {
              customer_email: `${variant}@example.com`,
            }),
          });
          /** Per number, the variants acknowledged with 201 or 200, and how many 201s. */
          const acknowledged = new Map<string, Set<string>>();
          const created = new Map<string, number>();

          async function send(step: Attempt): Promise<void> {
            for (let tries = 0; tries < 20; tries++) {
              const patient = step.patienceMs === null || tries >= 3;
              try {
                const response = await fetch(
                  `${servers[step.server]?.url}/rest/default/V1/salesOrders`,
                  {
                    method: 'POST',
                    headers: {
                      authorization: `Bearer ${CHANNEL}`,
                      'content-type': 'application/json',
                    },
                    body: JSON.stringify(body(step.order, step.variant)),
                    ...(patient ? {} : { signal: AbortSignal.timeout(step.patienceMs as number) }),
                  },
                );
                const answer = (await response.json()) as { customer_email?: string };
                const number = numberOf(step.order);
                if (response.status === 201 || response.status === 200) {
                  const seen = acknowledged.get(number) ?? new Set();
                  seen.add(step.variant);
                  acknowledged.set(number, seen);
                  if (response.status === 201) created.set(number, (created.get(number) ?? 0) + 1);
                  return;
                }
                expect(response.status, JSON.stringify(answer)).toBe(409);
                return;
              } catch (error) {
                // Gave up waiting (the intake may have committed all the same): send it again.
                if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
              }
            }
            throw new Error('an intake was never answered');
          }

          await Promise.all(
            channels.map(async (steps) => {
              for (const step of steps) await send(step);
            }),
          );

          const engine = engines[0] as Engine;
          const operator = engine.operator('default');
          const numbers = [0, 1, 2, 3].map(numberOf);
          const views = new Map<string, { fulfillment_orders: { customer_email: string }[] }>();
          for (const number of numbers) {
            const view = await engine.getSalesOrder(operator, number).catch(() => undefined);
            if (view) views.set(number, view);
          }
          for (const [number, variants] of acknowledged) {
            // Never two contents acknowledged under one number, and the one acknowledged is stored.
            expect(variants.size).toBe(1);
            const view = views.get(number);
            expect(view?.fulfillment_orders).toHaveLength(1);
            expect(view?.fulfillment_orders[0]?.customer_email).toBe(
              `${[...variants][0]}@example.com`,
            );
          }
          // A number is created at most once, however many channels raced for it.
          for (const count of created.values()) expect(count).toBe(1);
          // Taken in whole or not at all: each one stored is one fulfillment order with its line,
          // listed once in the feed, its stock reserved consistently with every other order.
          const feed = (await engine.pollSalesOrders(operator, { after: 0 })).documents.map(
            (text) => JSON.parse(text).sales_order_number as string,
          );
          const mine = feed.filter((number) => numbers.includes(number));
          expect(mine.sort()).toEqual([...views.keys()].sort());
          const all = (await engine.pollSalesOrders(operator, { after: 0 })).documents.flatMap(
            (text) =>
              (JSON.parse(text).fulfillment_orders as { fulfillment_order_number: string }[]).map(
                (fo) => fo.fulfillment_order_number,
              ),
          );
          const state = await readStoredState(repositories[0] as Repository, 'default', all);
          expect(state.violations).toEqual([]);
        }),
        { numRuns: 8 },
      );
    }, 240_000);
  });
}
