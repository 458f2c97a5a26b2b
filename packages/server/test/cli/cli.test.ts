import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import {
  Capture,
  PARTNER_SECRET,
  runCli,
  salesOrder,
  smallSeed,
  tempDir,
  writeJson,
} from './run-cli.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Exactly one line, ending in a newline. */
function expectOneLine(text: string): void {
  expect(text.endsWith('\n')).toBe(true);
  expect(text.trimEnd().split('\n')).toHaveLength(1);
}

describe('fulfil: usage', () => {
  it('exits 2 with one line when a command is missing', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expectOneLine(run.stderr.text);
    expect(run.stderr.text).toMatch(/missing command/);
  });

  it('exits 2 on an unknown command, subcommand or option', async () => {
    for (const argv of [
      ['frobnicate'],
      ['token', 'destroy'],
      ['token'],
      ['seed', 'x.json', '--bogus'],
      ['--bogus'],
    ]) {
      const run = await runCli(argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expectOneLine(run.stderr.text);
      expect(run.stdout.text).toBe('');
    }
    expect((await runCli(['frobnicate'])).stderr.text).toMatch(/unknown command "frobnicate"/);
  });

  it('exits 2 on a missing or extra positional and on bad option values', async () => {
    const missing = await runCli(['seed']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.text).toMatch(
      /^fulfil seed: missing <file> \(see "fulfil seed --help"\)\n$/,
    );

    expect((await runCli(['orders', 'show', 'a', 'b'])).code).toBe(2);
    expect((await runCli(['token', 'create', '--acl', 'partner'])).stderr.text).toMatch(
      /--name is required/,
    );
    expect((await runCli(['token', 'create', '--name', 'x', '--acl', 'nope'])).code).toBe(2);
    const expires = await runCli([
      'token',
      'create',
      '--name',
      'x',
      '--acl',
      'erp',
      '--expires',
      '2030-02-30 00:00:00',
    ]);
    expect(expires.code).toBe(2);
    expect(expires.stderr.text).toMatch(/--expires/);
    const publicUrl = await runCli(['serve', '--public-url', 'api.example.com']);
    expect(publicUrl.code).toBe(2);
    expect(publicUrl.stderr.text).toMatch(/--public-url: .*not an absolute URL/);
    const port = await runCli(['serve', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr.text).toMatch(/--port must be an integer from 0 to 65535/);
    expect((await runCli(['serve', '--seed', 'a', '--seed-if-empty', 'b'])).code).toBe(2);
    expect((await runCli(['failed', 'list', '--page', '0'])).code).toBe(2);
  });

  it('exits 2 on a database URL it cannot open', async () => {
    const run = await runCli(['token', 'list', '--db', 'mysql://root:hunter2@localhost/x']);
    expect(run.code).toBe(2);
    expectOneLine(run.stderr.text);
    expect(run.stderr.text).toMatch(/unsupported database URL/);
    expect(run.stderr.text).not.toMatch(/hunter2/);
  });
});

describe('fulfil: help', () => {
  it('prints the top-level help with every command', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const run = await runCli(argv);
      expect(run.code).toBe(0);
      expect(run.stdout.text).toMatch(/^Usage: fulfil <command>/);
      for (const command of [
        'serve',
        'migrate',
        'seed',
        'token create',
        'orders import',
        'failed requeue',
        'openapi',
      ]) {
        expect(run.stdout.text).toContain(command);
      }
      expect(run.stderr.text).toBe('');
    }
  });

  it('prints the help of a command and of a group', async () => {
    const serve = await runCli(['serve', '--help']);
    expect(serve.code).toBe(0);
    expect(serve.stdout.text).toMatch(/^Usage: fulfil serve/);
    for (const option of [
      '--host',
      '--port',
      '--seed-if-empty',
      '--courier-interval',
      '--store',
      '--db',
    ]) {
      expect(serve.stdout.text).toContain(option);
    }
    // Help wins over anything else on the line, even invalid options.
    const create = await runCli(['token', 'create', '--bogus', '-h']);
    expect(create.code).toBe(0);
    expect(create.stdout.text).toContain('--acl <acl>');

    const group = await runCli(['token', '--help']);
    expect(group.code).toBe(0);
    expect(group.stdout.text).toMatch(/^Usage: fulfil token <create\|list\|revoke>/);
  });
});

