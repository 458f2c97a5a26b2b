import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PNPM_VERSION, ROOT } from './support.js';

/**
 * What `pnpm start` prints for a newcomer to run next, run exactly as printed from the
 * repository root: the curls of the seed's tokens, and the command that creates the first admin.
 */

const running: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** `pnpm start`'s command, started as pnpm starts it: in the root, from where the user is. */
async function startServe(userDir: string, args: string[]): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      'scripts/fulfil.mjs',
      'serve',
      '--port',
      '0',
      '--seed-if-empty',
      join(ROOT, 'examples/demo-seed.json'),
      ...args,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        INIT_CWD: userDir,
        FULFIL_CLI: undefined,
        FULFIL_DATABASE_URL: undefined,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  for (let waited = 0; !out.includes('Press Ctrl+C'); waited += 50) {
    if (child.exitCode !== null || waited > 240_000)
      throw new Error(`serve did not start:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return out;
}

/** Runs one printed line in a shell, in the repository root. */
function runLine(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', line],
      { cwd: ROOT, env: { ...process.env, FULFIL_CLI: undefined } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('the commands serve prints', () => {
  it('run as printed from the repository root, against the database it serves', async () => {
    const userDir = await mkdtemp(join(tmpdir(), 'fulfil-first-run-'));
    dirs.push(userDir);
    // A database named relative to where the user is, who may not be in the root.
    const out = await startServe(userDir, ['--db', 'sqlite:fulfil.db']);
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1] as string;
    const printed = out
      .split('\n')
      .filter((line) => /^ {2}(curl|npx) /.test(line))
      .map((line) => line.trim());
    const curls = printed.filter((line) => line.startsWith('curl '));
    const creates = printed.filter((line) => line.startsWith('npx '));
    expect(curls).toHaveLength(3);
    expect(creates).toEqual([
      `npx -y pnpm@${PNPM_VERSION} -s fulfil operator create --name admin --role admin --db sqlite:${join(userDir, 'fulfil.db')}`,
    ]);

    for (const curl of curls) {
      const result = await runLine(curl);
      expect(result.code, curl).toBe(0);
      expect(Array.isArray(JSON.parse(result.stdout)), curl).toBe(true);
    }

    const created = await runLine(creates[0] as string);
    expect(created.code, created.stderr).toBe(0);
    const { name, secret } = JSON.parse(created.stdout) as { name: string; secret: string };
    // The admin exists in the served database: it logs in to the running server.
    const login = await fetch(`${url}/admin/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name, secret }),
    });
    expect(login.status).toBe(200);
  }, 300_000);
});
