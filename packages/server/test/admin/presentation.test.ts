import { describe, expect, test } from 'vitest';
import { adminCall, adminServerPerTest } from './support.js';

/**
 * What the console reads to present a store (docs/admin-api.md, docs/console.md): the actions an
 * order offers, a dry run that counts what the action will act on.
 */

const serve = adminServerPerTest();

describe('the order detail', () => {
  test('names the interventions that apply to the order as it stands', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    const actions = async (number: string) =>
      (await adminCall(server, 'GET', `/stores/default/orders/${number}`, { secret })).body.actions;
    const act = (number: string, action: string, json: unknown = {}) =>
      adminCall(server, 'POST', `/stores/default/orders/${number}/${action}`, { secret, json });

    expect(await actions('100001002-1')).toEqual(['fail', 'cancel', 'allow_partial', 'move_lines']);
    await act('100001002-1', 'fail', { reason: 'no such street' });
    expect(await actions('100001002-1')).toEqual([
      'requeue',
      'abandon',
      'cancel',
      'allow_partial',
      'move_lines',
    ]);
    await act('100001002-1', 'abandon');
    expect(await actions('100001002-1')).toEqual(['cancel', 'allow_partial', 'move_lines']);
    await act('100001002-1', 'cancel');
    expect(await actions('100001002-1')).toEqual([]);
  });
});

describe('bulk', () => {
  test('a dry run counts the orders the action will act on, of those the filter selects', async () => {
    const server = await serve();
    const secret = server.secrets.operator;
    for (const number of ['100001001-1', '100001002-1', '100001003-1']) {
      await adminCall(server, 'POST', `/stores/default/orders/${number}/fail`, {
        secret,
        json: { reason: 'flood' },
      });
    }
    await adminCall(server, 'POST', '/stores/default/orders/100001003-1/abandon', {
      secret,
      json: {},
    });
    const dryRun = async (action: string) =>
      (
        await adminCall(server, 'POST', `/stores/default/bulk/${action}`, {
          secret,
          json: { filter: { status: 'failed' }, dry_run: true },
        })
      ).body;
    // The abandoned order stays failed: requeueing or abandoning it again would skip it.
    expect(await dryRun('requeue')).toEqual({ count: 2, selected: 3 });
    expect(await dryRun('abandon')).toEqual({ count: 2, selected: 3 });
    expect(await dryRun('cancel')).toEqual({ count: 3, selected: 3 });
    const run = await adminCall(server, 'POST', '/stores/default/bulk/requeue', {
      secret,
      json: { filter: { status: 'failed' }, dry_run: false },
    });
    const outcomes = run.body.results.map((result: { outcome: string }) => result.outcome);
    expect(outcomes.filter((outcome: string) => outcome === 'done')).toHaveLength(2);
  });
});
