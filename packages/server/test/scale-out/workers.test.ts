import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import {
  alive,
  call,
  ERP,
  eventually,
  killAll,
  PARTNER,
  type Reply,
  startServer,
  storeSeed,
  writeSeed,
} from './support.js';

describe('fulfil serve --workers', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-workers-'));
  });
  afterEach(() => killAll());
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is a usage error (exit 2) on sqlite::memory:, where each worker would have its own database', async () => {
    const memory = await runCli(['serve', '--workers', '2', '--db', 'sqlite::memory:']);
    expect(memory.code).toBe(2);
    expect(memory.stderr.text).toMatch(/^fulfil serve: --workers needs a database .*\n$/);
    const zero = await runCli(['serve', '--workers', '0', '--db', `sqlite:${join(dir, 'z.db')}`]);
    expect(zero.code).toBe(2);
  });

  it('serves from two worker processes, replaces one that dies, and exits 0 on SIGTERM', async () => {
    const seedFile = await writeSeed(dir, storeSeed([], []));
    const server = await startServer([
      '--workers',
      '2',
      '--db',
      `sqlite:${join(dir, 'workers.db')}`,
      '--seed',
      seedFile,
      '--courier-interval',
      '0',
    ]);
    const banner = /2 workers: pids (\d+), (\d+)\)/.exec(server.stdout());
    expect(banner).not.toBeNull();
    const workers = [Number(banner?.[1]), Number(banner?.[2])];
    expect(workers).not.toContain(server.pid);

    /** 40 requests at once (so on many connections), polling as partner and as ERP. */
    const burst = (): Promise<Reply[]> =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2
            ? call(server.url, PARTNER, 'GET', 'fulfillmentOrders/pending_accept')
            : call(server.url, ERP, 'GET', 'fulfillmentOrders/pending_allocation'),
        ),
      );
    const requestPids = () =>
      server
        .logLines()
        // Not the OpenAPI document `call` reads once to check replies against.
        .filter((line) => line.msg === 'request' && !String(line.path).endsWith('/schema'))
        .map((line) => line.pid as number);

    const first = await burst();
    expect(first.map((reply) => reply.status)).toEqual(new Array(40).fill(200));
    await eventually(async () => requestPids().length === 40, 'the 40 request log lines');
    // Every request was logged by a worker, and both workers served some.
    expect(new Set(requestPids())).toEqual(new Set(workers));

    // A worker that dies is replaced (after a short backoff) and the service goes on.
    const [victim, survivor] = workers as [number, number];
    process.kill(victim, 'SIGKILL');
    await eventually(
      async () => server.stdout().includes('is serving.'),
      'a worker to replace the one killed',
    );
    expect(server.stderr()).toContain(
      `fulfil serve: worker ${victim} exited unexpectedly (signal SIGKILL); starting another in 200 ms`,
    );
    const replacement = Number(/Worker (\d+) is serving\./.exec(server.stdout())?.[1]);
    expect(alive(replacement)).toBe(true);
    const second = await burst();
    expect(second.map((reply) => reply.status)).toEqual(new Array(40).fill(200));
    await eventually(async () => requestPids().length === 80, 'the next 40 request log lines');
    expect(new Set(requestPids().slice(40))).toEqual(new Set([survivor, replacement]));

    // SIGTERM to the primary: every worker stops gracefully, then the primary exits 0.
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.stdout()).toContain('SIGTERM received: stopping…');
    expect(alive(survivor)).toBe(false);
    expect(alive(replacement)).toBe(false);
  }, 60_000);
});
