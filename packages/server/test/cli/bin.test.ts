import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { skipUnless } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';

/** The executable, run as a shell runs it; it needs `pnpm build` first and skips without it. */
const bin = fileURLToPath(new URL('../../bin/fulfil.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url)));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { env: { PATH: process.env.PATH } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const unlessBuilt = skipUnless(built, 'the server is not built: run pnpm build first');

describe('the built `fulfil` executable (bin/fulfil.js)', unlessBuilt, () => {
  it('runs by its node shebang and answers with exit codes 0, 1 and 2', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: fulfil <command>/);
    const usage = await run(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('fulfil: unknown command "frobnicate" (see "fulfil --help")\n');
    const runtime = await run(['token', 'list', '--db', 'sqlite::memory:']);
    expect(runtime.code).toBe(1);
    expect(runtime.stderr).toBe('fulfil token list: Store default does not exist. [store_code]\n');
  });

  it('serves until SIGTERM, then exits 0', async () => {
    const child = spawn(bin, ['serve', '--db', 'sqlite::memory:', '--port', '0'], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = exited(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    for (let waited = 0; !out.includes('Press Ctrl+C') && waited < 15_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect((await fetch(`${url}/rest/default/V1/warehouses`)).status).toBe(401);
    child.kill('SIGTERM');
    expect(await done).toBe(0);
    expect(out).toContain('SIGTERM received: stopping');
  });
});
