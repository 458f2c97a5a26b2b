import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, DomainError, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { expect, it } from 'vitest';
import { createHttpCourier } from '../../src/couriers/http-courier.js';
import type { TestDatabase } from '../scale-out/support.js';
import { startFakeHttpCourier } from './fake-http-courier.js';
import { checkLedger, emptyFigures, prng } from './label-runs.js';

/**
 * `kill -9` of the dispatching process mid-call (docs/couriers.md): a `fulfil courier dispatch`
 * process books labels through the HTTP courier at a fake bridge that issues the label and never
 * answers; the test kills the process then, once or twice in a row, maybe cancels the order, and
 * lets a dispatcher in the test process take over once the lease has run out. The ledger must
 * then agree with the database exactly as in the in-process runs.
 */

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const SECRET = 'kill-run-bridge-secret-0123456789';

/** `fulfil courier dispatch` over the database, with the installation's carriers file. */
function dispatchProcess(url: string, carriers: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'packages/server/src/cli.ts'), 'courier', 'dispatch'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.json'),
        FULFIL_DATABASE_URL: url,
        FULFIL_CARRIERS: carriers,
        BRIDGE_SECRET: SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, exited, output: () => output };
}

export function describeKillRuns(
  name: string,
  runs: number,
  database: () => Promise<TestDatabase>,
) {
  it(`${name}: ${runs} dispatchers killed mid-call leave exactly one live label per shipped parcel`, async () => {
    const db = await database();
    const fake = await startFakeHttpCourier(SECRET);
    const figures = emptyFigures();
    const http = createHttpCourier({ env: { BRIDGE_SECRET: SECRET } });
    const carrierAccounts = {
      bridge: { type: 'http', url: fake.url, secret_env: 'BRIDGE_SECRET' },
    };
    const dir = await mkdtemp(join(tmpdir(), 'fulfil-kill-'));
    const carriers = join(dir, 'carriers.json');
    await writeFile(carriers, JSON.stringify({ accounts: carrierAccounts }));
    const seeder = createEngine({
      repository: await db.open(),
      couriers: { http },
      carrierAccounts,
    });
    try {
      for (let seed = 1; seed <= runs; seed++) {
        const random = prng(seed * 7919);
        const store = `kill${seed}`;
        const number = `K${seed}`;
        const lines = 1 + Math.floor(random() * 3);
        await seeder.loadSeed({
          stores: [
            {
              code: store,
              settings: {
                courier: { account: 'bridge', max_attempts: 3 },
              },
              warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
              stock: [1, 2, 3].map((n) => ({ warehouse_code: 'HQ', sku: `SKU-${n}`, qty: 10 })),
              orders: [
                fixtures.salesOrder(
                  number,
                  Array.from({ length: lines }, (_, n) => ({ sku: `SKU-${n + 1}`, qty: 1 })),
                  { warehouse_code: 'HQ' },
                ),
              ],
            },
          ],
        });
        const order = await seeder.getOrder(store, `${number}-1`);
        await seeder.allocate(seeder.operator(store), {
          allocation: {
            order_id: `${number}-1`,
            items: order.items.map((item) => ({ item_id: item.id })),
          },
        });
        // The bridge issues the label of the first parcel asked for and goes silent; kill then.
        fake.hold = true;
        // A second process killed mid-call adopts the first label and hangs on the next parcel.
        const kills = lines > 1 && random() < 0.5 ? 2 : 1;
        for (let kill = 0; kill < kills; kill++) {
          const dispatcher = dispatchProcess(db.url, carriers);
          const outcome = await Promise.race([fake.held().then(() => 'held'), dispatcher.exited]);
          if (outcome !== 'held')
            throw new Error(`the dispatcher ended first:\n${dispatcher.output()}`);
          dispatcher.child.kill('SIGKILL');
          expect(await dispatcher.exited).toBe(null);
          figures.lease_expiries += 1;
          if (kill + 1 < kills) {
            // The next process only finds the order due once the lease has run out: move the
            // order's next attempt back instead of waiting two minutes.
            const repository = await db.open();
            await repository.transaction(async (tx) => {
              const found = await tx.findStore(store);
              const locked = found && (await tx.lockOrder(found.id, `${number}-1`));
              if (locked)
                await tx.saveOrder({
                  ...locked,
                  courier: { ...locked.courier, next_attempt_at: '2000-01-01 00:00:00' },
                });
            });
            await repository.close();
          }
        }
        fake.hold = false;
        // Another dispatcher, once the lease has run out (its clock is an hour ahead).
        const clock = new ManualClock(new Date(Date.now() + 3_600_000));
        const engine = createEngine({
          repository: await db.open(),
          clock,
          couriers: { http },
          carrierAccounts,
        });
        try {
          if (random() < 0.5) {
            try {
              await engine.cancelOrder(store, `${number}-1`);
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
            }
          }
          for (let round = 0; round < 10; round++) {
            const report = await engine.dispatchCourier();
            clock.advance(3_600_000);
            if (Object.values(report).every((list) => list.length === 0)) break;
          }
          const ledger = fake.ledger
            .entries()
            .filter((e) => e.reference.startsWith(`${number}-1/`));
          await checkLedger(seed, engine, store, [`${number}-1`], ledger, figures);
        } finally {
          await engine.close();
        }
      }
    } finally {
      await seeder.close();
      await fake.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    }
    console.info(`${name} kill runs: ${JSON.stringify(figures)}`);
    expect(figures.runs).toBe(runs);
  }, 600_000);
}
