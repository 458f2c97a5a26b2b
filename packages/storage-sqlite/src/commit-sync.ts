import { type FileHandle, open } from 'node:fs/promises';
import { Probe } from '@fulfil/core';
import type { SqliteDatabase } from 'kysely';

/** What the `fulfil:commit-sync` channel tells of a sync. */
export interface CommitSyncMessage {
  /** The database system whose file it syncs. */
  readonly system: 'sqlite';
}

/** Made afresh for each subscriber's message: Node adds `result` or `error` to it. */
const message = (): CommitSyncMessage => ({ system: 'sqlite' });

/**
 * The sync of the WAL file after a write: in the trace of the transaction that wrote (of the
 * group commit's first member), the time its commit waited for the disk. No attribute: it is
 * no statement, so it carries none of a statement span's (`db.*`).
 */
export const commitSyncProbe = new Probe<CommitSyncMessage>({
  channel: 'fulfil:commit-sync',
  scope: '@fulfil/storage-sqlite',
  kind: 'internal',
  spanName: () => 'fulfil WAL sync',
  attributes: () => ({}),
});

/**
 * Makes each write of a WAL file durable before its connection is handed back, with the sync
 * of the file made from the thread pool instead of inside SQLite's COMMIT, which better-sqlite3
 * runs on the event loop's thread: while the disk syncs, the process goes on with every
 * request that is not waiting for the database (parsing, routing, answering), and the writes
 * that queue meanwhile make the next group commit larger.
 *
 * SQLite commits with `synchronous = NORMAL` (it syncs only at checkpoints); this syncs the WAL
 * file once the connection is released after a statement that writes: a transaction's COMMIT
 * or a write outside a transaction. The connection is released only then, so no transaction of
 * this process begins, and no caller is answered, before the write is on disk. A reader in
 * another process may see a commit up to one sync before it is on disk: a power loss in that
 * window loses a write that no caller was told had been made. A failed sync is never retried as
 * the transaction: what it carried has committed.
 */
export class CommitSync {
  readonly #file: SyncedFile;
  readonly #traced: boolean;
  /** Whether a statement that writes has run since the last sync. */
  #wrote = false;

  /** `file` is the WAL file; `traced` false leaves the syncs without a span. */
  constructor(file: SyncedFile, traced = true) {
    this.#file = file;
    this.#traced = traced;
  }

  /**
   * `database` as kysely is to use it, each statement it prepares looked at: one that is no
   * reader and no transaction control (BEGIN, COMMIT, savepoints) writes. kysely prepares every
   * statement it runs (a statement cache under this one prepares only some), so this sees them
   * all. `ImmediateSqliteDialect` watches its database with the `commitSync` it is given.
   */
  watching(database: SqliteDatabase): SqliteDatabase {
    return {
      close: () => database.close(),
      prepare: (sql: string) => {
        const statement = database.prepare(sql);
        if (!this.#wrote && !statement.reader && !TRANSACTION_CONTROL.test(sql)) this.#wrote = true;
        return statement;
      },
    };
  }

  /** Resolves once whatever was written since the last sync is on disk; none if nothing was. */
  afterUse(): Promise<void> | undefined {
    if (!this.#wrote) return undefined;
    // Cleared before the sync: a write after it is the next sync's.
    this.#wrote = false;
    const synced = this.#traced
      ? commitSyncProbe.trace(message, () => this.#file.sync())
      : this.#file.sync();
    return synced.catch((error: unknown) => {
      // Not synced: the next use tries again.
      this.#wrote = true;
      throw syncFailed(error);
    });
  }

  close(): Promise<void> {
    return this.#file.close();
  }
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;

/** A file whose writes can be made durable. */
export interface SyncedFile {
  /** Resolves once what was written to the file is on disk. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a failed sync is reported as: SQLite's own code for it, so that the repository answers
 * it as it answers a disk fault met inside SQLite (the database is unavailable).
 */
function syncFailed(error: unknown): Error {
  return Object.assign(
    new Error('fulfil: the SQLite WAL file could not be synced to disk', {
      cause: error,
    }),
    { code: 'SQLITE_IOERR_FSYNC' },
  );
}

/**
 * `fdatasync` of the file at `path` from the thread pool, through one handle opened at its first
 * sync and kept (SQLite deletes a WAL file only once its last connection closes, and this one
 * stays open until `close`).
 */
export function syncedFile(path: string): SyncedFile {
  let handle: Promise<FileHandle> | undefined;
  return {
    async sync() {
      handle ??= open(path, 'r');
      try {
        await (await handle).datasync();
      } catch (error) {
        // Opened afresh at the next sync, whatever failed.
        const failed = handle;
        handle = undefined;
        await failed.then((opened) => opened.close()).catch(() => {});
        throw error;
      }
    },
    async close() {
      const opened = handle;
      handle = undefined;
      await opened?.then((file) => file.close()).catch(() => {});
    },
  };
}
