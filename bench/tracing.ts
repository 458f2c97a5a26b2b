/**
 * What tracing costs an accept over HTTP (docs/monitoring.md, Traces): `fulfil serve` three ways
 * on the same database, each accepting fresh orders of its own, in turns, twice:
 *
 * - tracing off: `FULFIL_TRACING=off`, no probe at all (the floor);
 * - tracing compiled in, no SDK: the default, every probe asks whether anyone listens;
 * - the SDK with its batch processor, exporting over OTLP/HTTP to a collector on loopback in
 *   this process that reads each export and throws it away.
 *
 * Each side's figure is the mean of its two runs. Afterwards the database must hold exactly as
 * many accepted orders as were answered 200, and the collector must have been sent spans.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { fillStore, ordersInQueue } from './fill-store.js';
import { ACCEPT_PATH, acceptBody, acceptsNeeded, measureAccept } from './http-accept.js';
import { describeLoad, type LoadResult } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

const ROUNDS = 2;

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
  runs: LoadResult[];
}

function mean(runs: readonly LoadResult[]): LoadResult {
  const average = (pick: (run: LoadResult) => number) =>
    runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  return {
    requestsPerSecond: average((run) => run.requestsPerSecond),
    p50: average((run) => run.p50),
    p99: average((run) => run.p99),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
  };
}

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
  ];
  const perRun = acceptsNeeded(sizes);
  const pending = await fillStore(database, {
    invoiced: 0,
    pending: perRun * sides.length * ROUNDS,
  });
  const bodies = pending.map(acceptBody);
  let used = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        const fulfil = await startFulfil(dir, database.url, 1, [], side.env);
        try {
          side.runs.push(
            await measureAccept(fulfil.url + ACCEPT_PATH, bodies.slice(used, used + perRun), sizes),
          );
        } finally {
          await fulfil.stop();
        }
        used += perRun;
        console.log(
          `  round ${round + 1}, ${side.name}: ${describeLoad(side.runs.at(-1) as LoadResult)}`,
        );
      }
    }
  } finally {
    await sink.close();
  }
  const accepted = (await ordersInQueue(database, 'pending_allocation')).length;
  const expected = (sizes.acceptWarmup + sizes.acceptRequests) * sides.length * ROUNDS;
  if (accepted !== expected) {
    throw new Error(`tracing: ${expected} accepts answered 200; the database holds ${accepted}`);
  }
  const { exports, bytes } = sink.received();
  if (exports === 0) throw new Error('tracing: the collector was sent no span');
  const [off, compiled, sdk] = sides.map((side) => mean(side.runs)) as [
    LoadResult,
    LoadResult,
    LoadResult,
  ];
  console.log(
    `  side by side (mean of ${ROUNDS} runs each): off ${Math.round(off.requestsPerSecond)} req/s, ` +
      `no SDK ${Math.round(compiled.requestsPerSecond)} req/s (${ratioOf(compiled.requestsPerSecond, off.requestsPerSecond)}), ` +
      `SDK ${Math.round(sdk.requestsPerSecond)} req/s (${ratioOf(sdk.requestsPerSecond, off.requestsPerSecond)}); ` +
      `the collector got ${exports} exports, ${Math.round(bytes / 1024)} KiB`,
  );
  addRow({
    scenario: `accept over HTTP, tracing compiled in, no SDK vs tracing off, ${database.label}`,
    fulfil: describeLoad(compiled),
    floor: describeLoad(off),
    ratio: ratioOf(compiled.requestsPerSecond, off.requestsPerSecond),
    target: '≥ 0.98',
  });
  addRow({
    scenario: `accept over HTTP, SDK + batch OTLP export vs tracing off, ${database.label}`,
    fulfil: describeLoad(sdk),
    floor: describeLoad(off),
    ratio: ratioOf(sdk.requestsPerSecond, off.requestsPerSecond),
    target: '≥ 0.9',
  });
}
