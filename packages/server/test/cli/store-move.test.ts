import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createEngine, ManualClock } from '@fulfil/core';
import { skipUnless } from '@fulfil/core/testing';
import type { KyselyRepository } from '@fulfil/storage-kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import { startHttpServer } from '../../src/index.js';
import {
  advance,
  call,
  findInQueue,
  salesOrder as orderOf,
  START,
  TOKENS,
  testSeed,
} from '../http/support.js';
import { runCli, salesOrder, tempDir } from './run-cli.js';

const QUEUES = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'failed',
];
const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;

/** Everything an integrator or operator can read of store `default`, as the server answers it. */
async function observe(db: string): Promise<string[]> {
  const engine = createEngine({
    repository: await openRepository(db),
    clock: new ManualClock(START),
  });
  const server = await startHttpServer({ engine, log: () => {} });
  const seen: string[] = [];
  try {
    for (const token of Object.values(TOKENS)) {
      for (const queue of QUEUES) {
        for (const accept of ['application/json', 'application/xml']) {
          for (let page = 1; page <= 20; page++) {
            const reply = await call(server, 'GET', `/V1/fulfillmentOrders/${queue}?page=${page}`, {
              token,
              headers: { accept },
            });
            seen.push(`${token} ${queue} ${accept} ${page} ${reply.status} ${reply.text}`);
            const lastPage =
              reply.status !== 200 ||
              reply.text === '[]' ||
              (accept === 'application/xml' && !reply.text.includes('<fulfillment_order_number>'));
            if (lastPage) break;
          }
        }
      }
    }
    for (const number of [
      '100001001-1',
      '100001002-1',
      '100001003-1',
      '000123-1',
      '100001004-1',
      '100001005-1',
      '100001006-1',
      '100001007-1',
      '100001007-2',
      '100001008-1',
    ]) {
      const history = await engine.getOrderHistory('default', number).catch(String);
      seen.push(JSON.stringify(history));
    }
    seen.push(JSON.stringify(await engine.listStock('default')));
    seen.push(JSON.stringify(await engine.listTokens('default')));
    for (const token of Object.values(TOKENS)) {
      const actor = await engine.authenticate('default', token).catch(String);
      seen.push(`${token} ${JSON.stringify(actor)}`);
    }
  } finally {
    await server.close();
    await engine.close();
  }
  return seen;
}

