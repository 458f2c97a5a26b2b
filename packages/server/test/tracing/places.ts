import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyRepository } from '@fulfil/storage-kysely';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

/** The databases a tracing test runs on: a SQLite file, and Postgres when a URL is given. */

const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;

export interface Place {
  repository: KyselyRepository;
  system: 'sqlite' | 'postgresql';
  namespace: string;
  drop(): Promise<void>;
}

export async function sqliteFile(): Promise<Place> {
  const dir = mkdtempSync(join(tmpdir(), 'fulfil-trace-'));
  // A file: its writes go through group commit.
  const repository = await openSqliteRepository(join(dir, 'traced.db'));
  return {
    repository,
    system: 'sqlite',
    namespace: 'traced.db',
    async drop() {
      await repository.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresSchema(url: string): Promise<Place> {
  const schema = `fulfil_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const repository = await openPostgresRepository({ connectionString: url, schema });
  const database = new URL(url).pathname.slice(1);
  return {
    repository,
    system: 'postgresql',
    namespace: `${database}|${schema}`,
    async drop() {
      try {
        await repository.db.schema.dropSchema(schema).ifExists().cascade().execute();
      } finally {
        await repository.close();
      }
    },
  };
}

export const places: [string, () => Promise<Place>][] = [['sqlite', sqliteFile]];
if (postgresUrl) places.push(['postgres', () => postgresSchema(postgresUrl)]);
else console.log('FULFIL_TEST_POSTGRES_URL is not set: Postgres is skipped here');
