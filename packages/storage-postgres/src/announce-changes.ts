import { AsyncResource } from 'node:async_hooks';
import pg from 'pg';
import { CHANGES_CHANNEL } from './listen-for-changes.js';

/**
 * Tells other processes, on {@link CHANGES_CHANNEL}, the stores this process's write
 * transactions changed, once they have committed (their long polls wake on it, docs/polling.md).
 *
 * Not from inside the write transactions: Postgres commits a transaction that sent NOTIFY while
 * holding a lock of the whole cluster until its commit record is flushed, so transactions that
 * notify commit one at a time, never sharing a WAL flush; on a machine where pgbench's TPC-B
 * commits 2,200 transactions a second, the same transactions with a NOTIFY commit 600. Here one
 * connection of its own sends the announcements, each statement every store changed since the
 * last one, with `synchronous_commit` off (a notification is not durable anyway): under load
 * one statement announces the commits of many requests, and holds that lock for no flush.
 *
 * An announcement is sent after the commit, so a process that dies in between (kill -9) takes
 * it along: a long poll of another process then answers at the end of its wait, and its next
 * poll sees the change. No change is lost; only that wake-up.
 */
export interface ChangeAnnouncer {
  announce(storeIds: Iterable<number>): void;
  /** Sends what is still waiting (within a bound), then closes the connection. */
  close(): Promise<void>;
}

const NOTIFY_STORES = `select pg_notify('${CHANGES_CHANNEL}', store) from unnest($1::text[]) as store`;
/**
 * The least time between two announcements' starts: under load, one statement announces the
 * commits of many requests; a wake-up across processes comes at most this much later.
 */
const ANNOUNCE_EVERY_MS = 10;
/** How long `close` waits for the last announcement. */
const CLOSE_TIMEOUT_MS = 2_000;

export function announceOnPostgres(config: pg.ClientConfig): ChangeAnnouncer {
  const waiting = new Set<number>();
  let client: pg.Client | undefined;
  let sending: Promise<void> | undefined;
  let closed = false;
  /** When the last announcement was sent. */
  let lastSent = Number.NEGATIVE_INFINITY;

  const connected = async (): Promise<pg.Client> => {
    if (client) return client;
    const next = new pg.Client({
      ...config,
      // Appended to the config's options (its search_path): a notification is not durable.
      options: [config.options, '-c synchronous_commit=off'].filter(Boolean).join(' '),
    });
    // A connection that fails is dropped; the next announcement connects again.
    next.on('error', () => {
      if (client === next) client = undefined;
    });
    try {
      await next.connect();
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    client = next;
    return next;
  };

  const send = async (): Promise<void> => {
    while (waiting.size > 0) {
      // Every commit until then in one statement: at least this turn of the event loop's.
      const due = lastSent + ANNOUNCE_EVERY_MS - performance.now();
      await new Promise((resolve) =>
        due > 0 && !closed ? setTimeout(resolve, due) : setImmediate(resolve),
      );
      lastSent = performance.now();
      const stores = [...waiting].map(String);
      waiting.clear();
      let used: pg.Client | undefined;
      try {
        used = await connected();
        await used.query(NOTIFY_STORES, [stores]);
      } catch {
        // Not announced: the waiters of other processes answer at the end of their wait.
        if (used && client === used) client = undefined;
        used?.end().catch(() => {});
        break;
      }
    }
    // In the same turn as the last look at `waiting`: a store added later starts a send of its own.
    sending = undefined;
  };

  // In the context the announcer was made in, not the committing request's: the announcement is
  // no statement of that request (its trace, its log).
  const start = AsyncResource.bind(send);
  return {
    announce(storeIds) {
      if (closed) return;
      for (const storeId of storeIds) waiting.add(storeId);
      sending ??= start();
    },
    async close() {
      closed = true;
      if (sending) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          sending,
          new Promise((resolve) => {
            timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
