import type { LogFn } from './types.js';

/** Lines logged during this turn of the event loop, not yet written. */
let pending: string[] = [];
let flushing = false;

/** Writes the pending lines to stdout, as one write. */
function flush(): void {
  flushing = false;
  if (pending.length === 0) return;
  const text = pending.join('');
  pending = [];
  process.stdout.write(text);
}

/**
 * The default sink: each line to stdout. A process writes its lines of one turn of the event
 * loop together, once the turn ends: stdout to a file or a pipe is written synchronously, one
 * system call a line, which a busy server paid on every request. They are also written when the
 * process exits, whatever the cause; only a kill -9 loses them, the lines of that one turn.
 */
export const stdoutLog: LogFn = (line) => {
  pending.push(`${line}\n`);
  if (flushing) return;
  flushing = true;
  setImmediate(flush);
};

process.on('exit', flush);
