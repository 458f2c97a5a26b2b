/**
 * Servers under test run in child processes, so the load generator never shares their event
 * loop. A child prints the URL it serves on; its output goes to a log file in the run's tmp dir
 * (the server logs one line per request: a pipe to this process would cost the load generator).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The repository's `fulfil` command: builds the packages first when a source is newer. */
export const FULFIL_CLI = join(ROOT, 'scripts', 'fulfil.mjs');
const FLOOR_SERVER = fileURLToPath(new URL('./floor-server.ts', import.meta.url));

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

export interface RunningChild {
  url: string;
  pid: number;
  /** The file its stdout and stderr go to. */
  log: string;
  /** Resident memory of the process and every process it started, in MB. */
  rssMb(): number;
  /**
   * CPU time the process has used so far (user + system, all its threads), in ms: what its work
   * cost, however busy other processes keep the machine.
   */
  cpuMs(): number;
  stop(): Promise<void>;
}

let logs = 0;

/** Children still running: killed when this process ends, however it ends. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

/**
 * Spawns `node args…` with stdout and stderr to `log`, remembered until it exits; `env` is added
 * to this process's environment.
 */
function spawnNode(args: string[], log: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Every pid below `pid` (the workers of `serve --workers`), itself included. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {}
  return [pid, ...children.flatMap(processTree)];
}

function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc/<pid>/stat: 100 on every Linux Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) process `pid` has used so far, in ms; NaN once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    // The fields after the command name, which may hold spaces, end with its `)`.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `node args…` with output to `<dir>/<name>-<n>.log`; resolves once it prints its URL. */
async function startChild(
  dir: string,
  name: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<RunningChild> {
  const log = join(dir, `${name}-${++logs}.log`);
  const child = spawnNode(args, log, env);
  const pid = child.pid as number;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited(child);
    clearTimeout(timer);
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const output = readFileSync(log, 'utf8');
    const url = /https?:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
    if (url) {
      return {
        url,
        pid,
        log,
        rssMb: () => processTree(pid).reduce((sum, one) => sum + rssKb(one), 0) / 1024,
        cpuMs: () => cpuMsOf(pid),
        stop,
      };
    }
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start:\n${output.slice(-2000)}`);
    }
    await sleep(50);
  }
}

/** Node's flags for every `fulfil serve` under test: none, or a CPU profile per process. */
let serverFlags: string[] = [];

/** Every `fulfil serve` started from now on writes a `.cpuprofile` into `dir` when it stops. */
export function profileServersInto(dir: string): void {
  serverFlags = ['--cpu-prof', '--cpu-prof-dir', dir];
}

/**
 * `fulfil serve` on `databaseUrl`, any free port, no courier loop; `extra` options after, `env`
 * added to its environment.
 */
export function startFulfil(
  dir: string,
  databaseUrl: string,
  workers = 1,
  extra: readonly string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<RunningChild> {
  return startChild(
    dir,
    'fulfil',
    [
      ...serverFlags,
      FULFIL_CLI,
      'serve',
      '--db',
      databaseUrl,
      '--port',
      '0',
      '--courier-interval',
      '0',
      '--workers',
      String(workers),
      ...extra,
    ],
    env,
  );
}

/** A bare node:http floor server (floor-server.ts) in `mode`. */
export function startFloor(dir: string, mode: string, args: string[]): Promise<RunningChild> {
  return startChild(dir, `floor-${mode}`, ['--import', 'tsx', FLOOR_SERVER, mode, ...args]);
}

/** Runs `fulfil args…` to its end (output to a log in `dir`); throws unless it exits 0. */
export async function runFulfil(dir: string, args: string[]): Promise<void> {
  const log = join(dir, `fulfil-cli-${++logs}.log`);
  const child = spawnNode([FULFIL_CLI, ...args], log);
  await exited(child);
  if (child.exitCode !== 0) {
    throw new Error(
      `fulfil ${args[0]} exited ${child.exitCode ?? child.signalCode}:\n${readFileSync(log, 'utf8').slice(-2000)}`,
    );
  }
}
