import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The README's `pnpm start`, stopped with one Ctrl+C as a person does in a terminal: the terminal
 * sends SIGINT to every process of its foreground group (npx, pnpm and the server), and pnpm
 * passes the one it got on to the server. One Ctrl+C is one graceful stop: the server drains
 * once and exits 0, with no "stopping at once" and no ELIFECYCLE from pnpm.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const { packageManager } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  packageManager: string;
};

let started: ChildProcess | undefined;
afterEach(() => {
  // A test that failed half-way leaves nothing running: the whole group goes.
  if (started?.pid && started.exitCode === null) {
    try {
      process.kill(-started.pid, 'SIGKILL');
    } catch {}
  }
  started = undefined;
});

/** Whether any process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('one Ctrl+C on `pnpm start`', () => {
  it('drains once and ends the whole group cleanly', async () => {
    // Its own process group, as a terminal's foreground job is: a signal to -pid reaches all.
    // As a person runs it: not in CI mode (`CI` set), where pnpm runs a script another way.
    const { CI: _ci, ...env } = process.env;
    const child = spawn('npx', ['-y', packageManager, 'start', '--port', '0'], {
      cwd: ROOT,
      detached: true,
      env: { ...env, FULFIL_DATABASE_URL: 'sqlite::memory:' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const ended = new Promise<void>((done) => child.once('exit', () => done()));
    // Serving: the banner's last line (a stale build is rebuilt first, which takes a while).
    while (!output.includes('Press Ctrl+C to stop.')) {
      if (child.exitCode !== null) throw new Error(`pnpm start ended:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pgid = child.pid as number;
    process.kill(-pgid, 'SIGINT');
    await ended;
    // The group leader (npx) may end first: wait for the server itself to be gone.
    while (groupAlive(pgid)) await new Promise((resolve) => setTimeout(resolve, 50));

    const after = output.slice(output.indexOf('Press Ctrl+C to stop.'));
    expect(after.match(/SIGINT received: stopping…/g), after).toHaveLength(1);
    expect(after).not.toMatch(/again|stopping at once/);
    expect(after).not.toMatch(/ELIFECYCLE|Command failed|exit code/i);
  }, 600_000);
});
