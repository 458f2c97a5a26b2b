import type { CliOutput } from './io.js';

export interface StreamProgress {
  /** `done` records are through, `bytesRead` of the input consumed. */
  update(done: number, bytesRead: number): void;
  /** Ends the line. */
  finish(): void;
}

const silent: StreamProgress = { update() {}, finish() {} };

function clock(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * A one-line progress report of a stream whose record count is unknown in advance: records done,
 * records per second and, when the input's size is known, the share read and the time left. Drawn
 * in place, only when `output` is a terminal.
 */
export function streamProgress(
  output: CliOutput,
  noun: string,
  totalBytes: number | undefined,
  now: () => number = Date.now,
): StreamProgress {
  if (!output.isTTY) return silent;
  const started = now();
  let drawn = false;
  return {
    update(done, bytesRead) {
      const seconds = (now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(done / seconds) : 0;
      let line = `\r${done} ${noun}  ${rate}/s`;
      if (totalBytes && bytesRead > 0) {
        const share = Math.min(1, bytesRead / totalBytes);
        const left = share > 0 ? (seconds * (1 - share)) / share : 0;
        line += `  ${Math.floor(share * 100)}%  ETA ${clock(left)}`;
      }
      output.write(`${line}\u001b[K`);
      drawn = true;
    },
    finish() {
      if (drawn) output.write('\n');
    },
  };
}
