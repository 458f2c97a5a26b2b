import type { Engine } from '@fulfil/core';
import { stdoutLog } from './batched-lines.js';
import type { Metrics } from './metrics.js';
import { repeating } from './repeating.js';
import { type LogFn, logEntry } from './types.js';

export interface CourierLoopOptions {
  /** Pause between the end of one round and the start of the next; default 5000 ms. */
  intervalMs?: number;
  log?: LogFn;
  /** Counts each round's outcome. */
  metrics?: Pick<Metrics, 'observeCourierRound'>;
}

/**
 * Runs `engine.dispatchCourier()` every `intervalMs`, never two rounds at once: the next round is
 * scheduled only when the previous one has settled. A failing round is logged and the loop goes
 * on. The returned function stops the loop and resolves once a round under way has finished, so
 * the database can be closed right after.
 */
export function startCourierLoop(
  engine: Pick<Engine, 'dispatchCourier'>,
  options: CourierLoopOptions = {},
): () => Promise<void> {
  const intervalMs = options.intervalMs ?? 5000;
  const log = options.log ?? stdoutLog;

  const runRound = async () => {
    try {
      const report = await engine.dispatchCourier();
      options.metrics?.observeCourierRound(report);
      if (report.shipped.length || report.retrying.length || report.failed.length) {
        logEntry(log, { level: 'info', msg: 'courier dispatch', ...report });
      }
    } catch (error) {
      options.metrics?.observeCourierRound(
        error instanceof Error ? error : new Error(String(error)),
      );
      logEntry(log, {
        level: 'error',
        msg: 'courier dispatch failed',
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  };

  return repeating(runRound, { intervalMs });
}
