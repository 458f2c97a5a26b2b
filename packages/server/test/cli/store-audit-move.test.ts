import { join } from 'node:path';
import { createEngine } from '@fulfil/core';
import type { KyselyRepository } from '@fulfil/storage-kysely';
import { describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import { runCli, tempDir, writeJson } from './run-cli.js';

/** The store's audit (what operators did to it, docs/admin-api.md) travels in a store dump. */
describe('a store dump', () => {
  it('carries the store audit, request ids and reasons of the order timeline included', async () => {
    const { dir, remove } = await tempDir();
    try {
      const from = `sqlite:${join(dir, 'from.db')}`;
      const to = `sqlite:${join(dir, 'to.db')}`;
      const seed = await writeJson(join(dir, 'seed.json'), {
        stores: [{ code: 'default', warehouses: [{ code: 'WH-A', name: 'A' }] }],
      });
      expect((await runCli(['seed', seed, '--db', from])).code).toBe(0);
      const engine = createEngine({ repository: await openRepository(from) });
      const operator = {
        name: 'oscar',
        role: 'operator',
        store_code: null,
        request_id: 'req-9',
      } as const;
      await engine.admin.setOnHand(operator, 'default', 'WH-A', 'SKU-1', { on_hand: 5 });
      await engine.close();

      const dump = join(dir, 'store.ndjson');
      expect((await runCli(['export', '--out', dump, '--db', from])).code).toBe(0);
      expect((await runCli(['import', dump, '--db', to])).code).toBe(0);

      const repository = (await openRepository(to)) as KyselyRepository;
      const rows = await repository.db
        .selectFrom('store_audit')
        .select(['actor', 'action', 'request_id'])
        .execute();
      expect(rows).toEqual([{ actor: 'oscar', action: 'set_on_hand', request_id: 'req-9' }]);
      await repository.close();
    } finally {
      await remove();
    }
  });
});
