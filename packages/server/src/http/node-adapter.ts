import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { stdoutLog } from './batched-lines.js';
import { HttpError, shuttingDown } from './errors.js';
import { gracefulClose } from './graceful-close.js';
import {
  createRequestHandler,
  DEFAULT_BODY_LIMIT,
  type RequestHandler,
  type RequestHandlerOptions,
  tooLarge,
} from './handler.js';
import { traceRequests, withTraceIds } from './request-span.js';
import type { HttpEngine, HttpRequest, HttpResponse } from './types.js';

/** The one file that touches node:http: sockets in, plain requests to the handler, bytes out. */

export interface HttpServerOptions extends RequestHandlerOptions {
  engine: HttpEngine;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: an ephemeral port (see `url`). */
  port?: number;
  /** Longest body accepted, in bytes; default 4 MiB. Longer ones get 413 without being buffered. */
  bodyLimit?: number;
  /** Most time to receive a whole request (node's `requestTimeout`); default node's (300 s). */
  requestTimeoutMs?: number;
  /** Most time to receive the headers (node's `headersTimeout`); default node's (60 s). */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open; default node's (5 s). */
  keepAliveTimeoutMs?: number;
  /**
   * On `close()`, how long requests still under way (a slow body, a slow answer) get before
   * their connections are closed; default 10,000 ms.
   */
  shutdownGraceMs?: number;
  /**
   * A server span per request (request-span.ts) and the trace id in its log line, when an
   * OpenTelemetry SDK is registered. Default true; false removes the probe.
   */
  tracing?: boolean;
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export interface RunningHttpServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  /**
   * Shuts down: idle keep-alive connections are closed at once; connections still queued in
   * the backlog are accepted and, like every request that starts from now on, answered 503;
   * requests in flight are answered; whatever is left when the grace period ends is cut off.
   * Resolves once every connection and the listener are closed. Safe to call twice.
   */
  close(): Promise<void>;
}

/** The body of every request that has none (most GETs): one buffer, not one per request. */
const NO_BODY = Buffer.alloc(0);

type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * How much of a body over `bodyLimit` is read and dropped before the 413, so that a client
 * that writes its whole body before it reads (Node's fetch does) gets the answer instead of a
 * reset. Past it the connection is closed unread. Dropping costs no memory, and the request
 * timeout bounds how long a slow one may take.
 */
export function discardLimitOf(bodyLimit: number): number {
  return 16 * bodyLimit;
}

/**
 * Reads the body up to `limit` bytes. Past it, keeps reading without keeping anything, up to
 * `discardLimitOf(limit)` (or its end, if that comes first), and reports `too_large`.
 */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const discardLimit = discardLimitOf(limit);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > discardLimit)
    return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > discardLimit) {
        done({ ok: false, reason: 'too_large' });
      } else if (size > limit) {
        chunks.length = 0;
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () =>
      done(
        size > limit
          ? { ok: false, reason: 'too_large' }
          : { ok: true, body: size === 0 ? NO_BODY : Buffer.concat(chunks, size) },
      );
    const onError = () => done({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/**
 * A request as read from its socket. Its `signal` is made on first use only: most requests never
 * ask whether their client is still there. A class, so that every request has one hidden class.
 */
class SocketRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  readonly remoteAddress: string | undefined;
  readonly secure: boolean;
  readonly #res: ServerResponse | undefined;
  #signal: AbortSignal | undefined;

  constructor(req: IncomingMessage, body: Buffer, res?: ServerResponse) {
    const target = req.url ?? '/';
    const mark = target.indexOf('?');
    this.method = req.method ?? 'GET';
    this.path = mark === -1 ? target : target.slice(0, mark);
    this.query = new URLSearchParams(mark === -1 ? '' : target.slice(mark + 1));
    this.headers = req.headers;
    this.body = body;
    this.remoteAddress = req.socket.remoteAddress;
    this.secure = 'encrypted' in req.socket && req.socket.encrypted === true;
    this.#res = res;
  }

  /** Aborts when the connection closes before the answer is written. */
  get signal(): AbortSignal | undefined {
    if (this.#res) this.#signal ??= closeSignal(this.#res);
    return this.#signal;
  }
}

function closeSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!res.writableFinished) controller.abort();
  };
  if (res.closed) gone();
  else res.once('close', gone);
  return controller.signal;
}

function plainRequest(req: IncomingMessage, body: Buffer): HttpRequest {
  return new SocketRequest(req, body);
}