describe('fulfil export / import: moving a store', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
  });
  afterEach(() => remove());

  /**
   * A SQLite store with orders in every state: invoiced, waiting, failed, canceled, courier,
   * partly shipped and invoiced, rerouted (with the child order the rejected line went to), and
   * allocated from another warehouse (a transfer).
   */
  async function sourceStore(): Promise<string> {
    const db = `sqlite:${join(dir, 'source.db')}`;
    const engine = createEngine({
      repository: await openRepository(db),
      clock: new ManualClock(START),
    });
    const seed = testSeed();
    const store = seed.stores[0] as NonNullable<(typeof seed.stores)[0]>;
    store.settings = { ...store.settings, partial_items: true, reroute: true };
    store.orders?.push(
      {
        ...(store.orders[0] as object),
        sales_order_id: 1004,
        sales_order_number: '100001004',
        warehouse_code: 'COURIER',
        items: [{ ...(store.orders[0] as { items: object[] }).items[0], sku: 'SKU-3' }],
      } as never,
      {
        ...orderOf(1006, '100001006', 'WH-A', [
          ['SKU-1', 2],
          ['SKU-2', 1],
        ]),
        // Text that every encoding of many rows must carry exactly, on either database.
        customer_firstname: `O'Brien "the \\ one" {a,b} NULL`,
        customer_lastname: 'Łódź 東京 🚚\ttab',
      },
      orderOf(1007, '100001007', 'WH-A', [
        ['SKU-1', 1],
        ['SKU-2', 1],
      ]),
      orderOf(1008, '100001008', 'WH-A', [['SKU-1', 1]]),
    );
    await engine.loadSeed(seed);
    await engine.revokeToken('default', 'revoked');
    const server = await startHttpServer({ engine, log: () => {} });
    const act = async (action: string, body: object) => {
      const reply = await call(server, 'POST', `/V1/fulfillmentOrder/${action}`, {
        token: TOKENS.all,
        json: body,
      });
      if (reply.status !== 200) throw new Error(`${action}: ${reply.status} ${reply.text}`);
    };
    try {
      await advance(server, '100001001-1', 'invoiced');
      await advance(server, '100001002-1', 'pending_shipment');
      // Partly shipped and invoiced: the first line goes out and is invoiced, the second waits.
      await advance(server, '100001006-1', 'pending_shipment');
      const partial = await findInQueue(server, 'pending_shipment', TOKENS.all, '100001006-1');
      const first = { item_id: partial.items[0].id };
      await act('ship', { shipment: { order_id: '100001006-1', items: [first] } });
      await act('invoice', {
        invoice: { order_id: '100001006-1', items: [first], invoice_number: 'INV-PART' },
      });
      // Rerouted: WH-A rejects SKU-1, which goes to WH-B as 100001007-2.
      const rerouted = await findInQueue(server, 'pending_accept', TOKENS.all, '100001007-1');
      await act('reject', {
        order: { order_id: '100001007-1', items: [{ item_id: rerouted.items[0].id }] },
      });
      // Transferred: accepted at WH-A, allocated from WH-B's stock.
      await advance(server, '100001008-1', 'pending_allocation');
      const transfer = await findInQueue(server, 'pending_allocation', TOKENS.all, '100001008-1');
      await act('allocate', {
        allocation: {
          order_id: '100001008-1',
          items: [{ item_id: transfer.items[0].id, warehouse_code: 'WH-B' }],
        },
      });
    } finally {
      await server.close();
    }
    await engine.failOrder('default', '100001003-1', 'warehouse flooded');
    await engine.cancelOrder('default', '000123-1');
    await engine.dispatchCourier();
    await engine.close();
    return db;
  }

  async function move(from: string, to: string, name: string): Promise<string> {
    const dump = join(dir, name);
    const exported = await runCli(['export', '--out', dump, '--db', from]);
    expect(exported.stderr.text).toBe('');
    const imported = await runCli(['import', dump, '--db', to]);
    expect(imported.stderr.text).toBe('');
    expect(imported.code).toBe(0);
    return readFile(dump, 'utf8');
  }

  it('moves a store SQLite → SQLite and it answers byte for byte the same', async () => {
    const source = await sourceStore();
    const before = await observe(source);
    // What is compared holds the orders in their queues, in JSON and XML, and their histories.
    const joined = before.join('\n');
    for (const seen of [
      '"100001002-1"',
      '<fulfillment_order_number>100001002-1<',
      '"100001003-1"',
    ]) {
      expect(joined).toContain(seen);
    }
    expect(joined).toContain('"status":"invoiced"');
    expect(joined).toContain('"status":"canceled"');
    // … and the partial, rerouted and transferred orders of sourceStore.
    expect(joined).toContain('"status":"partially_shipped"');
    expect(joined).toContain('"invoice_number":"INV-PART"');
    expect(joined).toContain('"status":"rejected"');
    expect(joined).toContain('"fulfillment_order_number":"100001007-2"');
    const transferred = before.find(
      (seen) => seen.includes('"100001008-1"') && seen.startsWith('{'),
    );
    expect(transferred).toMatch(/"sku":"SKU-1","qty":1,"warehouse_code":"WH-B"/);
    expect(transferred).toContain('"action":"allocate","details":{"items":[{"item_id":');
    const target = `sqlite:${join(dir, 'target.db')}`;
    const dump = await move(source, target, 'a.ndjson');
    expect(dump).not.toContain(TOKENS.erp);
    expect(await observe(target)).toEqual(before);
    // Its dump is the same again.
    expect((await runCli(['export', '--db', target])).stdout.text).toBe(dump);
  });

  it(
    'moves a store SQLite → Postgres → SQLite, the same throughout',
    skipUnless(postgresUrl, 'FULFIL_TEST_POSTGRES_URL is not set'),
    async () => {
      const source = await sourceStore();
      const before = await observe(source);
      const schema = `move_test_${process.pid}_${Date.now()}`;
      const url = new URL(postgresUrl as string);
      url.searchParams.set('schema', schema);
      const postgres = url.toString();
      try {
        const first = await move(source, postgres, 'a.ndjson');
        expect(await observe(postgres)).toEqual(before);
        // Merging the same dump again takes in nothing and changes nothing.
        const merged = await runCli(['import', join(dir, 'a.ndjson'), '--db', postgres, '--merge']);
        expect(merged.stderr.text).toBe('');
        expect(merged.stdout.json()).toMatchObject({ rows: {}, kept: { fulfillment_orders: 9 } });
        expect(await observe(postgres)).toEqual(before);
        const back = `sqlite:${join(dir, 'back.db')}`;
        expect(await move(postgres, back, 'b.ndjson')).toBe(first);
        expect(await observe(back)).toEqual(before);
        // The moved store goes on: new rows get ids past the imported ones.
        const added = join(dir, 'added.ndjson');
        await writeFile(added, `${JSON.stringify(salesOrder('100001005'))}\n`);
        for (const db of [postgres, back]) {
          const run = await runCli(['orders', 'import', added, '--db', db, '--json']);
          expect(run.stdout.json(), db).toMatchObject({ taken_in: 1, refused: 0 });
        }
      } finally {
        const repository = (await openRepository(postgres)) as KyselyRepository;
        await repository.db.schema.dropSchema(schema).ifExists().cascade().execute();
        await repository.close();
      }
    },
  );

  it('--merge takes into a store that holds data only what it lacks', async () => {
    const source = await sourceStore();
    const target = `sqlite:${join(dir, 'target.db')}`;
    await move(source, target, 'a.ndjson');
    const added = join(dir, 'added.ndjson');
    await writeFile(added, `${JSON.stringify(salesOrder('100001005'))}\n`);
    expect((await runCli(['orders', 'import', added, '--db', source])).code).toBe(0);
    const before = await observe(source);
    expect(before.join('\n')).toContain('"100001005-1"');

    const dump = join(dir, 'b.ndjson');
    await runCli(['export', '--out', dump, '--db', source]);
    expect((await runCli(['import', dump, '--db', target])).stderr.text).toMatch(/not empty/);
    const merged = await runCli(['import', dump, '--db', target, '--merge']);
    expect(merged.stderr.text).toBe('');
    const counts = merged.stdout.json<{
      rows: Record<string, number>;
      kept: Record<string, number>;
    }>();
    expect(counts.rows.fulfillment_orders).toBe(1);
    expect(counts.kept.fulfillment_orders).toBe(9);
    expect(counts.kept.audit_events).toBeGreaterThan(5);
    expect(await observe(target)).toEqual(before);
  });

  it('refuses bad dumps, naming the line, and writes nothing', async () => {
    const source = await sourceStore();
    const dump = join(dir, 'good.ndjson');
    await runCli(['export', '--out', dump, '--db', source]);
    const lines = (await readFile(dump, 'utf8')).trimEnd().split('\n');
    const header = JSON.parse(lines[0] as string);
    const orderLine = lines.findIndex((line) => line.includes('"fulfillment_orders"'));
    const cases: [string, string[], RegExp][] = [
      [
        'truncated',
        [...lines.slice(0, -1), (lines.at(-1) as string).slice(0, 20)],
        new RegExp(`line ${lines.length}: not JSON.*truncated`),
      ],
      ['not json', [...lines.slice(0, 3), 'hello', ...lines.slice(3)], /line 4: not JSON/],
      [
        'bad row',
        lines.map((line, i) =>
          i === orderLine ? line.replace('"status":', '"no_such_column":') : line,
        ),
        /fulfillment_orders up to line \d+ cannot be stored/,
      ],
      [
        'newer',
        [JSON.stringify({ ...header, version: 99 }), ...lines.slice(1)],
        /line 1: dump format version 99 is newer/,
      ],
      [
        'other store',
        [JSON.stringify({ ...header, store: 'other' }), ...lines.slice(1)],
        /line 1: this dump is of store other, not default/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, `${name}.ndjson`);
      await writeFile(file, content.join('\n'));
      const target = `sqlite:${join(dir, `${name}.db`)}`;
      const run = await runCli(['import', file, '--db', target]);
      expect(run.code, name).toBe(1);
      expect(run.stderr.text, name).toMatch(message);
      // Nothing half-written: the store is still not there.
      const shown = await runCli(['stock', 'list', '--db', target]);
      expect(shown.stdout.text, name).not.toContain('SKU-1');
    }
    // A store that holds something already is refused.
    const again = await runCli(['import', dump, '--db', source]);
    expect(again.code).toBe(1);
    expect(again.stderr.text).toMatch(/store default is not empty/);
  });
});
