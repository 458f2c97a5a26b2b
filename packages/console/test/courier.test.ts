import { createSimulatedCarrier, ManualClock } from '@fulfil/core';
import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  withConsole,
} from './browser.js';
import { allocate } from './scenarios.js';

/**
 * Courier failures as an operator meets them: the courier's refusal on the order while it still
 * retries, gone once the parcel shipped; the dashboard's count of a courier warehouse's failed
 * orders, a link to exactly those.
 */

const clock = new ManualClock(new Date());
let refusing = true;
const carrier = createSimulatedCarrier({ faults: () => (refusing ? 'refuse' : null) });

describe('courier failures', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole(undefined, { clock, couriers: { simulated: carrier.factory } });
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  test("the courier's refusal shows on the order while it retries, and not once it shipped", async () => {
    const number = '530000001-1';
    await allocate(running.server, number);
    expect((await running.server.engine.dispatchCourier()).retrying).toEqual([number]);
    tab = await openAt(running, `#/default/orders/${number}`);
    const { page } = tab;
    const refusal = page.getByRole('alert').filter({ hasText: /^The courier refused/ });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Next attempt /);

    refusing = false;
    clock.advance(60_000);
    expect((await running.server.engine.dispatchCourier()).shipped).toEqual([number]);
    await page.reload();
    await page
      .getByRole('heading', { level: 2, name: /Shipment/ })
      .first()
      .waitFor();
    expect(await refusal.count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  test("the dashboard's courier failures link to that warehouse's failed orders alone", async () => {
    for (const number of ['540000001-1', '600000001-1']) {
      await running.server.adminApi('POST', `stores/default/orders/${number}/fail`, {
        reason: 'the courier has no such street',
      });
    }
    tab = await openAt(running, '#/');
    const { page } = tab;
    const attention = page.getByRole('region', { name: /needs attention/i });
    await attention.getByRole('link', { name: /1 courier failure at WH-C/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Failed orders' }).waitFor();
    await page.getByRole('button', { name: 'Remove filter Warehouse: WH-C' }).waitFor();
    await page.getByRole('link', { name: '540000001-1' }).waitFor();
    expect(await page.getByRole('link', { name: '600000001-1' }).count()).toBe(0);
    expect(await page.getByRole('status').first().textContent()).toMatch(/^1 failed order/);
  });
});
