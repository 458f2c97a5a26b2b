import type { Repository } from '@fulfil/core';
import { exportStore, importStore, type KyselyRepository } from '@fulfil/storage-kysely';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

/** The dump of store `code` of `from`, as the NDJSON text `fulfil store export` writes. */
export async function dumpText(from: Repository, code = 'default'): Promise<string> {
  let text = '';
  for await (const chunk of exportStore(from as KyselyRepository, code))
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

/** A new in-memory SQLite database holding store `code` of the dump `text`. */
export async function importedSqlite(text: string, code = 'default'): Promise<KyselyRepository> {
  const to = (await openSqliteRepository(':memory:')) as KyselyRepository;
  async function* records() {
    let line = 0;
    for (const value of text.split('\n').filter(Boolean))
      yield { line: ++line, value: JSON.parse(value) };
  }
  await importStore(to, code, records());
  return to;
}
