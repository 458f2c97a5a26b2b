import cluster, { type Worker } from 'node:cluster';
import { EventEmitter, once } from 'node:events';
import type { CliIo } from './io.js';
import { type StopReason, stoppingLine, stopRequest } from './shutdown.js';

/**
 * `fulfil serve --workers N` on node:cluster. The primary has already migrated and seeded the
 * database; it forks N workers, each a stateless server that opens the database and listens on
 * the port the primary shares with them all, and runs the courier loop (safe in every process).
 * The primary serves nothing itself: it restarts a worker that dies and, on SIGTERM or SIGINT,
 * asks every worker to stop gracefully and waits for them.
 *
 * Workers run the same command line as the primary (node:cluster's default: the same script,
 * arguments and node options, `--import tsx` included), told apart by {@link SERVE_WORKER_ENV}.
 */

/**
 * Set in the environment of the workers `serve --workers` forks. A cluster worker that some other
 * tool started (pm2's cluster mode) is not one of ours: it migrates and seeds like any process.
 */
export const SERVE_WORKER_ENV = 'FULFIL_SERVE_WORKER';

/** A worker that dies this long after its start is restarted after the first delay again. */
const STABLE_AFTER_MS = 30_000;
/** First restart delay of a worker; doubled per quick death in a row, up to the maximum. */
const RESTART_FIRST_MS = 200;
const RESTART_MAX_MS = 10_000;

/** worker → primary: serving at `url`. primary → worker: stop gracefully. */
type Message = { fulfil: 'ready'; url: string } | { fulfil: 'shutdown' };

function isMessage<K extends Message['fulfil']>(
  value: unknown,
  kind: K,
): value is Extract<Message, { fulfil: K }> {
  return typeof value === 'object' && value !== null && (value as Message).fulfil === kind;
}

/** Whether this process is a worker forked by `serve --workers`. */
export function isServeWorker(env: CliIo['env']): boolean {
  return cluster.isWorker && env[SERVE_WORKER_ENV] === '1';
}

// ── the worker's side ──────────────────────────────────────────────────────────────────────────

export interface PrimaryLink {
  /**
   * Resolves at the first request to stop: the primary's, or SIGTERM/SIGINT sent to the worker
   * itself (Ctrl+C reaches every process of the terminal's group). Later ones change nothing: the
   * primary decides when stopping at once is called for.
   */
  stopped: Promise<void>;
  /** Tells the primary this worker serves at `url`. */
  ready(url: string): void;
  /** Stops listening and closes the channel to the primary, so the process can end. */
  close(): void;
}

export function connectToPrimary(io: CliIo): PrimaryLink {
  const worker = cluster.worker;
  if (!worker) throw new Error('fulfil: not a cluster worker');
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const onMessage = (message: unknown) => {
    if (isMessage(message, 'shutdown')) stop();
  };
  worker.on('message', onMessage);
  io.signals.on('SIGTERM', stop);
  io.signals.on('SIGINT', stop);
  return {
    stopped,
    ready(url) {
      worker.send({ fulfil: 'ready', url } satisfies Message);
    },
    close() {
      worker.off('message', onMessage);
      io.signals.off('SIGTERM', stop);
      io.signals.off('SIGINT', stop);
      if (worker.isConnected()) worker.disconnect();
    },
  };
}

// ── the primary's side ─────────────────────────────────────────────────────────────────────────

export interface ClusterOptions {
  workers: number;
  io: CliIo;
  /** Called once, when every worker serves: prints the banner. */
  onListening(url: string, pids: number[]): Promise<void>;
}

interface WorkerState {
  slot: number;
  started: number;
  /** It has said it serves. */
  ready: boolean;
}

/**
 * Runs the primary until SIGTERM or SIGINT (or the pnpm script that started it is gone) and
 * every worker has stopped; resolves to the exit code: 0, or 1 when a worker failed to stop
 * cleanly. Throws when a worker dies before the cluster has ever served (a taken port, an
 * unreachable database): restarting would fail the same way.
 */
