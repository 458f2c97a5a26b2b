import type { AdminEngine } from '@fulfil/core';
import { stdoutLog } from './batched-lines.js';
import { repeating } from './repeating.js';
import { type LogFn, logEntry } from './types.js';

export interface SessionSweepOptions {
  /** Pause between the end of one sweep and the start of the next; default 30,000 ms. */
  intervalMs?: number;
  log?: LogFn;
}

/**
 * Deletes expired operator sessions now and then every `intervalMs`, so that none outlives its
 * expiry by more than that (half a minute by default). Each sweep is one indexed delete; a
 * failing one (the database away) is logged and the next one tries again. The timer never keeps
 * the process alive. The returned function stops the sweeps and resolves once one under way has
 * finished, so the database can be closed right after.
 */
export function startSessionSweep(
  engine: { admin: Pick<AdminEngine, 'deleteExpiredSessions'> },
  options: SessionSweepOptions = {},
): () => Promise<void> {
  const log = options.log ?? stdoutLog;
  const sweep = async () => {
    try {
      await engine.admin.deleteExpiredSessions();
    } catch (error) {
      logEntry(log, {
        level: 'error',
        msg: 'deleting expired sessions failed',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  return repeating(sweep, { intervalMs: options.intervalMs ?? 30_000, atOnce: true, unref: true });
}
