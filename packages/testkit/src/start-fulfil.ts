import { type Clock, createEngine, type Engine, type SeedInput } from '@fulfil/core';
import { seed as defaultSeed } from '@fulfil/core/testing/fixtures';
import { type LogFn, startHttpServer } from '@fulfil/server';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

export interface StartOptions {
  /** What the instance holds; default `fixtures.seed()`. Tokens need a chosen `token` secret. */
  seed?: SeedInput;
  /** The engine's clock, e.g. a ManualClock from @fulfil/core; default the system clock. */
  clock?: Clock;
  /** Where the server logs one JSON line per request; default nowhere. */
  log?: LogFn;
}

/** A running instance: its REST API at `url`, the engine behind it, and `close()`. */
export interface FulfilInstance {
  /** `http://127.0.0.1:<port>`: the client's `baseUrl`. */
  url: string;
  /** The first store of the seed: the client's `storeCode`. */
  storeCode: string;
  /** The seed's token secrets by token name, e.g. `tokens.partner`. */
  tokens: Record<string, string>;
  /** The engine itself: intake sales orders, play the other side, look at any order. */
  engine: Engine;
  /** Stops the server and closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a complete Fulfil in this process: an engine on a private in-memory SQLite database,
 * loaded with `seed`, served over HTTP on an ephemeral port of 127.0.0.1.
 */
export async function startFulfil(options: StartOptions = {}): Promise<FulfilInstance> {
  const seed = options.seed ?? defaultSeed();
  const engine = createEngine({
    repository: await openSqliteRepository(':memory:'),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  let closed: Promise<void> | undefined;
  try {
    await engine.loadSeed(seed);
    const server = await startHttpServer({ engine, port: 0, log: options.log ?? (() => {}) });
    const tokens: Record<string, string> = {};
    for (const store of seed.stores) {
      for (const token of store.tokens ?? []) if (token.token) tokens[token.name] = token.token;
    }
    return {
      url: server.url,
      storeCode: seed.stores[0]?.code ?? 'default',
      tokens,
      engine,
      close() {
        closed ??= server.close().finally(() => engine.close());
        return closed;
      },
    };
  } catch (error) {
    await engine.close();
    throw error;
  }
}
