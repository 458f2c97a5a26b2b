import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createEngine, ManualClock } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { exportStore, type KyselyRepository } from '@fulfil/storage-kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepository } from '../../src/database-url.js';
import { START, testSeed } from '../http/support.js';
import { runCli, tempDir } from './run-cli.js';

const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;
/** Three pages of orders: the export reads a thousand at a time. */
const ORDERS = 2_500;

const numberOf = (i: number) => String(700_000_000 + i);
const orderOf = (i: number) =>
  fixtures.salesOrder(
    numberOf(i),
    [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'SKU-2', qty: 1 },
    ],
    { warehouse_code: 'WH-A' },
  );

async function textOf(chunks: AsyncIterable<string | Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += textOfChunk(chunk);
  return text;
}

/** A chunk of a dump as text (each holds whole lines, so no character is cut in two). */
const textOfChunk = (chunk: string | Uint8Array) =>
  typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');

async function withRepository<T>(db: string, work: (repository: KyselyRepository) => Promise<T>) {
  const repository = (await openRepository(db)) as KyselyRepository;
  try {
    return await work(repository);
  } finally {
    await repository.close();
  }
}

async function withEngine(db: string, work: (engine: ReturnType<typeof createEngine>) => unknown) {
  const engine = createEngine({
    repository: await openRepository(db),
    clock: new ManualClock(START),
  });
  try {
    await work(engine);
  } finally {
    await engine.close();
  }
}

/**
 * Store `default` with ORDERS orders and store `other` with a few between them, some changed
 * after the rest were taken in (their new audit rows have ids past every order's).
 */
async function fillStore(db: string): Promise<void> {
  await withEngine(db, async (engine) => {
    await engine.loadSeed(testSeed());
    for (let start = 0; start < ORDERS; start += 500) {
      const batch = Array.from({ length: 500 }, (_, i) => orderOf(start + i));
      await engine.intakeBatch('default', batch);
      await engine.intake(
        'other',
        fixtures.salesOrder(`9${start}`, [{ sku: 'SKU-9', qty: 1 }], { warehouse_code: 'WH-X' }),
      );
    }
    await engine.cancelOrder('default', `${numberOf(1500)}-1`);
    await engine.failOrder('default', `${numberOf(10)}-1`, 'warehouse flooded');
  });
}

/** Writes from a connection of their own: orders on every page change, one is added. */
async function writeMeanwhile(db: string): Promise<void> {
  await withEngine(db, async (engine) => {
    await engine.failOrder('default', `${numberOf(5)}-1`, 'lost in transit');
    await engine.cancelOrder('default', `${numberOf(1200)}-1`);
    await engine.failOrder('default', `${numberOf(2400)}-1`, 'lost in transit');
    await engine.intake('default', orderOf(ORDERS));
  });
}

/**
 * The export of store `default`, with `meanwhile` run (and committed) once its first page of
 * orders is out and the rest is still to be read.
 */
async function exportWhile(db: string, meanwhile: () => Promise<void>): Promise<string> {
  return withRepository(db, async (repository) => {
    let text = '';
    let written = false;
    for await (const chunk of exportStore(repository, 'default')) {
      text += textOfChunk(chunk);
      if (!written && text.includes('{"table":"fulfillment_orders"')) {
        await meanwhile();
        written = true;
      }
    }
    expect(written).toBe(true);
    return text;
  });
}

/**
 * The rows of every table that hangs off orders come right after the page of orders they belong
 * to (the import relies on it); returns the number of pages.
 */
function pagesOf(dump: string): number {
  let pages = 0;
  let page = new Set<number>();
  let last = '';
  for (const line of dump.trimEnd().split('\n').slice(1)) {
    const { table, row } = JSON.parse(line) as { table: string; row: Record<string, number> };
    if (table === 'fulfillment_orders') {
      if (last !== table) {
        pages++;
        page = new Set();
      }
      page.add(row.id as number);
    } else if (row.order_id !== undefined) {
      expect(page.has(row.order_id), line).toBe(true);
    }
    last = table;
  }
  return pages;
}

describe('fulfil export reads the store as one snapshot', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
  });
  afterEach(() => remove());

  it('SQLite: what commits during an export is not in it, in part or whole', async () => {
    const db = `sqlite:${join(dir, 'store.db')}`;
    await fillStore(db);
    const before = await withRepository(db, (repository) =>
      textOf(exportStore(repository, 'default')),
    );
    expect(pagesOf(before)).toBe(3);

    const during = await exportWhile(db, () => writeMeanwhile(db));
    expect(during).toBe(before);
    // The writes did commit: the next export has them.
    const after = await withRepository(db, (repository) =>
      textOf(exportStore(repository, 'default')),
    );
    expect(after).toContain('lost in transit');
    expect(after).toContain(`"sales_order_number":"${numberOf(ORDERS)}"`);

    // The dump taken during the writes imports, and the import dumps the same again.
    const dump = join(dir, 'during.ndjson');
    await writeFile(dump, during);
    const moved = `sqlite:${join(dir, 'moved.db')}`;
    expect((await runCli(['import', dump, '--db', moved])).stderr.text).toBe('');
    expect((await runCli(['export', '--db', moved])).stdout.text).toBe(during);
  });

  it('SQLite: an export stopped early lets go of the database', async () => {
    const db = `sqlite:${join(dir, 'store.db')}`;
    await fillStore(db);
    await withRepository(db, async (repository) => {
      const chunks = exportStore(repository, 'default');
      await chunks.next();
      await chunks.next();
      await chunks.return(undefined);
      // SQLite has one connection a repository: held by a forgotten snapshot, this would wait.
      const stores = await repository.db.selectFrom('stores').select('code').execute();
      expect(stores.map((store) => store.code).sort()).toEqual(['default', 'other']);
    });
  });

  it(
    'Postgres: the same dump as SQLite, page for page, and none of what commits meanwhile',
    skipUnless(postgresUrl, 'FULFIL_TEST_POSTGRES_URL is not set'),
    async () => {
      const sqlite = `sqlite:${join(dir, 'store.db')}`;
      await fillStore(sqlite);
      const dump = join(dir, 'store.ndjson');
      expect((await runCli(['export', '--out', dump, '--db', sqlite])).code).toBe(0);
      const fromSqlite = await readFile(dump, 'utf8');
      expect(pagesOf(fromSqlite)).toBe(3);

      const schema = `export_test_${process.pid}_${Date.now()}`;
      const url = new URL(postgresUrl as string);
      url.searchParams.set('schema', schema);
      const postgres = url.toString();
      try {
        expect((await runCli(['import', dump, '--db', postgres])).stderr.text).toBe('');
        const during = await exportWhile(postgres, () => writeMeanwhile(postgres));
        expect(during).toBe(fromSqlite);
        const after = await withRepository(postgres, (repository) =>
          textOf(exportStore(repository, 'default')),
        );
        expect(after).toContain('lost in transit');
        expect(pagesOf(after)).toBe(3);

        // Stopped early, it gives its connection back: closing the pool would wait for it.
        await withRepository(postgres, async (repository) => {
          const chunks = exportStore(repository, 'default');
          await chunks.next();
          await chunks.return(undefined);
        });
      } finally {
        await withRepository(postgres, (repository) =>
          repository.db.schema.dropSchema(schema).ifExists().cascade().execute(),
        );
      }
    },
  );
});
