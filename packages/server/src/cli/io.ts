/** What the CLI touches of its process, injectable so that tests run it in-process. */

export interface CliOutput {
  /** Text, or UTF-8 bytes as `export` writes its pages (the process's streams take both). */
  write(chunk: string | Uint8Array): unknown;
  /** True when a person is watching: progress is drawn only then. */
  isTTY?: boolean;
}

export type ShutdownSignal = 'SIGTERM' | 'SIGINT';

/** Something that reports SIGTERM and SIGINT: `process`, or an EventEmitter in tests. */
export interface SignalSource {
  on(signal: ShutdownSignal, listener: () => void): unknown;
  off(signal: ShutdownSignal, listener: () => void): unknown;
}

export interface CliIo {
  /** What `-` reads from, as a file name: `orders import -`, `import -`. */
  stdin: AsyncIterable<string | Buffer>;
  stdout: CliOutput;
  stderr: CliOutput;
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory; relative paths resolve against `env.INIT_CWD` first, then this. */
  cwd: string;
  /** Where `serve` hears SIGTERM and SIGINT. */
  signals: SignalSource;
  /** Ends the process at once; used only when a second signal interrupts a graceful stop. */
  exit(code: number): void;
  /** The parent process id, read afresh each call (`serve` notices when pnpm is gone). */
  parentPid(): number;
}

export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signals: process,
    exit: (code) => process.exit(code),
    parentPid: () => process.ppid,
  };
}
