import { createEngine, ManualClock, toMoney } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { exportStore, importStore, type KyselyRepository } from '@fulfil/storage-kysely';
import { describe, expect, it } from 'vitest';
import { databaseKinds, droppedAfterEach } from '../databases/open.js';

/**
 * A store dump an older release wrote holds its orders as that release left them. Imported, they
 * are brought to this release's rules as opening an older database brings them (the upgrades of
 * migrations 0010 and 0022): here, totals that still counted a canceled line follow the live
 * lines, with the `live_totals` entry on the order's timeline.
 */

const open = droppedAfterEach();

/** The dump's lines, the order's totals set back to what a release before 0010 left. */
async function olderDump(repository: KyselyRepository, counted: number): Promise<string[]> {
  const lines: string[] = [];
  let text = '';
  for await (const chunk of exportStore(repository, 'default'))
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  for (const line of text.split('\n').filter(Boolean)) {
    const record = JSON.parse(line);
    if (record.table === 'fulfillment_orders') {
      // Amounts are stored in ten-thousandths: the canceled line's 10 still in every total.
      for (const total of ['grand_total', 'package_value']) {
        record.row[total] = Number(record.row[total]) + counted;
      }
    }
    lines.push(JSON.stringify(record));
  }
  return lines;
}

for (const kind of databaseKinds()) {
  describe(`importing a dump of an older release on ${kind.name}`, () => {
    it('brings totals that counted a canceled line to the live lines', async () => {
      const source = await open(kind);
      const engine = source.engine;
      await engine.loadSeed(
        fixtures.seed({
          orders: [
            fixtures.salesOrder('900', [
              { sku: 'SKU-1', qty: 1 },
              { sku: 'SKU-2', qty: 1 },
            ]),
          ],
        }),
      );
      const [, second] = (await engine.getOrder('default', '900-1')).items;
      await engine.cancelSalesOrder(engine.operator('default'), {
        cancellation: {
          sales_order_number: '900',
          reason: 'customer',
          items: [{ fulfillment_order_number: '900-1', item_id: second?.id as number }],
        },
      });
      const now = await engine.getOrder('default', '900-1');
      const lines = await olderDump(source.repository as KyselyRepository, toMoney(10));

      const target = await open(kind);
      async function* records() {
        let line = 0;
        for (const value of lines) yield { line: ++line, value: JSON.parse(value) };
      }
      await importStore(target.repository as KyselyRepository, 'default', records());
      const moved = createEngine({
        repository: target.repository,
        clock: new ManualClock('2026-05-01T10:00:00Z'),
      });
      const imported = await moved.getOrder('default', '900-1');
      expect(imported.grand_total).toBe(now.grand_total);
      expect(imported.package_value).toBe(now.package_value);
      const history = await moved.getOrderHistory('default', '900-1');
      expect(history.audit.map((event) => event.action)).toContain('live_totals');
    });
  });
}
