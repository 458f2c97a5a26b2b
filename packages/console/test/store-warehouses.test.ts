import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  withConsole,
} from './browser.js';

/**
 * A PUT replaces a warehouse (docs/admin-api.md): the store page's Activate/Deactivate sends back
 * every field it read, so switching a warehouse off keeps its priority, its kind and what
 * routing reads of it.
 */

interface WarehouseView {
  code: string;
  active: boolean;
  priority: number;
  fulfilled_by: string;
  latitude: number | null;
  countries: string[] | null;
  safety_stock: number;
}

describe('the store page warehouses', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  const warehouseB = async () =>
    (
      await running.server.adminApi<{ warehouses: WarehouseView[] }>(
        'GET',
        'stores/default/warehouses',
      )
    ).warehouses.find((warehouse) => warehouse.code === 'WH-B') as WarehouseView;

  test('deactivating a warehouse changes only whether it is active', async () => {
    await running.server.adminApi('PUT', 'stores/default/warehouses/WH-B', {
      name: 'Partner B',
      fulfilled_by: 'partner',
      priority: 5,
      latitude: 45.4642,
      longitude: 9.19,
      countries: ['IT'],
      daily_capacity: 300,
    });
    const before = await warehouseB();
    tab = await openAt(running, '#/default/settings');
    await tab.page.getByRole('button', { name: 'Deactivate WH-B' }).click();
    await expect.poll(async () => (await warehouseB()).active).toBe(false);
    expect(await warehouseB()).toEqual({ ...before, active: false });
  });

  test("setting a warehouse's default safety stock changes only that", async () => {
    const before = await warehouseB();
    tab = await openAt(running, '#/default/settings');
    await tab.page.getByLabel('Default safety stock of WH-B', { exact: true }).fill('4');
    await tab.page.getByRole('button', { name: 'Set default safety stock of WH-B' }).click();
    await expect.poll(async () => (await warehouseB()).safety_stock).toBe(4);
    expect(await warehouseB()).toEqual({ ...before, safety_stock: 4 });
  });
});
