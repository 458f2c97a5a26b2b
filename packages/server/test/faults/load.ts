import { request } from 'node:http';

/**
 * Clients that keep a server busy while faults are injected: each sends one request after the
 * other, every request on a new connection (no keep-alive agent), and records what came back.
 */

export interface Outcome {
  request: Exchange;
  /** performance.now() when the request was sent and when its answer (or failure) came. */
  sent: number;
  done: number;
  /** The HTTP status; null when no answer came (`failure` says why). */
  status: number | null;
  retryAfter: string | undefined;
  body: unknown;
  failure?: string;
}

export interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  token: string;
  body?: unknown;
}

/**
 * A request that has no answer after this long counts as hung: far past the pool's own wait
 * (10 s), so only silence fails, never a slow machine.
 */
export const HUNG_AFTER_MS = 60_000;

/** One request on a connection of its own. Never rejects: a failure is an outcome too. */
export function send(baseUrl: string, exchange: Exchange): Promise<Outcome> {
  const sent = performance.now();
  const payload = exchange.body === undefined ? undefined : JSON.stringify(exchange.body);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Omit<Outcome, 'request' | 'sent' | 'done'>) => {
      if (settled) return;
      settled = true;
      resolve({ request: exchange, sent, done: performance.now(), ...outcome });
    };
    const req = request(
      `${baseUrl}/rest/default/V1/${exchange.path}`,
      {
        method: exchange.method,
        agent: false,
        headers: {
          authorization: `Bearer ${exchange.token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        timeout: HUNG_AFTER_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) =>
          settle({ status: null, retryAfter: undefined, body: null, failure: error.message }),
        );
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {}
          const retryAfter = res.headers['retry-after'];
          settle({ status: res.statusCode ?? null, retryAfter, body });
        });
      },
    );
    req.on('timeout', () => {
      settle({ status: null, retryAfter: undefined, body: null, failure: 'hung' });
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      settle({
        status: null,
        retryAfter: undefined,
        body: null,
        failure: error.code ?? error.message,
      }),
    );
    req.end(payload);
  });
}

export interface Load {
  /** Everything answered so far, in the order it came. */
  outcomes: Outcome[];
  /** Stops sending; resolves once every client's last request has come back. */
  stop(): Promise<Outcome[]>;
}

/** `clients` loops, each sending `next(client, n)` then the next one as soon as it is answered. */
export function startLoad(
  baseUrl: string,
  clients: number,
  next: (client: number, n: number) => Exchange,
): Load {
  const outcomes: Outcome[] = [];
  let stopping = false;
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let n = 0; !stopping; n++) outcomes.push(await send(baseUrl, next(client, n)));
  });
  return {
    outcomes,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      return outcomes;
    },
  };
}
