import { EventEmitter } from 'node:events';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { Capture } from './run-cli.js';

/** `fulfil serve …` in-process, with signals it can be sent. */
export function startServe(argv: string[], io: Partial<CliIo> = {}) {
  const stdout = new Capture();
  const stderr = new Capture();
  const signals = new EventEmitter();
  const exits: number[] = [];
  const done = main(['serve', '--port', '0', ...argv], {
    stdout,
    stderr,
    env: {},
    signals,
    exit: (code) => exits.push(code),
    ...io,
  });
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  /** Resolves with the URL once the banner is out; fails if serve ended instead. */
  const ready = async (): Promise<string> => {
    for (let waited = 0; waited < 10_000; waited += 10) {
      if (stdout.text.includes('Press Ctrl+C to stop.')) {
        return /listening on (http:\/\/\S+)/.exec(stdout.text)?.[1] as string;
      }
      if (settled) throw new Error(`serve ended early: ${stderr.text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`serve did not start: ${stdout.text}${stderr.text}`);
  };
  return { stdout, stderr, signals, exits, done, ready };
}
