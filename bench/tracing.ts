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
 * The four take turns, one round each starting with the next one (each is in every place
 * once): the database grows as orders are accepted, and the machine may be shared, so no side
 * keeps the best place. Each run is a fresh server warmed with `warmupRequests` accepts of its
 * own (the SDK is more code for a fresh process to compile), then measured over half an accept
 * scenario's requests. A side's ratio is the median of its rounds' ratios: each run beside
 * the run of tracing off in the same round, minutes apart at most, so that a machine busier in
 * one round than in another moves both sides of a ratio. Beside the requests per second, the
 * server's own CPU time per request (from /proc) is printed: it tells the cost even when other
 * processes take the CPU from the server. Afterwards the database must
 * hold exactly as many accepted orders as were answered 200, and the collector must have been
 * sent spans.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { fillStore, ordersInQueue } from './fill-store.js';
import { ACCEPT_PATH, acceptBody, acceptsNeeded, measureAccept } from './http-accept.js';
import { describeLoad, type LoadResult } from './load.js';
import { median } from './measure.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

/** One round per side, so that each is in every place once. */
const ROUNDS = 4;

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

interface Run {
  load: LoadResult;
  /** The server's CPU time per measured request, in ms. */
  cpuMs: number;
}

interface Side {
  name: string;
  env: NodeJS.ProcessEnv;
  runs: Run[];
}

/** A side's figures: its median run (by requests per second), and its median CPU per request. */
function figuresOf(side: Side): { load: LoadResult; cpuMs: number } {
  const rate = median(side.runs.map((run) => run.load.requestsPerSecond));
  const closest = side.runs.reduce((best, run) =>
    Math.abs(run.load.requestsPerSecond - rate) < Math.abs(best.load.requestsPerSecond - rate)
      ? run
      : best,
  );
  return {
    load: { ...closest.load, requestsPerSecond: rate },
    cpuMs: median(side.runs.map((run) => run.cpuMs)),
  };
}

/**
 * The median of `side`'s rounds' ratios to `floor`'s in the same round: `of` of a run, higher
 * is better (requests per second, or requests per CPU second).
 */
function pairedRatio(side: Side, floor: Side, of: (run: Run) => number): number {
  return median(side.runs.map((run, round) => of(run) / of(floor.runs[round] as Run)));
}

const cpuOf = (ms: number) => `${ms.toFixed(2)} ms CPU per request`;

/** A side's cell of the summary: its requests per second, and the server's CPU time per request. */
const cellOf = (figures: { load: LoadResult; cpuMs: number }) =>
  `${describeLoad(figures.load)}, ${figures.cpuMs.toFixed(2)} ms CPU/request`;

