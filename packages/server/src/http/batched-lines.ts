import type { LogFn } from './types.js';

/** The flushes of every sink with lines not yet written: all run when the process exits. */
const unflushed = new Set<() => void>();
process.on('exit', () => {
  for (const flush of [...unflushed]) flush();
});

/**
 * A log sink over `output` that writes the lines of one turn of the event loop together, once
 * the turn ends. stdout to a file or a pipe is written synchronously, one system call per write,
 * which a busy server paid for every request's line. Lines still pending are written when the
 * process exits, whatever the cause; only a kill -9 loses them, those of its last turn.
 */
export function batchedLines(output: { write(chunk: string): unknown }): LogFn {
  let pending: string[] = [];
  const flush = () => {
    unflushed.delete(flush);
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    output.write(text);
  };
  return (line) => {
    pending.push(`${line}\n`);
    if (unflushed.has(flush)) return;
    unflushed.add(flush);
    setImmediate(flush);
  };
}

/** The default sink: each line to stdout, those of one turn in one write. */
export const stdoutLog: LogFn = batchedLines(process.stdout);