export async function runCluster(options: ClusterOptions): Promise<number> {
  const { io, workers: count } = options;
  const live = new Map<Worker, WorkerState>();
  const quickDeaths: number[] = new Array(count).fill(0);
  const restarts = new Set<NodeJS.Timeout>();
  const changes = new EventEmitter();
  const changed = () => changes.emit('change');
  const until = async (condition: () => boolean) => {
    while (!condition()) await once(changes, 'change');
  };

  let phase: 'starting' | 'serving' | 'stopping' = 'starting';
  let url = '';
  let startupFailure: Error | null = null;
  let unclean = false;
  let reason: StopReason | null = null;

  const fork = (slot: number) => {
    const worker = cluster.fork({ [SERVE_WORKER_ENV]: '1' });
    const state: WorkerState = { slot, started: Date.now(), ready: false };
    live.set(worker, state);
    worker.on('message', (message: unknown) => {
      if (!isMessage(message, 'ready')) return;
      state.ready = true;
      url = message.url;
      if (phase === 'serving') io.stdout.write(`Worker ${worker.process.pid} is serving.\n`);
      changed();
    });
    // A message to a worker that is going away fails; its 'exit' follows and says what happened.
    worker.on('error', () => {});
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      exited(worker.process.pid, state, code, signal);
      changed();
    });
  };

  const exited = (
    pid: number | undefined,
    state: WorkerState,
    code: number | null,
    signal: string | null,
  ) => {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (phase === 'stopping') {
      // One stopped before it served (SIGTERM while starting) has nothing to finish.
      if (code !== 0 && !(signal === 'SIGTERM' && !state.ready)) unclean = true;
      return;
    }
    if (phase === 'starting' && !state.ready) {
      startupFailure ??= new Error(`worker ${pid} exited while starting (${how})`);
      return;
    }
    const deaths =
      Date.now() - state.started > STABLE_AFTER_MS ? 1 : (quickDeaths[state.slot] ?? 0) + 1;
    quickDeaths[state.slot] = deaths;
    const delay = Math.min(RESTART_FIRST_MS * 2 ** (deaths - 1), RESTART_MAX_MS);
    io.stderr.write(
      `fulfil serve: worker ${pid} exited unexpectedly (${how}); starting another in ${delay} ms\n`,
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (phase !== 'stopping') fork(state.slot);
    }, delay);
    restarts.add(timer);
  };

  // A second signal stops at once: the workers too, not only this process.
  const request = stopRequest({
    ...io,
    exit: (code) => {
      for (const worker of live.keys()) worker.process.kill('SIGKILL');
      io.exit(code);
    },
  });
  void request.reason.then((why) => {
    reason = why;
    changed();
  });

  try {
    for (let slot = 0; slot < count; slot++) fork(slot);
    const allServing = () =>
      live.size === count && [...live.values()].every((state) => state.ready);
    await until(() => reason !== null || startupFailure !== null || allServing());
    if (reason === null && startupFailure === null) {
      phase = 'serving';
      try {
        await options.onListening(
          url,
          [...live.keys()].map((worker) => worker.process.pid ?? 0),
        );
      } catch (error) {
        startupFailure = error instanceof Error ? error : new Error(String(error));
      }
      if (startupFailure === null) await until(() => reason !== null);
    }
    if (reason !== null) io.stdout.write(stoppingLine(reason));
  } finally {
    phase = 'stopping';
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    for (const [worker, state] of live) {
      // One that has not said it serves may not listen for messages yet: a signal reaches it.
      if (state.ready && worker.isConnected())
        worker.send({ fulfil: 'shutdown' } satisfies Message);
      else worker.process.kill('SIGTERM');
    }
    await until(() => live.size === 0);
    request.dispose();
  }
  if (startupFailure) throw startupFailure;
  return unclean ? 1 : 0;
}