describe('fulfil: data commands', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let db: string;

  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    db = `sqlite:${join(dir, 'nested', 'fulfil.db')}`;
  });
  afterEach(() => remove());

  const cli = (argv: string[]) => runCli([...argv, '--db', db]);

  it('seeds, then creates, lists and revokes tokens', async () => {
    const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());
    const seeded = await cli(['seed', seedFile]);
    expect(seeded.stderr.text).toBe('');
    expect(seeded.code).toBe(0);
    expect(seeded.stdout.json()).toMatchObject({
      stores: { created: ['default'], kept: [] },
      warehouses: { created: ['WH-A', 'WH-B'], kept: [] },
      tokens: { created: ['partner-a', 'erp'], kept: [] },
      orders: { created: ['100000001-1'], kept: [] },
    });
    // Seeding is idempotent.
    expect((await cli(['seed', seedFile])).stdout.json()).toMatchObject({
      tokens: { created: [], kept: ['partner-a', 'erp'] },
      orders: { created: [], kept: ['100000001'] },
    });

    // Re-seeding keeps the stock the database has; --reset-stock sets the file's qty again.
    const stockOf = async () =>
      (await cli(['stock', 'list', '--sku', 'SKU-1'])).stdout
        .json<{ warehouse_code: string; on_hand: number }[]>()
        .map((row) => [row.warehouse_code, row.on_hand]);
    expect(await stockOf()).toEqual([
      ['WH-A', 10],
      ['WH-B', 3],
    ]);
    const edited = smallSeed();
    for (const row of edited.stores[0]?.stock ?? []) row.qty = 1;
    const editedFile = await writeJson(join(dir, 'edited.json'), edited);
    expect((await cli(['seed', editedFile])).stdout.json()).toMatchObject({
      stock: { created: 0, kept: 2, reset: 0 },
    });
    expect(await stockOf()).toEqual([
      ['WH-A', 10],
      ['WH-B', 3],
    ]);
    expect((await cli(['seed', editedFile, '--reset-stock'])).stdout.json()).toMatchObject({
      stock: { created: 0, kept: 0, reset: 2 },
    });
    expect(await stockOf()).toEqual([
      ['WH-A', 1],
      ['WH-B', 1],
    ]);

    const created = await cli([
      'token',
      'create',
      '--name',
      'ops',
      '--acl',
      'pending_accept,Fulfil_FulfillmentOrder::api_failed',
      '--warehouses',
      'WH-A, WH-B',
      '--expires',
      '2099-12-31 23:59:59',
    ]);
    expect(created.code).toBe(0);
    const token = created.stdout.json<{
      token: string;
      name: string;
      resources: string[];
      warehouses: string[];
      expires_at: string;
    }>();
    expect(token.token.length).toBeGreaterThanOrEqual(32);
    expect(token).toMatchObject({
      name: 'ops',
      store_code: 'default',
      resources: [
        'Fulfil_FulfillmentOrder::api_pending_accept',
        'Fulfil_FulfillmentOrder::api_failed',
      ],
      warehouses: ['WH-A', 'WH-B'],
      expires_at: '2099-12-31 23:59:59',
    });

    // A sales channel's token: the channel preset, or its actions by name.
    const shop = await cli(['token', 'create', '--name', 'shop', '--acl', 'channel']);
    expect(shop.code).toBe(0);
    expect(shop.stdout.json<{ resources: string[] }>().resources.sort()).toEqual([
      'Fulfil_Return::api_create',
      'Fulfil_SalesOrder::api_cancel',
      'Fulfil_SalesOrder::api_create',
      'Fulfil_SalesOrder::api_hold',
      'Fulfil_SalesOrder::api_read',
    ]);
    // Limited to warehouses, a channel's token would be refused by every call: refused now.
    const scoped = await cli([
      'token',
      'create',
      '--name',
      'shop-a',
      '--acl',
      'channel',
      '--warehouses',
      'WH-A',
    ]);
    expect(scoped.code).toBe(1);
    expect(scoped.stderr.text).toBe(
      'fulfil token create: A token of channel acts for the whole store (a sales order spans warehouses): limited to warehouses, every call it makes would be refused. Leave out warehouses. [warehouses]\n',
    );
    const reader = await cli(['token', 'create', '--name', 'reader', '--acl', 'read_sales_orders']);
    expect(reader.stdout.json<{ resources: string[] }>().resources).toEqual([
      'Fulfil_SalesOrder::api_read',
    ]);

    const listed = await cli(['token', 'list']);
    expect(listed.code).toBe(0);
    const tokens = listed.stdout.json<{ name: string; revoked_at: string | null }[]>();
    expect(tokens.map((t) => t.name)).toEqual(['erp', 'ops', 'partner-a', 'reader', 'shop']);
    expect(listed.stdout.text).not.toContain(token.token);
    expect(listed.stdout.text).not.toContain(PARTNER_SECRET);
    expect(listed.stdout.text).not.toMatch(/"hash"/);

    const revoked = await cli(['token', 'revoke', 'ops']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.json()).toEqual({ revoked: 'ops', store_code: 'default' });
    const after = (await cli(['token', 'list'])).stdout.json<
      { name: string; revoked_at: string | null }[]
    >();
    expect(after.find((t) => t.name === 'ops')?.revoked_at).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );

    // A second token of the same name is a runtime error, not a usage error.
    const duplicate = await cli(['token', 'create', '--name', 'erp', '--acl', 'erp']);
    expect(duplicate.code).toBe(1);
  });

  it('imports sales orders and shows one with its audit trail', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const file = await writeJson(join(dir, 'orders.json'), [
      salesOrder('100000002'),
      salesOrder('100000003'),
    ]);
    const imported = await cli(['orders', 'import', file, '--json']);
    expect(imported.stderr.text).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout.json()).toEqual({
      taken_in: 2,
      fulfillment_orders: 2,
      kept: 0,
      refused: 0,
      refusals: [],
    });
    // One object (not an array), even pretty-printed, works too; orders already in are kept.
    const single = join(dir, 'one.json');
    await writeFile(single, JSON.stringify(salesOrder('100000002'), null, 2));
    const again = await cli(['orders', 'import', single]);
    expect(again.code).toBe(0);
    expect(again.stdout.text).toBe(
      'taken in: 0 sales orders (0 fulfillment orders)\n' +
        'kept: 1 (taken in before, left as they were)\n' +
        'refused: 0\n',
    );

    const shown = await cli(['orders', 'show', '100000002-1']);
    expect(shown.code).toBe(0);
    const history = shown.stdout.json<{
      order: { status: string; grand_total: number };
      audit: { actor: string; action: string }[];
    }>();
    expect(history.order).toMatchObject({ status: 'pending_accept', grand_total: 25 });
    expect(history.audit).toEqual([expect.objectContaining({ actor: 'cli', action: 'intake' })]);
  });

  it('streams NDJSON: a bad line is reported with its number and holds back no other', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const bad = salesOrder('100000005');
    bad.items[0] = { ...bad.items[0], qty: 0 } as (typeof bad.items)[0];
    const lines = [
      JSON.stringify(salesOrder('100000004')),
      '',
      JSON.stringify(bad),
      '{"sales_order_number": ',
      JSON.stringify(salesOrder('100000006')),
      // A truncated last line: no line end, not JSON.
      JSON.stringify(salesOrder('100000007')).slice(0, 40),
    ];
    const file = join(dir, 'orders.ndjson');
    await writeFile(file, lines.join('\n'));
    const run = await cli(['orders', 'import', file, '--json']);
    expect(run.code).toBe(1);
    const summary = run.stdout.json<{
      taken_in: number;
      refused: number;
      refusals: { line: number; sales_order_number: string | null; error: string }[];
    }>();
    expect(summary.taken_in).toBe(2);
    expect(summary.refused).toBe(3);
    expect(summary.refusals.map((refusal) => refusal.line)).toEqual([3, 4, 6]);
    expect(summary.refusals[0]?.sales_order_number).toBe('100000005');
    expect(summary.refusals[0]?.error).toContain('items[0].qty');
    expect(summary.refusals[1]?.error).toMatch(/^not JSON/);
    expect(summary.refusals[2]?.error).toMatch(/truncated/);
    expect((await cli(['orders', 'show', '100000006-1'])).code).toBe(0);

    // The same lines again: what is in is kept, nothing doubled.
    const again = (await cli(['orders', 'import', file, '--json'])).stdout.json<{
      taken_in: number;
      kept: number;
    }>();
    expect(again).toMatchObject({ taken_in: 0, kept: 2 });
  });

  it('--strict stops at the first bad line and takes in nothing after it', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const bad = { ...salesOrder('100000011'), items: [] };
    const file = join(dir, 'orders.ndjson');
    await writeFile(
      file,
      `${[salesOrder('100000010'), bad, salesOrder('100000012')].map((o) => JSON.stringify(o)).join('\n')}\n`,
    );
    const run = await cli(['orders', 'import', file, '--strict']);
    expect(run.code).toBe(1);
    expect(run.stdout.text).toContain('taken in: 1 sales orders');
    expect(run.stdout.text).toMatch(/ {2}line 2 \(100000011\): /);
    expect(run.stdout.text).toContain('stopped at line 2 (--strict)');
    expect((await cli(['orders', 'show', '100000010-1'])).code).toBe(0);
    expect((await cli(['orders', 'show', '100000012-1'])).code).toBe(1);
  });

  it('reads NDJSON from standard input for -', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const text = `${JSON.stringify(salesOrder('100000020'))}\r\n${JSON.stringify(salesOrder('100000021'))}\r\n`;
    // Split mid-line, as a pipe delivers it.
    const run = await runCli(['orders', 'import', '-', '--db', db, '--json'], {
      stdin: Readable.from([Buffer.from(text.slice(0, 17)), Buffer.from(text.slice(17))]),
    });
    expect(run.stderr.text).toBe('');
    expect(run.stdout.json()).toMatchObject({ taken_in: 2, refused: 0 });
  });

  it('imports by batches: a refused order is reported and holds back no other', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const orders: unknown[] = Array.from({ length: 1203 }, (_, i) =>
      salesOrder(String(300000000 + i)),
    );
    // Passes validation, but no active warehouse has that code: refused when routed.
    orders[1100] = { ...salesOrder('300001100'), warehouse_code: 'WH-GONE' };
    const file = join(dir, 'orders.ndjson');
    await writeFile(file, `${orders.map((order) => JSON.stringify(order)).join('\n')}\n`);
    const tty = new Capture();
    const run = await runCli(['orders', 'import', file, '--db', db, '--json'], {
      stderr: Object.assign(tty, { isTTY: true }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout.json()).toEqual({
      taken_in: 1202,
      fulfillment_orders: 1202,
      kept: 0,
      refused: 1,
      refusals: [
        {
          line: 1101,
          sales_order_number: '300001100',
          error: 'Warehouse WH-GONE is not an active warehouse of this store. [warehouse_code]',
        },
      ],
    });
    expect((await cli(['orders', 'show', '300001202-1'])).code).toBe(0);
    // On a terminal the progress is drawn on stderr, batch by batch, ending on its own line.
    expect(tty.text).toMatch(/\r1000 orders {2}\d+\/s {2}\d+% {2}ETA \d+:\d\d/);
    expect(tty.text).toMatch(/\r1203 orders {2}\d+\/s {2}100% {2}ETA 0:00\S+\n$/);
    // Not on a terminal: nothing but the summary.
    const again = await cli(['orders', 'import', file, '--json']);
    expect(again.stderr.text).toBe('');
    expect(again.stdout.json()).toMatchObject({ taken_in: 0, kept: 1202, refused: 1 });
  });

  it('lists stock, optionally for one sku', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const all = (await cli(['stock', 'list'])).stdout.json<
      { warehouse_code: string; sku: string }[]
    >();
    expect(all.map((row) => `${row.warehouse_code}/${row.sku}`)).toEqual([
      'WH-A/SKU-1',
      'WH-B/SKU-1',
    ]);
    const one = await cli(['stock', 'list', '--sku', 'NOPE']);
    expect(one.code).toBe(0);
    expect(one.stdout.json()).toEqual([]);
  });

  it('lists, requeues and abandons failed orders', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    await cli(['orders', 'import', await writeJson(join(dir, 'o.json'), salesOrder('100000009'))]);
    expect((await cli(['failed', 'list'])).stdout.json()).toEqual([]);

    const engine = createEngine({ repository: await openRepository(db) });
    await engine.failOrder('default', '100000001-1', 'warehouse flooded');
    await engine.failOrder('default', '100000009-1', 'lost in transit');
    await engine.close();

    const failed = await cli(['failed', 'list']);
    expect(failed.code).toBe(0);
    const orders = failed.stdout.json<{ fulfillment_order_number: string; status: string }[]>();
    expect(orders.map((o) => [o.fulfillment_order_number, o.status])).toEqual([
      ['100000001-1', 'failed'],
      ['100000009-1', 'failed'],
    ]);
    expect((await cli(['failed', 'list', '--page', '2'])).stdout.json()).toEqual([]);

    const requeued = await cli(['failed', 'requeue', '100000001-1']);
    expect(requeued.code).toBe(0);
    expect(requeued.stdout.json()).toMatchObject({
      fulfillment_order_number: '100000001-1',
      status: 'pending_accept',
    });
    const abandoned = await cli(['failed', 'abandon', '100000009-1']);
    expect(abandoned.code).toBe(0);
    expect(abandoned.stdout.json()).toMatchObject({ status: 'failed' });
    expect(
      (await cli(['failed', 'list'])).stdout
        .json<{ fulfillment_order_number: string }[]>()
        .map((o) => o.fulfillment_order_number),
    ).toEqual(['100000009-1']);

    // Requeueing an order that is not failed is a domain error: exit 1, one line.
    const again = await cli(['failed', 'requeue', '100000001-1']);
    expect(again.code).toBe(1);
    expectOneLine(again.stderr.text);
    expect(again.stderr.text).toMatch(/is not failed/);
  });

  it('fails and cancels an order, recording each in the audit trail', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    expect((await cli(['orders', 'fail', '100000001-1'])).code).toBe(2);
    const badStage = await cli([
      'orders',
      'fail',
      '100000001-1',
      '--reason',
      'x',
      '--stage',
      'moon',
    ]);
    expect(badStage.code).toBe(1);
    expect(badStage.stderr.text).toMatch(/stage/);

    const failed = await cli(['orders', 'fail', '100000001-1', '--reason', 'warehouse flooded']);
    expect(failed.code).toBe(0);
    expect(failed.stdout.json()).toMatchObject({ status: 'failed' });
    expect((await cli(['failed', 'list'])).stdout.json<unknown[]>()).toHaveLength(1);

    const canceled = await cli(['orders', 'cancel', '100000001-1']);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout.json()).toMatchObject({ status: 'canceled' });
    expect((await cli(['failed', 'list'])).stdout.json()).toEqual([]);
    const history = (await cli(['orders', 'show', '100000001-1'])).stdout.json<{
      audit: { action: string; details: Record<string, unknown> }[];
    }>();
    expect(history.audit.map((event) => event.action)).toEqual(['intake', 'fail', 'cancel']);
    expect(history.audit[1]?.details).toMatchObject({ reason: 'warehouse flooded' });
  });

  it('runs one round of courier dispatch', async () => {
    const seed = smallSeed();
    const store = seed.stores[0] as (typeof seed.stores)[number];
    store.warehouses.push({
      code: 'HQ',
      name: 'Own courier',
      fulfilled_by: 'courier',
      priority: 1,
    });
    store.orders.push(fixtures.salesOrder('100000007', undefined, { warehouse_code: 'HQ' }));
    await cli(['seed', await writeJson(join(dir, 'seed.json'), seed)]);
    const none = { retrying: [], failed: [], voided: [], void_failed: [] };
    expect((await cli(['courier', 'dispatch'])).stdout.json()).toEqual({ shipped: [], ...none });

    const engine = createEngine({ repository: await openRepository(db) });
    const [item] = (await engine.getOrder('default', '100000007-1')).items;
    if (!item) throw new Error('the order has no item');
    await engine.allocate(engine.operator('default'), {
      allocation: { order_id: '100000007-1', items: [{ item_id: item.id }] },
    });
    await engine.close();

    const round = await cli(['courier', 'dispatch']);
    expect(round.code).toBe(0);
    expect(round.stdout.json()).toEqual({ shipped: ['100000007-1'], ...none });
    const shown = (await cli(['orders', 'show', '100000007-1'])).stdout.json<{
      order: { status: string };
      shipments: { tracks: { track_number: string }[] }[];
    }>();
    expect(shown.order.status).toBe('pending_invoice');

    // The label prints again from the database, with its document.
    const label = await cli(['courier', 'label', '100000007-1', '--json']);
    expect(label.code).toBe(0);
    const labels =
      label.stdout.json<{ status: string; tracking_number: string; document: string }[]>();
    expect(labels.map((l) => [l.status, l.tracking_number])).toEqual([
      ['live', shown.shipments[0]?.tracks[0]?.track_number],
    ]);
    expect(labels[0]?.document).toContain(labels[0]?.tracking_number);
    expect(
      (await cli(['courier', 'label', '100000007-1', '--all', '--json'])).stdout.json(),
    ).toEqual(labels);
  });

  it('reports a DomainError on one line with placeholders filled and the field named', async () => {
    await cli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed())]);
    const missing = await cli(['orders', 'show', '999-1']);
    expect(missing.code).toBe(1);
    expect(missing.stdout.text).toBe('');
    expect(missing.stderr.text).toBe(
      'fulfil orders show: Fulfillment order 999-1 does not exist. [order_id]\n',
    );
    const store = await cli(['token', 'list', '--store', 'elsewhere']);
    expect(store.code).toBe(1);
    expect(store.stderr.text).toBe(
      'fulfil token list: Store elsewhere does not exist. [store_code]\n',
    );

    const badSeed = smallSeed();
    (badSeed.stores[0] as { stock: unknown[] }).stock.push({
      warehouse_code: 'WH-A',
      sku: 'X',
      qty: -1,
    });
    const seeded = await cli(['seed', await writeJson(join(dir, 'bad.json'), badSeed)]);
    expect(seeded.code).toBe(1);
    expectOneLine(seeded.stderr.text);
    expect(seeded.stderr.text).toContain('stores[0].stock[2].qty');
  });

  it('exits 1 with one line when a file is missing or not JSON', async () => {
    const missing = await cli(['seed', join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.text).toMatch(/cannot read .*nope\.json: ENOENT/);
    const notJson = join(dir, 'bad.json');
    await writeFile(notJson, '{ nope');
    const bad = await cli(['seed', notJson]);
    expect(bad.code).toBe(1);
    expectOneLine(bad.stderr.text);
    expect(bad.stderr.text).toMatch(/is not valid JSON/);
  });

  it('resolves relative paths against INIT_CWD, as under `pnpm fulfil`', async () => {
    const env = { INIT_CWD: repoRoot };
    const seeded = await runCli(
      ['seed', 'examples/demo-seed.json', '--db', `sqlite:${join(dir, 'demo.db')}`],
      { env, cwd: dir },
    );
    expect(seeded.stderr.text).toBe('');
    expect(seeded.code).toBe(0);
    const report = seeded.stdout.json<{
      orders: { created: string[] };
      tokens: { created: string[] };
    }>();
    expect(report.orders.created).toHaveLength(30);
    expect(report.tokens.created).toEqual(['partner-milan', 'erp', 'shop']);

    // A relative --db resolves there too (and FULFIL_DATABASE_URL stands in for --db).
    const relative = await runCli(['migrate'], {
      env: { INIT_CWD: dir, FULFIL_DATABASE_URL: 'sqlite:sub/dir/x.db' },
      cwd: repoRoot,
    });
    expect(relative.code).toBe(0);
    expect(existsSync(join(dir, 'sub', 'dir', 'x.db'))).toBe(true);
  });
});

describe('fulfil openapi', () => {
  it('prints an OpenAPI 3.1.0 document', async () => {
    const run = await runCli(['openapi']);
    expect(run.code).toBe(0);
    const document = run.stdout.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  });
});
