import { join } from 'node:path';
import { KyselyRepository } from '@fulfil/storage-kysely';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import { runCli, smallSeed, tempDir, writeJson } from './run-cli.js';

describe('fulfil stock: list, safety and check (docs/operations.md)', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let db: string;

  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    db = `sqlite:${join(dir, 'fulfil.db')}`;
    const seeded = await runCli([
      'seed',
      await writeJson(join(dir, 'seed.json'), smallSeed()),
      '--db',
      db,
    ]);
    expect(seeded.code).toBe(0);
  });
  afterEach(() => remove());

  const cli = (argv: string[]) => runCli([...argv, '--db', db]);
  const list = async () => {
    const run = await cli(['stock', 'list', '--sku', 'SKU-1']);
    expect(run.code).toBe(0);
    return run.stdout.json<Record<string, unknown>[]>();
  };

  it('lists on hand, reserved, safety stock, quarantined and available; the seeded order holds its qty from intake', async () => {
    expect(await list()).toEqual([
      {
        warehouse_code: 'WH-A',
        sku: 'SKU-1',
        on_hand: 10,
        reserved: 2,
        safety_stock: 0,
        available: 8,
        quarantined: 0,
      },
      {
        warehouse_code: 'WH-B',
        sku: 'SKU-1',
        on_hand: 3,
        reserved: 0,
        safety_stock: 0,
        available: 3,
        quarantined: 0,
      },
    ]);
  });

  it("sets a sku's safety stock, a warehouse default, and drops the sku's own figure again", async () => {
    expect((await cli(['stock', 'safety', 'WH-A', '3', '--sku', 'SKU-1'])).code).toBe(0);
    expect((await cli(['stock', 'safety', 'WH-B', '5'])).code).toBe(0);
    expect(
      (await list()).map(({ warehouse_code, safety_stock, available }) => [
        warehouse_code,
        safety_stock,
        available,
      ]),
    ).toEqual([
      ['WH-A', 3, 5],
      ['WH-B', 5, -2],
    ]);
    // The warehouse keeps everything else it had.
    const warehouse = await cli(['stock', 'safety', 'WH-B', '0']);
    expect(warehouse.stdout.json()).toMatchObject({
      code: 'WH-B',
      name: 'Partner B',
      priority: 5,
      safety_stock: 0,
    });
    expect((await cli(['stock', 'safety', 'WH-A', 'none', '--sku', 'SKU-1'])).code).toBe(0);
    expect((await list()).map((row) => row.safety_stock)).toEqual([0, 0]);

    const bad = await cli(['stock', 'safety', 'WH-A', '1.5', '--sku', 'SKU-1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.text).toContain('<qty>');
  });

  it('checks reserved against the live unshipped lines, and repairs it with --fix', async () => {
    const clean = await cli(['stock', 'check']);
    expect(clean.code).toBe(0);
    expect(clean.stdout.json()).toEqual({ mismatches: [], quarantine: [] });

    // A reservation gone astray (as an older release could leave it).
    const repository = await openRepository(db, { baseDir: dir });
    if (!(repository instanceof KyselyRepository)) throw new Error('a SQL repository was expected');
    await sql`update stock set reserved = 0 where warehouse_code = 'WH-A'`.execute(repository.db);
    await repository.close();

    const found = await cli(['stock', 'check']);
    expect(found.code).toBe(1);
    expect(found.stdout.json()).toEqual({
      mismatches: [{ warehouse_code: 'WH-A', sku: 'SKU-1', reserved: 0, expected: 2 }],
      quarantine: [],
    });
    const fixed = await cli(['stock', 'check', '--fix', '--reason', 'drift']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout.json()).toMatchObject({
      fixed: [{ warehouse_code: 'WH-A', sku: 'SKU-1', reserved: 0, expected: 2 }],
    });
    expect((await cli(['stock', 'check'])).code).toBe(0);
    expect((await list())[0]).toMatchObject({ reserved: 2, available: 8 });
  });
});
