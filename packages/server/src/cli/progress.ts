import type { CliOutput } from './io.js';

export interface Progress {
  /** `done` of the total are through. */
  update(done: number): void;
  /** Ends the bar's line. */
  finish(): void;
}

const WIDTH = 30;
const silent: Progress = { update() {}, finish() {} };

/**
 * A one-line progress bar redrawn in place on `output`, for people watching a terminal; when
 * `output` is not a terminal (a pipe, a log file, a test) nothing is written at all.
 */
export function progressBar(output: CliOutput, total: number, noun: string): Progress {
  if (!output.isTTY || total === 0) return silent;
  const draw = (done: number) => {
    const filled = Math.round((done / total) * WIDTH);
    output.write(`\r[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${done}/${total} ${noun}`);
  };
  draw(0);
  return { update: draw, finish: () => output.write('\n') };
}
