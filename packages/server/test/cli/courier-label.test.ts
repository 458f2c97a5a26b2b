import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CourierFactory, createEngine, simulatedCourier } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import { runCli, tempDatabasePerTest } from './run-cli.js';

/** docs/couriers.md: `fulfil courier label` prints a summary, writes documents, or prints JSON. */

/** A PDF as a carrier hands it over: bytes no text encoding keeps intact. */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0x00, 0xff]),
]);

/** The simulated courier, issuing PDF labels (base64, as the courier port holds binary documents). */
const pdfCourier: CourierFactory = (settings, account) => {
  const simulated = simulatedCourier(settings, account);
  return {
    ...simulated,
    async createShipment(request, options) {
      const created = await simulated.createShipment(request, options);
      if (created.kind !== 'ok') return created;
      return {
        ...created,
        label: { ...created.label, document: PDF.toString('base64'), document_format: 'pdf' },
      };
    },
  };
};

describe('fulfil courier label', () => {
  const temp = tempDatabasePerTest();
  const cli = (argv: string[]) => runCli([...argv, '--db', temp.db], { cwd: temp.dir });

  /** Order 700-1 of two lines at a courier warehouse, shipped: two labels, PDF or ZPL. */
  async function shippedOrder(format: 'pdf' | 'zpl') {
    const engine = createEngine({
      repository: await openRepository(temp.db),
      couriers: { pdf: pdfCourier },
      carrierAccounts: { pdf: { type: 'pdf' } },
    });
    try {
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            settings: { courier: format === 'pdf' ? { account: 'pdf' } : {} },
            warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
            stock: [1, 2].map((n) => ({ warehouse_code: 'HQ', sku: `SKU-${n}`, qty: 5 })),
            orders: [
              fixtures.salesOrder(
                '700',
                [
                  { sku: 'SKU-1', qty: 1 },
                  { sku: 'SKU-2', qty: 1 },
                ],
                { warehouse_code: 'HQ' },
              ),
            ],
          },
        ],
      });
      const order = await engine.getOrder('default', '700-1');
      await engine.allocate(engine.operator('default'), {
        allocation: { order_id: '700-1', items: order.items.map((item) => ({ item_id: item.id })) },
      });
      expect((await engine.dispatchCourier()).shipped).toEqual(['700-1']);
      return await engine.reprintLabel('default', '700-1');
    } finally {
      await engine.close();
    }
  }

  it('prints one readable line per label, never the documents', async () => {
    const labels = await shippedOrder('pdf');
    const run = await cli(['courier', 'label', '700-1']);
    expect(run.code).toBe(0);
    expect(run.stdout.text).not.toContain(labels[0]?.document);
    const lines = run.stdout.text.trimEnd().split('\n');
    expect(lines[0]).toBe('Order 700-1: 2 live labels');
    expect(lines[1]).toMatch(
      new RegExp(
        `^  700-1/shipment-1/1  live  parcel 1/2  ${labels[0]?.tracking_number}  pdf, 15 bytes$`,
      ),
    );
    expect(lines[3]).toBe(
      'Write the documents with --out <file|dir>; --json prints the labels as JSON.',
    );
  });

  it('--out <dir> writes each document as the carrier gave it, decoded, and says where', async () => {
    await shippedOrder('pdf');
    const run = await cli(['courier', 'label', '700-1', '--out', 'labels/']);
    expect(run.code).toBe(0);
    const files = (await readdir(join(temp.dir, 'labels'))).sort();
    expect(files).toEqual(['700-1_shipment-1_1.pdf', '700-1_shipment-1_2.pdf']);
    for (const file of files) expect(await readFile(join(temp.dir, 'labels', file))).toEqual(PDF);
    expect(run.stdout.text).toBe(
      `700-1/shipment-1/1: pdf, 15 bytes → ${join(temp.dir, 'labels', files[0] as string)}\n` +
        `700-1/shipment-1/2: pdf, 15 bytes → ${join(temp.dir, 'labels', files[1] as string)}\n`,
    );
  });

  it('--out <file> writes the one document there; two documents need a directory', async () => {
    const [label] = await shippedOrder('zpl');
    const refused = await cli(['courier', 'label', '700-1', '--out', 'label.zpl']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.text).toMatch(/2 labels have documents: give --out a directory/);
    // An existing directory takes them without a trailing separator.
    await cli(['courier', 'label', '700-1', '--out', '.']);
    const zpl = await readFile(join(temp.dir, '700-1_shipment-1_1.zpl'), 'utf8');
    expect(zpl).toBe(label?.document);
    expect(zpl).toMatch(/^\^XA/);
    // With the other label voided, one document is left: it goes to the file named.
    const repository = await openRepository(temp.db);
    await repository.transaction(async (tx) => {
      const store = await tx.findStore('default');
      const order = store && (await tx.findOrder(store.id, '700-1'));
      const [, second] = order ? await tx.listLabels(order.id) : [];
      if (second) await tx.saveLabels([{ ...second, status: 'voided' }]);
    });
    await repository.close();
    const one = await cli(['courier', 'label', '700-1', '--out', 'label.zpl']);
    expect(one.code).toBe(0);
    expect(await readFile(join(temp.dir, 'label.zpl'), 'utf8')).toBe(label?.document);
  });

  it('--json prints the labels as before, documents included; --out takes neither --all nor --json', async () => {
    const labels = await shippedOrder('pdf');
    const json = await cli(['courier', 'label', '700-1', '--json']);
    expect(json.stdout.json()).toEqual(labels);
    for (const flag of ['--all', '--json']) {
      const run = await cli(['courier', 'label', '700-1', '--out', 'x/', flag]);
      expect(run.code).toBe(2);
      expect(run.stderr.text).toContain('--out writes the live labels');
    }
    const none = await cli(['courier', 'label', '999-1']);
    expect(none.code).toBe(1);
  });
});
