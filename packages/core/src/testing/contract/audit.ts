import { describe, expect, it } from 'vitest';
import type { ContractHarness } from './harness.js';

/** The repository contract: audit. */
export function auditContract(h: ContractHarness): void {
  const { write, read, seedStore, insert } = h;

  describe('audit', () => {
    it('listAudit returns the order trail oldest first, details intact', async () => {
      const store = await seedStore();
      const a = await insert({ store_id: store.id });
      const b = await insert({ store_id: store.id });
      await write((tx) =>
        tx.appendAudit([
          {
            order_id: a.id,
            at: '2026-01-15 10:00:00',
            actor: 'partner-a',
            action: 'accept',
            details: { items: [1, 2] },
          },
          {
            order_id: b.id,
            at: '2026-01-15 10:00:00',
            actor: 'erp',
            action: 'allocate',
            details: {},
          },
        ]),
      );
      await write((tx) =>
        tx.appendAudit([
          // Same second as the first event: the order of appending decides.
          {
            order_id: a.id,
            at: '2026-01-15 10:00:00',
            actor: 'partner-a',
            action: 'ship',
            details: { tracks: [{ n: 'X' }], note: null },
          },
        ]),
      );
      const trail = await read((tx) => tx.listAudit(a.id));
      expect(trail.map((e) => e.action)).toEqual(['accept', 'ship']);
      expect(trail[0]).toEqual({
        id: expect.any(Number),
        order_id: a.id,
        at: '2026-01-15 10:00:00',
        actor: 'partner-a',
        action: 'accept',
        details: { items: [1, 2] },
        request_id: null,
        reason: null,
      });
      expect(trail[1]?.details).toEqual({ tracks: [{ n: 'X' }], note: null });
      expect(await read((tx) => tx.listAudit(b.id))).toHaveLength(1);
      expect(await read((tx) => tx.listAudit(b.id + 1000))).toEqual([]);
    });
  });
}
