import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./support/multi-process-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('sqlite: several processes on one file', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('migrate together, serialize their writers, and lose no update', {
    timeout: 60_000,
  }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-mp-'));
    const filename = join(dir, 'shared.db');
    const processes = 4;
    const rounds = 40;
    // tsx resolves the @fulfil/* sources through the root tsconfig's paths.
    const outputs = await Promise.all(
      Array.from({ length: processes }, () =>
        run(process.execPath, ['--import', 'tsx', worker, filename, String(rounds)], {
          cwd: repoRoot,
        }),
      ),
    );
    const drawn = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as number[]);
    const total = processes * rounds;
    expect([...drawn].sort((a, b) => a - b)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    );

    const repository = await openSqliteRepository({ filename });
    try {
      await repository.transaction(async (tx) => {
        const store = await tx.findStore('default');
        if (!store) throw new Error('store missing');
        expect((await tx.findOrder(store.id, 'SO-1-1'))?.courier.attempts).toBe(total);
        expect(await tx.listStock({ store_id: store.id, warehouses: null })).toEqual([
          { warehouse_code: 'WH-A', sku: 'S1', on_hand: total, reserved: 0 },
        ]);
      }, 'read');
    } finally {
      await repository.close();
    }
  });
});
