import {
  type OtherProcesses,
  type QueueChangeListener,
  TOKENS_CHANNEL,
  type TokenWatch,
} from '@fulfil/storage-kysely';
import pg from 'pg';

/** The channel write transactions NOTIFY with their store's id (change-feed.ts). */
export const CHANGES_CHANNEL = 'fulfil_changes';

/** How long to wait before connecting again after the listening connection failed. */
const RECONNECT_MS = 1_000;

/** What other processes commit, as this process hears it from Postgres. */
export interface PostgresListener {
  /** Queue changes, for long polls (docs/polling.md). */
  changes: OtherProcesses;
  /** Token changes, for the tokens the repository keeps (token-cache.ts). */
  tokens: TokenWatch;
  /** Token changes, for `onTokenChange` (held long polls check their token again). */
  tokenChanges: OtherProcesses;
}

/**
 * Other processes' commits on Postgres: one connection of its own per process, outside the pool,
 * that LISTENs on {@link CHANGES_CHANNEL} (each notification names the store a transaction
 * changed) and on {@link TOKENS_CHANNEL} (a token changed). It is opened when a long poll
 * first waits or a token is first looked up, kept until the repository closes, and connected
 * again a second after it is lost.
 *
 * Whatever committed while it was not connected was not heard: once connected (and again after
 * a reconnect) it tells queue and token listeners `null`, and the token version moves. While it
 * is not connected, the token version is undefined, so no token is kept.
 */
export function listenOnPostgres(config: pg.ClientConfig): PostgresListener {
  /** Who is told of queue changes, and of token changes, while anyone listens. */
  const queues: { emit?: QueueChangeListener | undefined } = {};
  const tokens: { emit?: QueueChangeListener | undefined } = {};
  let tokensWatched = false;
  /** Moves with every token notification and every (re)connect. */
  let tokenVersion = 0;
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const wanted = () =>
    !closed && (queues.emit !== undefined || tokens.emit !== undefined || tokensWatched);

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      // Keep-alive: a connection that dies without a word is found out, and tokens read again.
      const next = new pg.Client({
        ...config,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      const lost = () => {
        if (client === next) client = undefined;
        next.end().catch(() => {});
        if (wanted() && !retry) {
          retry = setTimeout(() => {
            retry = undefined;
            if (wanted()) void connect();
          }, RECONNECT_MS);
          retry.unref();
        }
      };
      next.on('error', lost);
      next.on('end', lost);
      next.on('notification', (message) => {
        if (message.channel === TOKENS_CHANNEL) {
          // The version first: whoever is told reads the token anew.
          tokenVersion += 1;
          tokens.emit?.(null);
          return;
        }
        const storeId = Number(message.payload);
        queues.emit?.(Number.isSafeInteger(storeId) ? storeId : null);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${CHANGES_CHANNEL}; LISTEN ${TOKENS_CHANNEL}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        tokenVersion += 1;
        queues.emit?.(null);
        tokens.emit?.(null);
      } catch {
        lost();
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const close = async () => {
    closed = true;
    queues.emit = undefined;
    tokens.emit = undefined;
    clearTimeout(retry);
    await connecting;
    await client?.end().catch(() => {});
    client = undefined;
  };

  /** The source of one kind of change: told null at once when it starts while connected. */
  const sourceOf = (slot: typeof queues): OtherProcesses => ({
    start(listener) {
      slot.emit = listener;
      if (client) listener(null);
      else void connect();
    },
    stop() {
      // The connection stays: the next listener would open it again at once.
      slot.emit = undefined;
    },
    close,
  });

  return {
    changes: sourceOf(queues),
    tokenChanges: sourceOf(tokens),
    tokens: {
      version() {
        tokensWatched = true;
        if (client) return tokenVersion;
        if (!closed && !connecting && !retry) void connect();
        return undefined;
      },
      close,
    },
  };
}
