import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The shutdown sequence of a node:http server:
 *
 * 1. Connections idle between keep-alive requests are closed at once.
 * 2. The listener stays open until no connection has arrived for {@link DRAIN_QUIET_MS}: closing
 *    it would reset the connections still waiting in the kernel's backlog, so they are accepted
 *    and their requests answered (the caller answers new requests with a 503 while closing).
 * 3. Requests in flight are answered; each answer closes its connection.
 * 4. When the grace period ends, every connection left (a body or headers still arriving, a
 *    client that sent nothing) is closed.
 */

/** How long the listener must see no new connection before it closes: the backlog is empty. */
const DRAIN_QUIET_MS = 100;

export interface GracefulClose {
  /** Whether the shutdown has begun: new requests should be turned away, with a 503. */
  readonly closing: boolean;
  /** Runs the sequence once; resolves when every connection and the listener are closed. */
  close(graceMs: number): Promise<void>;
}

interface ConnectionState {
  /** Requests received on it. */
  requests: number;
  /** Requests received and not yet answered. */
  open: number;
}

/** Tracks the server's connections from now on, and runs its shutdown when asked. */
export function gracefulClose(server: Server): GracefulClose {
  const connections = new Map<Socket, ConnectionState>();
  let lastConnectionAt = performance.now();
  let closing: Promise<void> | null = null;

  server.on('connection', (socket: Socket) => {
    lastConnectionAt = performance.now();
    connections.set(socket, { requests: 0, open: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req, res) => {
    const state = connections.get(req.socket);
    if (!state) return;
    state.requests += 1;
    state.open += 1;
    res.once('close', () => {
      state.open -= 1;
      // An answer begun before the shutdown may have promised keep-alive: end it anyway.
      if (closing && state.open === 0) req.socket.end();
    });
  });

  const closeIdle = () => {
    for (const [socket, state] of connections) {
      // One that has sent nothing yet may be a backlog connection whose request is on its way.
      if (state.requests > 0 && state.open === 0) socket.destroy();
    }
  };

  const sequence = async (graceMs: number) => {
    const deadline = performance.now() + graceMs;
    // The backlog may hold connections not accepted yet: listen a moment longer in any case.
    lastConnectionAt = performance.now();
    closeIdle();
    const graceEnds = setTimeout(() => server.closeAllConnections(), graceMs);
    try {
      for (;;) {
        const quietFor = performance.now() - lastConnectionAt;
        const left = deadline - performance.now();
        if (quietFor >= DRAIN_QUIET_MS || left <= 0) break;
        await sleep(Math.min(DRAIN_QUIET_MS - quietFor, left));
      }
      // node's close() also closes every connection with no request under way.
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
      });
    } finally {
      clearTimeout(graceEnds);
    }
  };

  return {
    get closing() {
      return closing !== null;
    },
    close(graceMs) {
      closing ??= sequence(graceMs);
      return closing;
    },
  };
}
