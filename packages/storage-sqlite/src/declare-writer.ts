import { WRITER_GENERATION, WRITER_GENERATION_FUNCTION } from '@fulfil/storage-kysely';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Declares on this connection the writer generation this code writes as (storage-kysely's
 * writer-generation.ts): without it, every write to a table the schema guards is refused. The
 * adapter declares it on the connection it opens; a connection of your own (a tool that writes
 * to the file beside Fulfil) must too, and must then keep up what Fulfil's writers keep up.
 * Returns the connection.
 */
export function declareWriterGeneration<D extends BetterSqlite3.Database>(sqlite: D): D {
  sqlite.function(WRITER_GENERATION_FUNCTION, { deterministic: true }, () => WRITER_GENERATION);
  return sqlite;
}
