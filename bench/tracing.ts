/**
 * What tracing costs an accept over HTTP (docs/monitoring.md, Traces): `fulfil serve` four ways
 * on the same database, each accepting fresh orders of its own:
 *
 * - tracing off: `FULFIL_TRACING=off`, no probe at all (the floor);
 * - tracing compiled in, no SDK: the default, every probe asks whether anyone listens;
 * - the SDK with its batch processor, exporting over OTLP/HTTP to a collector on loopback;
 * - the same SDK sampling nothing (`OTEL_TRACES_SAMPLER=always_off`): what keeping the trace
 *   context costs (the SDK's AsyncLocalStorage) before any span is recorded. No target: it
 *   tells the SDK row's cost apart.
 *
 * The collector is as cheap as a collector can be, so that what is measured is the server's
 * cost and not the bench's: a node:http server in this process (not the server's) that reads
 * each export to its end and throws it away, decoding nothing. A real collector runs elsewhere.
 *
 * Four rounds, each of four fresh servers side by side, one a side, sent their accepts in
 * short slices, the servers taking turns, each cycle starting with the next one: first
 * `warmupRequests` each in slices of 1,000 (a fresh process compiles its hot code, and the SDK
 * is more code), then the measured ones in slices of 100. A shared machine changes speed from
 * one second to the next, by a third and more, and slices a fraction of a second long, in
 * turns, give each side the same share of its fast and slow moments. Two processes of one
 * build, serving the same accepts in turns, differed by up to a seventh in CPU per accept, so a
 * side's figure is that of four processes. Its ratio is its requests per CPU second over
 * tracing off's, over every round: its requests, over its servers' own CPU time (from /proc)
 * from a round's first measured slice to a few seconds after the last. A server also works
 * between its own slices (the SDK exports a batch on a timer, the garbage collector marks on
 * threads of its own), and that work is its cost, though it slows another side's slice;
 * requests a second, which such work disturbs, are printed beside. Afterwards the
 * database must hold exactly as many accepted orders as were answered 200, and the collector
 * must have been sent spans.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { fillStore, ordersInQueue, PARTNER_SECRET } from './fill-store.js';
import { ACCEPT_PATH, acceptBody } from './http-accept.js';
import { CONNECTIONS, type LoadResult, postsInTurn } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

/**
 * Rounds of the four: each a fresh server per side, so that no side's figure is one process's.
 * `--quick`, which measures nothing, runs one.
 */
const ROUNDS = 4;
/** The slices of a round's measured accepts, per side. */
const CYCLES = 10;
/** Warm-up slices are larger: fewer loads to start, and no figure is read from them. */
const WARMUP_SLICE = 1_000;
/** Longer than the batch processor's delay between exports (`OTEL_BSP_SCHEDULE_DELAY`, 5 s). */
const SETTLE_MS = 6_000;

