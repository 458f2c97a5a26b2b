import { join } from 'node:path';
import { createEngine, type Shipment } from '@fulfil/core';
import { describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import { runCli, smallSeed, tempDatabasePerTest, writeJson } from './run-cli.js';

/**
 * `fulfil orders correct-tracks` (docs/behaviour.md): shipping again with other tracks is
 * refused, so a track sent wrong is corrected by an operator, on the order's audit trail.
 */
describe('fulfil orders correct-tracks', () => {
  const temp = tempDatabasePerTest();
  const cli = (argv: string[]) => runCli([...argv, '--db', temp.db]);

  /** 100000001-1 accepted, allocated and shipped with track WRONG-1; its shipment's id. */
  async function shippedWrong(): Promise<number> {
    await cli(['seed', await writeJson(join(temp.dir, 'seed.json'), smallSeed())]);
    const engine = createEngine({ repository: await openRepository(temp.db) });
    try {
      const operator = engine.operator('default');
      const order_id = '100000001-1';
      const items = (await engine.getOrder('default', order_id)).items.map((item) => ({
        item_id: item.id,
        qty: item.qty,
      }));
      await engine.accept(operator, { order: { order_id, items } });
      await engine.allocate(operator, { allocation: { order_id, items } });
      await engine.ship(operator, {
        shipment: { order_id, items, carrier_title: 'BRT', carrier_tracking_number: 'WRONG-1' },
      });
      const { shipments } = await engine.getOrderHistory('default', order_id);
      return (shipments[0] as Shipment).id;
    } finally {
      await engine.close();
    }
  }

  it('replaces the tracks, records before, after, reason and actor once, and repeats as a no-op', async () => {
    const shipment = await shippedWrong();
    const argv = [
      'orders',
      'correct-tracks',
      '100000001-1',
      '--shipment',
      String(shipment),
      '--tracks',
      'RIGHT-2',
      '--reason',
      'the partner sent a typo',
      '--actor',
      'ada',
    ];
    const right = { carrier_code: 'BRT', title: 'BRT', track_number: 'RIGHT-2' };
    for (let attempt = 0; attempt < 2; attempt++) {
      const run = await cli(argv);
      expect(run.stderr.text).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.json()).toMatchObject({ id: shipment, tracks: [right] });
    }
    const history = (await cli(['orders', 'show', '100000001-1'])).stdout.json<{
      shipments: Shipment[];
      audit: { action: string; actor: string; details: Record<string, unknown> }[];
    }>();
    expect(history.shipments.map((recorded) => recorded.tracks)).toEqual([[right]]);
    const corrections = history.audit.filter((event) => event.action === 'correct_tracks');
    expect(corrections).toEqual([
      expect.objectContaining({
        actor: 'ada',
        details: {
          shipment,
          before: [{ carrier_code: 'BRT', title: 'BRT', track_number: 'WRONG-1' }],
          after: [right],
          reason: 'the partner sent a typo',
        },
      }),
    ]);

    // The partner's repeat with the corrected track is now a plain retry.
    const engine = createEngine({ repository: await openRepository(temp.db) });
    try {
      const items = (await engine.getOrder('default', '100000001-1')).items.map((item) => ({
        item_id: item.id,
        qty: item.qty,
      }));
      const again = await engine.ship(engine.operator('default'), {
        shipment: {
          order_id: '100000001-1',
          items,
          carrier_title: 'BRT',
          carrier_tracking_number: 'RIGHT-2',
        },
      });
      expect(again.status).toBe('pending_invoice');
    } finally {
      await engine.close();
    }
  });

  it('refuses what it cannot do: usage errors exit 2, an unknown shipment exits 1 naming it', async () => {
    const shipment = await shippedWrong();
    const base = ['orders', 'correct-tracks', '100000001-1'];
    for (const missing of [
      ['--tracks', 'X', '--reason', 'r'],
      ['--shipment', String(shipment), '--reason', 'r'],
      ['--shipment', String(shipment), '--tracks', 'X'],
      ['--shipment', 'one', '--tracks', 'X', '--reason', 'r'],
    ]) {
      expect((await cli([...base, ...missing])).code).toBe(2);
    }
    const unknown = await cli([
      ...base,
      '--shipment',
      String(shipment + 1000),
      '--tracks',
      'X',
      '--reason',
      'r',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.text).toContain(String(shipment + 1000));
    expect(unknown.stderr.text).toContain('shipment');
    const history = (await cli(['orders', 'show', '100000001-1'])).stdout.json<{
      shipments: Shipment[];
    }>();
    expect(history.shipments[0]?.tracks.map((track) => track.track_number)).toEqual(['WRONG-1']);
  });
});
