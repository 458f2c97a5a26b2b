import { join } from 'node:path';
import { createEngine, ManualClock } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import {
  ALL_MIGRATIONS,
  ERP_SECRET,
  PARTNER_SECRET,
  runCli,
  smallSeed,
  tempDir,
  writeJson,
} from './run-cli.js';
import { startServe } from './serve-process.js';

const poll = (url: string, token: string, queue: string) =>
  fetch(`${url}/rest/default/V1/fulfillmentOrders/${queue}`, {
    headers: { Authorization: `Bearer ${token}` },
  });

describe('fulfil serve', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
  });
  afterEach(() => remove());

  it('seeds, serves, prints the tokens with a curl each, and stops on SIGTERM', async () => {
    const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());
    const serve = startServe(['--db', 'sqlite::memory:', '--seed', seedFile]);
    const url = await serve.ready();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const out = serve.stdout.text;
    expect(out).toMatch(/Seeded from .*seed\.json: 1 store added, 0 kept; 2 warehouses added/);
    expect(out).toMatch(new RegExp(`partner-a \\(partner, store default\\)\\s+${PARTNER_SECRET}`));
    expect(out).toMatch(new RegExp(`erp \\(erp, store default\\)\\s+${ERP_SECRET}`));
    expect(out).toContain(
      `curl -H 'Authorization: Bearer ${PARTNER_SECRET}' ${url}/rest/default/V1/fulfillmentOrders/pending_accept`,
    );
    expect(out).toContain(
      `curl -H 'Authorization: Bearer ${ERP_SECRET}' ${url}/rest/default/V1/fulfillmentOrders/pending_allocation`,
    );

    const response = await poll(url, PARTNER_SECRET, 'pending_accept');
    expect(response.status).toBe(200);
    const orders = (await response.json()) as { fulfillment_order_number: string }[];
    expect(orders.map((order) => order.fulfillment_order_number)).toEqual(['100000001-1']);

    serve.signals.emit('SIGTERM');
    expect(await serve.done).toBe(0);
    expect(serve.stdout.text).toContain('SIGTERM received: stopping');
    expect(serve.exits).toEqual([]);
    await expect(poll(url, PARTNER_SECRET, 'pending_accept')).rejects.toThrow();
  });

  it('--metrics serves /metrics; without it there is none', async () => {
    const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());
    for (const [flags, status] of [
      [['--metrics'], 200],
      [[], 404],
    ] as const) {
      const serve = startServe(['--db', 'sqlite::memory:', '--seed', seedFile, ...flags]);
      const url = await serve.ready();
      const response = await fetch(`${url}/metrics`);
      expect(response.status).toBe(status);
      if (status === 200) {
        expect(await response.text()).toContain(
          'fulfil_queue_depth{store="default",queue="pending_accept"} 1',
        );
      }
      serve.signals.emit('SIGTERM');
      expect(await serve.done).toBe(0);
    }
  });

  it('--seed-if-empty seeds a new database only', async () => {
    const db = `sqlite:${join(dir, 'serve.db')}`;
    const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());

    const first = startServe(['--db', db, '--seed-if-empty', seedFile, '--courier-interval', '0']);
    await first.ready();
    expect(first.stdout.text).toMatch(/Seeded from/);
    first.signals.emit('SIGINT');
    expect(await first.done).toBe(0);

    // A different seed file: not loaded, as the database has a store. The tokens printed are
    // those of the file that work in the database: here, the first file's.
    const other = smallSeed();
    other.stores[0]?.tokens.push({
      name: 'never-loaded',
      token: 'never-loaded-0123456789abcdef0123456789abcdef',
      acl: 'all',
    } as (typeof other.stores)[0]['tokens'][0]);
    const second = startServe([
      '--db',
      db,
      '--seed-if-empty',
      await writeJson(join(dir, 'other.json'), other),
    ]);
    const url = await second.ready();
    expect(second.stdout.text).not.toMatch(/Seeded from/);
    expect(second.stdout.text).toMatch(/has stores already: .*other\.json was not loaded/);
    expect(second.stdout.text).toContain(PARTNER_SECRET);
    expect(second.stdout.text).not.toContain('never-loaded');
    expect((await poll(url, ERP_SECRET, 'pending_allocation')).status).toBe(200);
    second.signals.emit('SIGTERM');
    expect(await second.done).toBe(0);
  });

  it('a restart with --seed keeps the stock partners reported and changes nothing else', async () => {
    const db = `sqlite:${join(dir, 'restart.db')}`;
    const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());
    const stockOf = async (url: string) => {
      const reply = await fetch(`${url}/rest/default/V1/stockItems`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${PARTNER_SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({ stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 7 }] }),
      });
      expect(reply.status).toBe(200);
    };
    const first = startServe(['--db', db, '--seed', seedFile, '--courier-interval', '0']);
    await stockOf(await first.ready());
    first.signals.emit('SIGTERM');
    expect(await first.done).toBe(0);

    const second = startServe(['--db', db, '--seed', seedFile, '--courier-interval', '0']);
    await second.ready();
    expect(second.stdout.text).toMatch(/0 stores added, 1 kept; 0 warehouses added, 2 kept/);
    second.signals.emit('SIGTERM');
    expect(await second.done).toBe(0);
    const listed = await runCli(['stock', 'list', '--db', db]);
    expect(listed.stdout.json()).toContainEqual(
      expect.objectContaining({ warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 7 }),
    );
  });

  it('names the migrations it applied, as `fulfil migrate` does, and none once the schema is current', async () => {
    const db = `sqlite:${join(dir, 'migrated.db')}`;
    const first = startServe(['--db', db, '--courier-interval', '0']);
    await first.ready();
    expect(first.stdout.text).toMatch(
      new RegExp(`^applied ${ALL_MIGRATIONS.join(', ')}: ${db.replaceAll('.', '\\.')}\n`),
    );
    first.signals.emit('SIGTERM');
    expect(await first.done).toBe(0);

    const second = startServe(['--db', db, '--courier-interval', '0']);
    await second.ready();
    expect(second.stdout.text).not.toContain('applied');
    second.signals.emit('SIGTERM');
    expect(await second.done).toBe(0);
  });

  it('exits 1 with one line when the port is taken', async () => {
    const first = startServe(['--db', 'sqlite::memory:']);
    const url = await first.ready();
    const port = new URL(url).port;
    const second = startServe(['--db', 'sqlite::memory:', '--port', port]);
    expect(await second.done).toBe(1);
    expect(second.stderr.text).toMatch(/^fulfil serve: .*EADDRINUSE.*\n$/);
    expect(second.stderr.text.trimEnd().split('\n')).toHaveLength(1);
    first.signals.emit('SIGTERM');
    expect(await first.done).toBe(0);
  });

  it('stops when the pnpm script that started it is gone', async () => {
    let parent = 4242;
    const serve = startServe(['--db', 'sqlite::memory:'], {
      env: { npm_lifecycle_event: 'fulfil' },
      parentPid: () => parent,
    });
    const url = await serve.ready();
    expect((await fetch(`${url}/rest/default/V1/warehouses`)).status).toBe(401);
    parent = 1; // pnpm was stopped; its shell did not pass the signal on
    expect(await serve.done).toBe(0);
    expect(serve.stdout.text).toContain('The script that started fulfil has ended: stopping');
  });

  it('--session-hours sets the console session lifetime, and expired sessions are deleted', async () => {
    const db = join(dir, 'sessions.db');
    // A session that expired long ago, left in the database by an earlier run.
    const past = createEngine({
      repository: await openSqliteRepository({ filename: db }),
      clock: new ManualClock('2020-01-01T00:00:00Z'),
    });
    const { secret } = await past.admin.createOperator({ name: 'alice', role: 'admin' });
    await past.admin.login({ name: 'alice', secret });
    await past.close();
    const sessions = async () => {
      const repository = await openSqliteRepository({ filename: db });
      try {
        const rows = await repository.db
          .selectFrom('operator_sessions')
          .select('expires_at')
          .execute();
        return rows.map((row) => row.expires_at);
      } finally {
        await repository.close();
      }
    };
    expect(await sessions()).toEqual(['2020-01-01 12:00:00']);

    const serve = startServe(['--db', `sqlite:${db}`, '--session-hours', '2']);
    const url = await serve.ready();
    // Swept as serve starts, not only at the next login.
    await vi.waitFor(async () => expect(await sessions()).toEqual([]), { timeout: 15_000 });
    const login = await fetch(`${url}/admin/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'alice', secret }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toMatch(/Max-Age=7200(;|$)/);
    const [expiresAt] = await sessions();
    const lifetime = Date.parse(`${expiresAt?.replace(' ', 'T')}Z`) - Date.now();
    expect(lifetime).toBeGreaterThan(7_100_000);
    expect(lifetime).toBeLessThanOrEqual(7_200_000);
    serve.signals.emit('SIGTERM');
    expect(await serve.done).toBe(0);
    const refused = await runCli(['serve', '--session-hours', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.text).toContain('--session-hours');
  });

  it('mounts the console at /admin/ with the admin API, and neither with --admin off', async () => {
    for (const [admin, status] of [
      ['auto', 200],
      ['off', 404],
    ] as const) {
      const serve = startServe(['--db', 'sqlite::memory:', '--admin', admin]);
      const url = await serve.ready();
      const page = await fetch(`${url}/admin/`);
      expect(page.status, `--admin ${admin}`).toBe(status);
      if (status === 200) {
        expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(await page.text()).toContain('<div id="app">');
        expect((await fetch(`${url}/admin/api/session`)).status).toBe(401);
      } else {
        await page.arrayBuffer();
      }
      serve.signals.emit('SIGTERM');
      expect(await serve.done).toBe(0);
    }
  });
  it('names its carrier accounts, a secret variable that is not set, and each store no account covers', async () => {
    const db = `sqlite:${join(dir, 'fulfil.db')}`;
    const carriers = await writeJson(join(dir, 'carriers.json'), {
      accounts: {
        bridge: { type: 'http', url: 'https://bridge.example', secret_env: 'BRIDGE_SECRET' },
        'shipengine-us': { type: 'shipengine', secret_env: 'SHIPENGINE_API_KEY' },
      },
    });
    // A store the release before carrier accounts set up, pointing where no account goes.
    await runCli(['seed', await writeJson(join(dir, 'seed.json'), smallSeed()), '--db', db]);
    const repository = await openRepository(db);
    await repository.transaction(async (tx) => {
      const store = await tx.findStore('default');
      if (!store) throw new Error('no store');
      await tx.upsertStore('default', {
        ...store.settings,
        courier: {
          ...store.settings.courier,
          type: 'http',
          url: 'https://old.example',
          secret_env: 'OLD',
        },
      });
    });
    await repository.close();
    const serve = startServe(['--db', db, '--carriers', carriers, '--courier-interval', '0'], {
      env: { BRIDGE_SECRET: 'set' },
    });
    await serve.ready();
    const out = serve.stdout.text;
    expect(out).toMatch(/bridge\s+http at https:\/\/bridge\.example, secret in BRIDGE_SECRET\n/);
    expect(out).toMatch(/shipengine-us\s+shipengine, secret in SHIPENGINE_API_KEY \(NOT SET\)\n/);
    expect(out).toMatch(
      /store default\s+the store's courier \(type http, url https:\/\/old\.example, secret in OLD\) was set before carrier accounts/,
    );
    serve.signals.emit('SIGTERM');
    expect(await serve.done).toBe(0);
  });
});