/** An OTLP/HTTP collector that reads every export and discards it. */
async function startSink() {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => ({ exports, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Side {
  name: string;
  env: NodeJS.ProcessEnv;
  /** Measured requests, and the time their slices took, over every round. */
  requests: number;
  seconds: number;
  /**
   * The servers' CPU time from the first measured slice of their round to its end, the batches
   * they exported and their garbage collectors' work between their own slices included.
   */
  cpuMs: number;
  /** Each round's requests per CPU second. */
  rounds: number[];
}

/** A side's server of one round, how its next accepts are sent to it, and what it measured. */
interface Running {
  side: Side;
  /** Its measured requests, and the time their slices took. */
  requests: number;
  seconds: number;
  cpuMs(): number;
  post(amount: number): Promise<LoadResult>;
  stop(): Promise<void>;
}

const ratePerSecond = (side: Side) => side.requests / side.seconds;
const cpuPerRequest = (side: Side) => side.cpuMs / side.requests;

/**
 * `side`'s requests per CPU second over `off`'s, over every round and the lowest and highest of
 * a round; and the same of requests a second.
 */
function ratiosOf(side: Side, off: Side) {
  const rounds = side.rounds.map((rate, round) => rate / (off.rounds[round] as number));
  return {
    cpu: cpuPerRequest(off) / cpuPerRequest(side),
    lowest: Math.min(...rounds),
    highest: Math.max(...rounds),
    rate: ratePerSecond(side) / ratePerSecond(off),
  };
}

/**
 * `cycles` cycles of a slice of `slice` accepts per server, the servers taking turns, each
 * cycle starting with the next one; `measured` is told of each slice.
 */
async function inTurns(
  servers: readonly Running[],
  cycles: number,
  slice: number,
  measured: (server: Running, load: LoadResult) => void = () => {},
): Promise<void> {
  for (let cycle = 0; cycle < cycles; cycle++) {
    for (let turn = 0; turn < servers.length; turn++) {
      const server = servers[(cycle + turn) % servers.length] as Running;
      measured(server, await server.post(slice));
    }
  }
}

const describeSide = (side: Side) =>
  `${Math.round(ratePerSecond(side))} req/s, ${cpuPerRequest(side).toFixed(2)} ms CPU/request`;

export async function benchTracing(
  database: BenchDatabase,
  dir: string,
  sizes: Sizes,
  quick = false,
): Promise<void> {
  const rounds = quick ? 1 : ROUNDS;
  const sink = await startSink();
  const side = (name: string, env: NodeJS.ProcessEnv): Side => ({
    name,
    env,
    requests: 0,
    seconds: 0,
    cpuMs: 0,
    rounds: [],
  });
  const sides: Side[] = [
    side('tracing off (FULFIL_TRACING=off)', { FULFIL_TRACING: 'off' }),
    side('compiled in, no SDK', {}),
    side('SDK, batch export over OTLP/HTTP', {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_SERVICE_NAME: 'fulfil-bench',
    }),
    side('SDK sampling nothing (OTEL_TRACES_SAMPLER=always_off)', {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_TRACES_SAMPLER: 'always_off',
    }),
  ];
  // A load sends at least one request on each of its connections.
  const slice = Math.max(CONNECTIONS, Math.ceil(sizes.acceptRequests / rounds / CYCLES));
  const warmupSlice = Math.max(CONNECTIONS, Math.min(WARMUP_SLICE, sizes.warmupRequests));
  const warmupCycles = Math.ceil(sizes.warmupRequests / warmupSlice);
  // Each load builds a body for every connection beyond its own requests (postsInTurn).
  const perRun = warmupCycles * (warmupSlice + CONNECTIONS) + CYCLES * (slice + CONNECTIONS);
  const runs = rounds * sides.length;
  const pending = await fillStore(database, { invoiced: 0, pending: perRun * runs });
  const bodies = pending.map(acceptBody);
  console.log(
    '  the collector: a node:http server in the bench process that reads each export and throws it away (decodes nothing)',
  );
  console.log(
    `  ${rounds} rounds of ${sides.length} fresh servers side by side, each sent ${warmupCycles * warmupSlice} accepts to warm it in slices of ${warmupSlice}, then ${CYCLES * slice} measured in slices of ${slice}, the servers taking turns`,
  );
  let run = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const servers: Running[] = [];
      try {
        // Each side is started first in one round: in a round, the server started first often
        // cost the most CPU per accept, whichever side it was.
        for (let k = 0; k < sides.length; k++) {
          const one = sides[(round + k) % sides.length] as Side;
          const server = await startFulfil(dir, database.url, 1, [], one.env);
          const first = run++ * perRun;
          servers.push({
            side: one,
            requests: 0,
            seconds: 0,
            cpuMs: server.cpuMs,
            post: postsInTurn(
              server.url + ACCEPT_PATH,
              PARTNER_SECRET,
              (n) => bodies[first + n] ?? '',
            ),
            stop: server.stop,
          });
        }
        await inTurns(servers, warmupCycles, warmupSlice);
        const cpuAtStart = servers.map((server) => server.cpuMs());
        await inTurns(servers, CYCLES, slice, (server, load) => {
          server.requests += load.requests;
          server.seconds += load.requests / load.requestsPerSecond;
        });
        // The spans still in a batch leave at the batch processor's next tick.
        if (!quick) await sleep(SETTLE_MS);
        for (const [k, server] of servers.entries()) {
          const cpuMs = server.cpuMs() - (cpuAtStart[k] as number);
          const { side: one, requests, seconds } = server;
          one.requests += requests;
          one.seconds += seconds;
          one.cpuMs += cpuMs;
          one.rounds.push(requests / (cpuMs / 1000));
        }
        console.log(
          `  round ${round + 1}: ${sides.map((one) => `${Math.round(one.rounds[round] as number)} requests per CPU second`).join(', ')}`,
        );
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
  } finally {
    await sink.close();
  }
  const accepted = (await ordersInQueue(database, 'pending_allocation')).length;
  const expected = sides.reduce(
    (sum, one) => sum + rounds * warmupCycles * warmupSlice + one.requests,
    0,
  );
  if (accepted !== expected) {
    throw new Error(`tracing: ${expected} accepts answered 200; the database holds ${accepted}`);
  }
  const { exports, bytes } = sink.received();
  if (exports === 0) throw new Error('tracing: the collector was sent no span');
  const [off, compiled, sdk, unsampled] = sides as [Side, Side, Side, Side];
  const cellOf = (one: Side) => {
    const ratios = ratiosOf(one, off);
    return (
      `${describeSide(one)} (rounds ${ratioOf(ratios.lowest, 1)}–${ratioOf(ratios.highest, 1)}; ` +
      `${ratioOf(ratios.rate, 1)} of tracing off's requests a second)`
    );
  };
  console.log(
    `  side by side (sums over ${rounds} rounds; ratios of requests per CPU second): off ${describeSide(off)}; ` +
      [compiled, sdk, unsampled]
        .map((one) => `${one.name} ${cellOf(one)}: ${ratioOf(ratiosOf(one, off).cpu, 1)}`)
        .join('; ') +
      `; the collector got ${exports} exports, ${Math.round(bytes / 1024)} KiB`,
  );
  const row = (scenario: string, one: Side, target: string) =>
    addRow({
      scenario: `accept over HTTP, ${scenario} vs tracing off, ${database.label}`,
      fulfil: cellOf(one),
      floor: describeSide(off),
      ratio: ratioOf(ratiosOf(one, off).cpu, 1),
      target,
    });
  row('tracing compiled in, no SDK', compiled, '≥ 0.98');
  row('SDK + batch OTLP export', sdk, '≥ 0.9');
  row('SDK sampling nothing (the context alone)', unsampled, '—');
}
