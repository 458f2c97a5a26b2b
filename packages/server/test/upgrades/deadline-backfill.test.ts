import { createEngine, ManualClock, unverified } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { DEADLINE_BACKFILL_REASON } from '@fulfil/storage-kysely';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { START, testSeed } from '../http/support.js';
import { rawConnection } from './raw-connection.js';
import { closedAfterEach, openSql, serveOver, storedOrder, upgradeKinds } from './support.js';

/**
 * Orders taken in before deadlines were kept have none. Opening the database gives each the one
 * intake would have given it at its creation: proven by taking orders in with this code (which
 * sets it), erasing it as the release before left it, and finding the same one after the
 * upgrade, with the queues' copy, one timeline entry per order, however many processes do it at
 * once, and nothing more the next time.
 */

const NO_DEADLINE = '9999-12-31 23:59:59';

/** A write as this code's processes make them (a bare connection's would be refused). */
async function write(url: string, ...statements: string[]): Promise<void> {
  const repository = await openSql(url, { skipMigrations: true });
  try {
    await repository.db.transaction().execute(async (trx) => {
      for (const statement of statements) await sql.raw(statement).execute(trx);
    });
  } finally {
    await repository.close();
  }
}

/** Every order and its queue entries as the release before 0030 left them: no deadline. */
const ERASE_DEADLINES = [
  `update fulfillment_orders set fulfill_by = '${NO_DEADLINE}'`,
  `update queue_entries set fulfill_by = '${NO_DEADLINE}'`,
];

describe.each(upgradeKinds())('the deadline backfill on $name', (kind) => {
  const track = closedAfterEach();

  it('gives each order without a deadline the one intake gives, once, in steps, two processes at once', async () => {
    const database = track(await kind.create());
    const repository = await openSql(database.url);
    const clock = new ManualClock(START);
    const engine = createEngine({ repository, clock });
    // WH-A keeps its own calendar (Rome, noon, three days, a holiday); WH-B the defaults.
    const seed = testSeed();
    seed.stores[0]?.warehouses?.splice(0, 1, {
      code: 'WH-A',
      name: 'Partner A',
      fulfilled_by: 'partner',
      priority: 10,
      processing_days: 3,
      cutoff: '12:00',
      timezone: 'Europe/Rome',
      holidays: ['2026-01-07'],
    });
    await engine.loadSeed(unverified(seed));
    const raw = track(await rawConnection(database.url));
    const numbers: string[] = [];
    for (let n = 0; n < 12; n++) {
      // Every 7 hours and a half: before and after cutoffs, weekdays and weekends.
      clock.advance(27_000_000);
      const number = String(910_000 + n);
      const outcomes = await engine.intakeBatch(
        'default',
        [
          unverified(
            fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }], {
              warehouse_code: n % 3 === 0 ? 'WH-B' : 'WH-A',
            }),
          ),
        ],
        'test',
      );
      expect(outcomes[0]?.outcome).toBe('created');
      numbers.push(`${number}-1`);
    }
    await engine.close();
    const deadlines = async () =>
      raw.query<{ number: string; fulfill_by: string; queued: string | null }>(
        `select o.fulfillment_order_number as number, o.fulfill_by,
           (select min(q.fulfill_by) from queue_entries q where q.order_id = o.id) as queued
         from fulfillment_orders o order by o.id`,
      );
    const given = await deadlines();
    // The seed's orders and these.
    expect(given.map((row) => row.number)).toEqual(expect.arrayContaining(numbers));
    expect(new Set(given.map((row) => row.fulfill_by)).size).toBeGreaterThan(3);
    const timelineBefore = await raw.query<{ n: number | string }>(
      'select count(*) as n from audit_events',
    );
    // As the release before left them: no deadline, in the order nor in its queue entries.
    await write(database.url, ...ERASE_DEADLINES);

    // Two processes at once, in steps of 5 orders each.
    const first = await openSql(database.url, { skipMigrations: true });
    const second = await openSql(database.url, { skipMigrations: true });
    const [one, two] = await Promise.all([
      first.upgradeListedOrders({ deadlineStep: 5 }),
      second.upgradeListedOrders({ deadlineStep: 5 }),
    ]);
    await first.close();
    await second.close();
    expect(one + two).toBe(given.length);

    const after = await deadlines();
    expect(after).toEqual(given);
    const entries = await raw.query<{ order_id: number; details: string; reason: string }>(
      `select order_id, details, reason from audit_events
        where action = 'change_fulfill_by' and actor = 'system' order by order_id`,
    );
    expect(entries).toHaveLength(given.length);
    expect(new Set(entries.map((entry) => Number(entry.order_id))).size).toBe(given.length);
    expect(entries.map((entry) => JSON.parse(entry.details))).toEqual(
      given.map((row) => ({ fulfill_by: row.fulfill_by, before: null })),
    );
    expect(entries.every((entry) => entry.reason === DEADLINE_BACKFILL_REASON)).toBe(true);
    const timelineAfter = await raw.query<{ n: number | string }>(
      'select count(*) as n from audit_events',
    );
    expect(Number(timelineAfter[0]?.n)).toBe(Number(timelineBefore[0]?.n) + given.length);

    // Opened again by a server: nothing more changes.
    const kept = await storedOrder(raw, numbers[1] as string);
    const server = track(await serveOver(database.url));
    expect(await storedOrder(raw, numbers[1] as string)).toEqual(kept);
    const detail = await server.engine.admin.order(
      { name: 'viewer', role: 'viewer', store_code: null, request_id: null },
      'default',
      numbers[1] as string,
    );
    expect(detail.deadline.fulfill_by).toBe(
      given.find((row) => row.number === numbers[1])?.fulfill_by,
    );
  });

  it('gives an order the server finds without one a deadline as it opens', async () => {
    const database = track(await kind.create());
    const before = await serveOver(database.url, { seed: true });
    const created = await before.engine.intakeBatch(
      'default',
      [unverified(fixtures.salesOrder('920001', [{ sku: 'SKU-1', qty: 1 }]))],
      'test',
    );
    expect(created[0]?.outcome).toBe('created');
    await before.close();
    const raw = track(await rawConnection(database.url));
    const byIntake = () => raw.query('select id, fulfill_by from fulfillment_orders order by id');
    const intake = await byIntake();
    await write(database.url, ...ERASE_DEADLINES);
    track(await serveOver(database.url));
    expect(await byIntake()).toEqual(intake);
  });
});
