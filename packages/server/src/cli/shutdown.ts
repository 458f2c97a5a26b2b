import type { CliIo, ShutdownSignal } from './io.js';

/** Why `serve` stops: a signal, or the package-manager script that started it has gone. */
export type StopReason = ShutdownSignal | 'orphaned';

export interface StopRequest {
  /** Resolves with the first reason to stop. */
  reason: Promise<StopReason>;
  /** Stops listening. */
  dispose(): void;
}

/** How often a server started by `pnpm fulfil serve` checks that pnpm is still there. */
const PARENT_CHECK_MS = 1000;

/**
 * How soon after a signal the same signal is the same request to stop. One Ctrl+C reaches the
 * server twice: the terminal sends SIGINT to every process of its foreground group, and pnpm
 * (running `pnpm start`) passes the one it got on to its script. Both arrive within
 * milliseconds; a person pressing Ctrl+C again to stop at once does so later.
 */
export const SAME_SIGNAL_MS = 1000;

/**
 * Resolves with the first SIGTERM or SIGINT; a second one ends the process at once (exit 1),
 * unless it is the same signal again within {@link SAME_SIGNAL_MS} (the same Ctrl+C, passed on).
 *
 * Under a package-manager script (`pnpm fulfil serve`, `npm_lifecycle_event` set), pnpm can end
 * without passing a signal on (killed hard, or a shell without `exec`): the server would be left
 * running, orphaned, holding its port. So there, losing the parent process counts as SIGTERM.
 * Started any other way (nohup, a service manager), the parent is left out of it.
 */
export function stopRequest(io: CliIo, now: () => number = Date.now): StopRequest {
  let resolve: (reason: StopReason) => void = () => {};
  const reason = new Promise<StopReason>((done) => {
    resolve = done;
  });
  let first: { why: StopReason; at: number } | null = null;
  const stop = (why: StopReason) => {
    if (first === null) {
      first = { why, at: now() };
      return resolve(why);
    }
    if (why === 'orphaned') return;
    if (why === first.why && now() - first.at < SAME_SIGNAL_MS) return;
    io.stderr.write(`fulfil: ${why} again: stopping at once.\n`);
    io.exit(1);
  };
  const onTerm = () => stop('SIGTERM');
  const onInt = () => stop('SIGINT');
  io.signals.on('SIGTERM', onTerm);
  io.signals.on('SIGINT', onInt);

  let watch: NodeJS.Timeout | undefined;
  if (io.env.npm_lifecycle_event) {
    const parent = io.parentPid();
    watch = setInterval(() => {
      if (io.parentPid() === parent) return;
      clearInterval(watch);
      stop('orphaned');
    }, PARENT_CHECK_MS);
    watch.unref();
  }
  return {
    reason,
    dispose() {
      io.signals.off('SIGTERM', onTerm);
      io.signals.off('SIGINT', onInt);
      clearInterval(watch);
    },
  };
}

/** What `serve` prints when it starts stopping. */
export function stoppingLine(reason: StopReason): string {
  return reason === 'orphaned'
    ? 'The script that started fulfil has ended: stopping…\n'
    : `${reason} received: stopping…\n`;
}