/** What node could not even parse as a request, and how to say so. */
function unparsable(error: NodeJS.ErrnoException): HttpError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new HttpError(431, 'The request headers are too large.');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new HttpError(408, 'The request took too long to arrive.');
  }
  return new HttpError(400, 'The request is not valid HTTP.');
}

/**
 * Answers a request node's parser refused (node would write a bare status line) with the error
 * body every other failure has, then closes the connection.
 */
function answerUnparsable(handler: RequestHandler, error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  // Nothing of the request is known: its log line says so.
  const request = { method: '-', path: '-', query: new URLSearchParams(), headers: {} };
  writeAndClose(socket, handler.fail(request, unparsable(error)));
}

/** Writes `response` on a socket node has handed over (no ServerResponse), then closes it. */
function writeAndClose(socket: Duplex, response: HttpResponse): void {
  const body = bytesOf(response);
  const headers = Object.entries({ ...response.headers, 'content-length': String(body.length) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const status = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`;
  socket.end(
    Buffer.concat([Buffer.from(`${status}\r\n${headers}connection: close\r\n\r\n`), body]),
  );
}

function bytesOf(response: HttpResponse): Buffer {
  return typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : response.body;
}

function write(
  res: ServerResponse,
  response: HttpResponse,
  extraHeaders: Record<string, string> = {},
): void {
  const body = bytesOf(response);
  res.writeHead(response.status, {
    ...response.headers,
    ...extraHeaders,
    // A 304 has no body; its length would be the 200's, which it does not repeat.
    ...(response.status === 304 ? {} : { 'content-length': String(body.length) }),
  });
  res.end(body);
}

export function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { engine, host = '127.0.0.1', port = 0 } = options;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const tracing = options.tracing !== false;
  const log = options.log ?? stdoutLog;
  const handler: RequestHandler = tracing
    ? traceRequests(createRequestHandler(engine, { ...options, bodyLimit, log: withTraceIds(log) }))
    : createRequestHandler(engine, { ...options, bodyLimit, log });
  const { requestTimeoutMs: requestTimeout, headersTimeoutMs: headersTimeout } = options;
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;

  const server = createServer(
    {
      ...(requestTimeout === undefined ? {} : { requestTimeout }),
      ...(headersTimeout === undefined ? {} : { headersTimeout }),
    },
    (req, res) => {
      if (shutdown.closing) {
        write(res, handler.fail(plainRequest(req, NO_BODY), shuttingDown()), {
          connection: 'close',
        });
        return;
      }
      // While closing, each answer ends its connection, so keep-alive cannot hold close() open.
      const closeHeader = (): Record<string, string> =>
        shutdown.closing ? { connection: 'close' } : {};
      // The handler never throws; this is the last guard for a failing write.
      const lastGuard = (error: unknown) => {
        if (!res.headersSent) {
          write(res, handler.fail(plainRequest(req, NO_BODY), error), { connection: 'close' });
        } else {
          res.destroy();
        }
      };
      void readBody(req, bodyLimit)
        .then((read) => {
          if (read.ok) {
            // Chained, not awaited: a held long poll keeps no suspended frame of this callback.
            handler(new SocketRequest(req, read.body, res)).then((response) => {
              try {
                write(res, response, closeHeader());
              } catch (error) {
                lastGuard(error);
              }
            }, lastGuard);
          } else if (read.reason === 'too_large') {
            // Nothing of the body was kept. Past the discard limit, the rest is left unread.
            const response = handler.fail(plainRequest(req, NO_BODY), tooLarge(bodyLimit));
            write(res, response, { connection: 'close' });
          } else {
            res.destroy(); // the client went away
          }
        })
        .catch(lastGuard);
    },
  );
  const shutdown = gracefulClose(server);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerUnparsable(handler, error, socket),
  );
  // Node hands CONNECT to this event (and closes the socket unanswered when nobody listens):
  // the handler answers it like any other request, with its 405.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    void handler(plainRequest(req, NO_BODY)).then((response) => {
      if (socket.writable) writeAndClose(socket, response);
      else socket.destroy();
    });
  });
  if (options.keepAliveTimeoutMs !== undefined) {
    server.keepAliveTimeout = options.keepAliveTimeoutMs;
  }

  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}`,
        close: () => {
          // Held long polls answer at once (200, what they last found, and the cursor).
          handler.endWaits();
          return shutdown.close(graceMs);
        },
      });
    });
  });
}
