import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '../../src/http/node-adapter.js';
import { killAll, PARTNER, startServer, storeSeed, writeSeed } from '../scale-out/support.js';

/**
 * SIGTERM on `fulfil serve`: it stops taking new work, answers the requests in flight, closes
 * idle keep-alive connections at once, gives requests still arriving the grace period and no
 * more, answers connections that were waiting in the listen backlog instead of resetting them,
 * and exits 0.
 */

const GRACE_S = 2;
const POLL = '/rest/default/V1/fulfillmentOrders/pending_accept';

/** A client on a raw socket: writes what it is told, keeps everything it gets. */
interface RawClient {
  socket: Socket;
  received(): string;
  /** performance.now() when the connection ended, and how (the socket error's code, if any). */
  ended: Promise<{ at: number; error?: string }>;
}

function rawClient(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    let error: string | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    const ended = new Promise<{ at: number; error?: string }>((done) =>
      socket.once('close', () =>
        done({ at: performance.now(), ...(error === undefined ? {} : { error }) }),
      ),
    );
    socket.once('connect', () => resolve({ socket, received: () => text, ended }));
    socket.once('error', reject);
  });
}

const head = (method: string, path: string, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${PARTNER}\r\n${extra}`;

const stockBody = JSON.stringify({
  stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 7 }],
});
/** Asks for `100 Continue`: the server sends it once it has read the headers. */
const postHead = (length: number) =>
  head(
    'POST',
    '/rest/default/V1/stockItems',
    `Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`,
  );
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/** The status line and headers of the first response in `text`, or null while incomplete. */
function firstResponse(received: string): { status: number; headers: string } | null {
  const text = received.startsWith(CONTINUE) ? received.slice(CONTINUE.length) : received;
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, headers: text.slice(0, end).toLowerCase() };
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('fulfil serve: graceful shutdown', () => {
  let dir: string;
  let seedFile: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-shutdown-'));
    seedFile = await writeSeed(dir, storeSeed([], []));
  });
  afterEach(() => killAll());
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const scenario = async (mode: string, extra: string[]) => {
    const server = await startServer([
      '--db',
      `sqlite:${join(dir, `${mode}.db`)}`,
      '--seed',
      seedFile,
      '--courier-interval',
      '0',
      '--shutdown-grace',
      String(GRACE_S),
      ...extra,
    ]);

    // An idle keep-alive connection: one request answered, then silence.
    const idle = await rawClient(server.url);
    idle.socket.write(`${head('GET', POLL)}\r\n`);
    await until(() => firstResponse(idle.received())?.status === 200, 'the idle one’s answer');
    // A request in flight: its headers and half its body are in when SIGTERM comes.
    const inFlight = await rawClient(server.url);
    inFlight.socket.write(postHead(stockBody.length) + stockBody.slice(0, 10));
    // Half-sent ones that never finish: a body, and the headers themselves.
    const halfBody = await rawClient(server.url);
    halfBody.socket.write(postHead(stockBody.length) + stockBody.slice(0, 10));
    const halfHead = await rawClient(server.url);
    halfHead.socket.write(head('GET', POLL));
    await until(
      () => inFlight.received() === CONTINUE && halfBody.received() === CONTINUE,
      'the headers of both posts read',
    );

    // Frozen, the server accepts nothing: these connections wait in the listen backlog.
    process.kill(server.pid, 'SIGSTOP');
    const queued = await Promise.all(Array.from({ length: 4 }, () => rawClient(server.url)));
    for (const client of queued) client.socket.write(`${head('GET', POLL)}\r\n`);
    process.kill(server.pid, 'SIGTERM');
    const resumed = performance.now();
    process.kill(server.pid, 'SIGCONT');

    // The request in flight finishes after SIGTERM, within the grace: it is answered. The idle
    // connection closing says the stop has begun, however long the signal took to arrive.
    const idleEnd = await idle.ended;
    inFlight.socket.write(stockBody.slice(10));

    const exitCode = await server.exited;
    const exitedAfter = performance.now() - resumed;
    const halfBodyEnd = await halfBody.ended;
    await halfHead.ended;

    console.log(
      `shutdown, ${mode}: exit ${exitCode} ${Math.round(exitedAfter)} ms after SIGTERM ` +
        `(grace ${GRACE_S} s); idle connection closed after ${Math.round(idleEnd.at - resumed)} ms; ` +
        `backlog: ${queued.map((client) => firstResponse(client.received())?.status ?? 'reset').join(', ')}`,
    );
    expect(exitCode).toBe(0);
    expect(server.stdout()).toContain('SIGTERM received: stopping…');
    // Idle keep-alive: closed at once, not at the end of the grace.
    expect(idleEnd.at).toBeLessThan(halfBodyEnd.at);
    // In flight: answered in full, and told that the connection closes.
    const answer = firstResponse(inFlight.received());
    expect(answer?.status, inFlight.received()).toBe(200);
    expect(answer?.headers).toContain('connection: close');
    // Half-sent: cut when the grace ends, neither before nor long after.
    expect(halfBodyEnd.at - resumed).toBeGreaterThan(GRACE_S * 1000 - 250);
    // Generous for a slow machine, yet short of the default grace: the one asked for was kept.
    expect(exitedAfter).toBeLessThan(DEFAULT_SHUTDOWN_GRACE_MS);
    // Waiting in the backlog: an answer, never a reset. Served when it was read before the
    // signal was; otherwise 503 + Retry-After and the error body.
    const backlog = queued.map((client) => firstResponse(client.received()));
    queued.forEach((client, i) => {
      const reply = backlog[i];
      expect([200, 503], client.received()).toContain(reply?.status);
      if (reply?.status === 503) {
        expect(reply.headers).toContain('retry-after: 1');
        expect(client.received()).toContain('"message":');
      }
    });
  };

  it('one process', async () => {
    await scenario('single', []);
  }, 60_000);

  it('--workers 2', async () => {
    await scenario('workers', ['--workers', '2']);
  }, 60_000);
});
