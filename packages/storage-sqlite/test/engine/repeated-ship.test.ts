import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainError, type Harness, openHarness, salesOrder } from './harness.js';

const track = (track_number: string, title = 'BRT') => ({
  carrier_code: title.toLowerCase(),
  title,
  track_number,
});

/**
 * Issue 16, item 2 (docs/behaviour.md): shipping items again with other tracks contradicts what
 * was applied (400, naming the recorded tracks); an operator corrects a track instead.
 */
describe('docs/behaviour.md: a repeated ship, and correcting its tracks', () => {
  let h: Harness;
  let ids: number[];
  beforeEach(async () => {
    h = await openHarness();
    const [created] = await h.engine.intake(
      'default',
      salesOrder(
        '900',
        [
          { sku: 'SKU-1', qty: 1 },
          { sku: 'SKU-2', qty: 1 },
        ],
        { warehouse_code: 'WH-A' },
      ),
    );
    ids = created?.items.map((item) => item.id) ?? [];
    const items = ids.map((item_id) => ({ item_id, qty: 1 }));
    await h.engine.accept(h.partnerA, { order: { order_id: '900-1', items } });
    await h.engine.allocate(h.erp, { allocation: { order_id: '900-1', items } });
  });
  afterEach(() => h.engine.close());

  const ship = (items: number[], tracks: ReturnType<typeof track>[]) =>
    h.engine.ship(h.partnerA, {
      shipment: {
        order_id: '900-1',
        items: items.map((item_id) => ({ item_id, qty: 1 })),
        tracks,
      },
    });

  it('issue 16: ship item 1 with WRONG-1, then again with RIGHT-2 → conflicts_with_applied naming WRONG-1; nothing changes', async () => {
    const [one] = ids as [number];
    await ship([one], [track('WRONG-1')]);
    const before = await h.snapshot();
    const error = await domainError(ship([one], [track('RIGHT-2')]));
    expect(error.code).toBe('conflicts_with_applied');
    expect(error.numericCode).toBe(1008);
    expect(error.parameters).toEqual([{ fieldName: 'shipment.tracks', fieldValue: 'WRONG-1' }]);
    expect(error.message).toContain('operator');
    expect(await h.snapshot()).toEqual(before);

    // Together with an item still to ship: refused as well, and the other item is not shipped.
    const mixed = await domainError(ship(ids, [track('RIGHT-2')]));
    expect(mixed.code).toBe('conflicts_with_applied');
    // Without any track, where one was recorded: other tracks too.
    expect((await domainError(ship([one], []))).code).toBe('conflicts_with_applied');
    expect(await h.snapshot()).toEqual(before);
  });

  it('the identical repeat, tracks in any order, is a retry: the same answer, nothing written', async () => {
    const [one] = ids as [number];
    const first = await ship([one], [track('A-1'), track('B-2', 'GLS')]);
    const before = await h.snapshot();
    expect(await ship([one], [track('B-2', 'GLS'), track('A-1')])).toEqual(first);
    expect(await h.snapshot()).toEqual(before);
  });

  it('correctTracks replaces the tracks of one shipment in one audited step; repeating it writes nothing', async () => {
    const [one, two] = ids as [number, number];
    await ship([one], [track('WRONG-1')]);
    await ship([two], [track('OTHER-9')]);
    const { shipments } = await h.engine.getOrderHistory('default', '900-1');
    const [wrong, other] = shipments;
    if (!wrong || !other) throw new Error('two shipments expected');
    const correction = { shipment: wrong.id, tracks: [track('RIGHT-2')], reason: 'typo' };
    const order = await h.engine.getOrder('default', '900-1');

    // Two operators racing with the same correction: it is applied once.
    const answers = await Promise.all([
      h.engine.correctTracks('default', '900-1', correction, 'ada'),
      h.engine.correctTracks('default', '900-1', correction, 'bob'),
    ]);
    for (const answer of answers) expect(answer).toEqual({ ...wrong, tracks: [track('RIGHT-2')] });
    const history = await h.engine.getOrderHistory('default', '900-1');
    expect(history.shipments).toEqual([{ ...wrong, tracks: [track('RIGHT-2')] }, other]);
    const events = history.audit.filter((event) => event.action === 'correct_tracks');
    expect(events).toHaveLength(1);
    expect(events[0]?.details).toEqual({
      shipment: wrong.id,
      before: [track('WRONG-1')],
      after: [track('RIGHT-2')],
      reason: 'typo',
    });
    expect(['ada', 'bob']).toContain(events[0]?.actor);
    // The order as the API shows it is untouched but for updated_at: it changed, now.
    expect(await h.engine.getOrder('default', '900-1')).toEqual({
      ...order,
      updated_at: h.engine.now(),
    });

    const before = await h.snapshot();
    await h.engine.correctTracks('default', '900-1', correction);
    expect(await h.snapshot()).toEqual(before);
    // The partner's repeat with the corrected track is now a retry.
    await ship([one], [track('RIGHT-2')]);
    expect(await h.snapshot()).toEqual(before);
  });

  it('correctTracks refuses an unknown order or shipment and a bad correction, changing nothing', async () => {
    const [one] = ids as [number];
    await ship([one], [track('WRONG-1')]);
    const [shipment] = (await h.engine.getOrderHistory('default', '900-1')).shipments;
    const id = shipment?.id as number;
    const before = await h.snapshot();
    const refused = async (number: string, correction: unknown) =>
      domainError(h.engine.correctTracks('default', number, correction));

    expect((await refused('900-9', { shipment: id, tracks: [], reason: 'r' })).code).toBe(
      'not_found',
    );
    const unknown = await refused('900-1', { shipment: id + 1000, tracks: [], reason: 'r' });
    expect(unknown.code).toBe('invalid_request');
    expect(unknown.parameters).toEqual([{ fieldName: 'shipment', fieldValue: String(id + 1000) }]);
    for (const [correction, field] of [
      [{ shipment: id, tracks: [track('X')], reason: '' }, 'reason'],
      [{ shipment: id, tracks: [track('X')] }, 'reason'],
      [{ shipment: 0, tracks: [track('X')], reason: 'r' }, 'shipment'],
      [
        { shipment: id, tracks: [{ carrier_code: 'brt', title: 'BRT' }], reason: 'r' },
        'tracks[0].track_number',
      ],
      [{ shipment: id, tracks: [track('X'.repeat(129))], reason: 'r' }, 'tracks[0].track_number'],
    ] as const) {
      const error = await refused('900-1', correction);
      expect({ code: error.code, field: error.parameters[0]?.fieldName }).toEqual({
        code: 'invalid_request',
        field,
      });
    }
    expect(await h.snapshot()).toEqual(before);
  });
});