export async function benchTracing(
  database: BenchDatabase,
  dir: string,
  sizes: Sizes,
): Promise<void> {
  const sink = await startSink();
  const sides: Side[] = [
    { name: 'tracing off (FULFIL_TRACING=off)', env: { FULFIL_TRACING: 'off' }, runs: [] },
    { name: 'compiled in, no SDK', env: {}, runs: [] },
    {
      name: 'SDK, batch export over OTLP/HTTP',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'fulfil-bench' },
      runs: [],
    },
    {
      name: 'SDK sampling nothing (OTEL_TRACES_SAMPLER=always_off)',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_off' },
      runs: [],
    },
  ];
  const runSizes = {
    ...sizes,
    acceptWarmup: sizes.warmupRequests,
    acceptRequests: Math.ceil(sizes.acceptRequests / 2),
  };
  const perRun = acceptsNeeded(runSizes);
  const pending = await fillStore(database, {
    invoiced: 0,
    pending: perRun * sides.length * ROUNDS,
  });
  const bodies = pending.map(acceptBody);
  let used = 0;
  console.log(
    '  the collector: a node:http server in the bench process that reads each export and throws it away (decodes nothing)',
  );
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const turns = sides.map((_, k) => sides[(round + k) % sides.length] as Side);
      for (const side of turns) {
        const fulfil = await startFulfil(dir, database.url, 1, [], side.env);
        let cpuBefore = Number.NaN;
        let load: LoadResult;
        try {
          load = await measureAccept(
            fulfil.url + ACCEPT_PATH,
            bodies.slice(used, used + perRun),
            runSizes,
            () => {
              cpuBefore = fulfil.cpuMs();
            },
          );
          side.runs.push({ load, cpuMs: (fulfil.cpuMs() - cpuBefore) / load.requests });
        } finally {
          await fulfil.stop();
        }
        used += perRun;
        const run = side.runs.at(-1) as Run;
        console.log(
          `  round ${round + 1}, ${side.name}: ${describeLoad(run.load)}, ${cpuOf(run.cpuMs)}`,
        );
      }
    }
  } finally {
    await sink.close();
  }
  const accepted = (await ordersInQueue(database, 'pending_allocation')).length;
  const expected = (runSizes.acceptWarmup + runSizes.acceptRequests) * sides.length * ROUNDS;
  if (accepted !== expected) {
    throw new Error(`tracing: ${expected} accepts answered 200; the database holds ${accepted}`);
  }
  const { exports, bytes } = sink.received();
  if (exports === 0) throw new Error('tracing: the collector was sent no span');
  const [off, compiled, sdk, unsampled] = sides.map(figuresOf) as [
    ReturnType<typeof figuresOf>,
    ReturnType<typeof figuresOf>,
    ReturnType<typeof figuresOf>,
    ReturnType<typeof figuresOf>,
  ];
  const [offSide, compiledSide, sdkSide, unsampledSide] = sides as [Side, Side, Side, Side];
  const rate = (run: Run) => run.load.requestsPerSecond;
  const perCpuSecond = (run: Run) => 1 / run.cpuMs;
  const ratio = (side: Side) => ratioOf(pairedRatio(side, offSide, rate), 1);
  const cpuRatio = (side: Side) => ratioOf(pairedRatio(side, offSide, perCpuSecond), 1);
  const sideText = (name: string, figures: typeof off, runs: Side) =>
    `${name} ${Math.round(figures.load.requestsPerSecond)} req/s (${ratio(runs)}), ` +
    `${cpuOf(figures.cpuMs)} (${cpuRatio(runs)} of the requests per CPU second)`;
  console.log(
    `  side by side (medians of ${ROUNDS} runs each, in turns; ratios: the median of each round's ratio to tracing off's run): ` +
      `off ${Math.round(off.load.requestsPerSecond)} req/s, ${cpuOf(off.cpuMs)}; ` +
      `${sideText('no SDK', compiled, compiledSide)}; ${sideText('SDK', sdk, sdkSide)}; ` +
      `${sideText('SDK sampling nothing', unsampled, unsampledSide)}; ` +
      `the collector got ${exports} exports, ${Math.round(bytes / 1024)} KiB`,
  );
  const cellOfSide = (figures: typeof off, runs: Side) =>
    `${cellOf(figures)} (${cpuRatio(runs)} of tracing off's requests per CPU second)`;
  addRow({
    scenario: `accept over HTTP, tracing compiled in, no SDK vs tracing off, ${database.label}`,
    fulfil: cellOfSide(compiled, compiledSide),
    floor: cellOf(off),
    ratio: ratio(compiledSide),
    target: '≥ 0.98',
  });
  addRow({
    scenario: `accept over HTTP, SDK + batch OTLP export vs tracing off, ${database.label}`,
    fulfil: cellOfSide(sdk, sdkSide),
    floor: cellOf(off),
    ratio: ratio(sdkSide),
    target: '≥ 0.9',
  });
  addRow({
    scenario: `accept over HTTP, SDK sampling nothing (the context alone) vs tracing off, ${database.label}`,
    fulfil: cellOfSide(unsampled, unsampledSide),
    floor: cellOf(off),
    ratio: ratio(unsampledSide),
    target: '—',
  });
}
