import type { OtherProcesses, QueueChangeListener } from '@fulfil/storage-kysely';
import pg from 'pg';

/** The channel write transactions NOTIFY with their store's id (change-feed.ts). */
export const CHANGES_CHANNEL = 'fulfil_changes';

/** How long to wait before connecting again after the listening connection failed. */
const RECONNECT_MS = 1_000;

/**
 * Other processes' commits on Postgres (docs/polling.md): one connection of its own per process,
 * outside the pool, that LISTENs on {@link CHANGES_CHANNEL}; opened when a long poll first waits
 * and kept until the repository closes, however many wait. Each notification names the store a
 * transaction changed; after connecting (and reconnecting) it calls with null, since whatever
 * committed meanwhile was not heard.
 */
export function listenForChanges(config: pg.ClientConfig): OtherProcesses {
  let emit: QueueChangeListener | undefined;
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const next = new pg.Client(config);
      const lost = () => {
        if (client === next) client = undefined;
        next.end().catch(() => {});
        if (!closed && emit && !retry) {
          retry = setTimeout(() => {
            retry = undefined;
            if (!closed && emit) void connect();
          }, RECONNECT_MS);
          retry.unref();
        }
      };
      next.on('error', lost);
      next.on('end', lost);
      next.on('notification', (message) => {
        const storeId = Number(message.payload);
        emit?.(Number.isSafeInteger(storeId) ? storeId : null);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${CHANGES_CHANNEL}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        emit?.(null);
      } catch {
        lost();
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    start(listener) {
      emit = listener;
      if (client) emit(null);
      else void connect();
    },
    stop() {
      // The connection stays: the next long poll would open it again at once.
      emit = undefined;
    },
    async close() {
      closed = true;
      emit = undefined;
      clearTimeout(retry);
      await connecting;
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
