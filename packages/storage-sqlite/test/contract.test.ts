import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRepositoryContract } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

runRepositoryContract('sqlite :memory:', async () => ({
  repository: await openSqliteRepository({ filename: ':memory:' }),
}));

runRepositoryContract('sqlite file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'fulfil-sqlite-'));
  const filename = join(dir, 'fulfil.db');
  return {
    repository: await openSqliteRepository({ filename }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
    openAnother: () => openSqliteRepository({ filename }),
  };
});
