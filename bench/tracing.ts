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
 * The four servers run side by side, each warmed with `warmupRequests` accepts of its own (the
 * SDK is more code for a fresh process to compile). Their measured accepts are then sent in
 * short slices, the four taking turns, each cycle starting with the next one: a shared machine
 * changes speed from one second to the next, by a third and more, and slices a fraction of a
 * second long, in turns, give each side the same share of its fast and slow moments. A side's
 * figures are the sums over its slices (requests over the time they took, and the server's own
 * CPU time from /proc over its requests), each ratio that of tracing off's sums. Afterwards the
 * database must hold exactly as many accepted orders as were answered 200, and the collector
 * must have been sent spans.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningChild, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { fillStore, ordersInQueue, PARTNER_SECRET } from './fill-store.js';
import { ACCEPT_PATH, acceptBody } from './http-accept.js';
import { CONNECTIONS, type LoadResult, postsInTurn } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

/** The slices each side's measured accepts are sent in. */
const SLICES = 20;

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
  /** Sends the next `amount` of this side's accepts to its server. */
  post?: (amount: number) => Promise<LoadResult>;
  server?: RunningChild;
  /** Sums over the measured slices. */
  requests: number;
  seconds: number;
  cpuMs: number;
  /** Each cycle's requests a second, in cycle order. */
  rates: number[];
}

const ratePerSecond = (side: Side) => side.requests / side.seconds;
const cpuPerRequest = (side: Side) => side.cpuMs / side.requests;

/** `side`'s requests a second over `off`'s, and the same of requests per CPU second. */
function ratiosOf(side: Side, off: Side) {
  const cycles = side.rates.map((rate, cycle) => rate / (off.rates[cycle] as number));
  return {
    rate: ratePerSecond(side) / ratePerSecond(off),
    cpu: cpuPerRequest(off) / cpuPerRequest(side),
    lowest: Math.min(...cycles),
    highest: Math.max(...cycles),
  };
}

const describeSide = (side: Side) =>
  `${Math.round(ratePerSecond(side))} req/s, ${cpuPerRequest(side).toFixed(2)} ms CPU/request`;

export async function benchTracing(
  database: BenchDatabase,
  dir: string,
  sizes: Sizes,
): Promise<void> {
  const sink = await startSink();
  const side = (name: string, env: NodeJS.ProcessEnv): Side => ({
    name,
    env,
    requests: 0,
    seconds: 0,
    cpuMs: 0,
    rates: [],
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
  const warmup = sizes.warmupRequests;
  // A load sends at least one request on each of its connections.
  const slice = Math.max(CONNECTIONS, Math.ceil(sizes.acceptRequests / SLICES));
  // Each load builds a body for every connection beyond its own requests (postsInTurn).
  const perSide = warmup + CONNECTIONS + SLICES * (slice + CONNECTIONS);
  const pending = await fillStore(database, { invoiced: 0, pending: perSide * sides.length });
  const bodies = pending.map(acceptBody);
  console.log(
    '  the collector: a node:http server in the bench process that reads each export and throws it away (decodes nothing)',
  );
  try {
    for (const [k, one] of sides.entries()) {
      const server = await startFulfil(dir, database.url, 1, [], one.env);
      one.server = server;
      one.post = postsInTurn(
        server.url + ACCEPT_PATH,
        PARTNER_SECRET,
        (n) => bodies[k * perSide + n] ?? '',
      );
    }
    for (const one of sides) await one.post?.(warmup);
    console.log(
      `  ${sides.length} servers side by side, each warmed with ${warmup} accepts; then ${SLICES} cycles of a slice of ${slice} accepts each, in turns`,
    );
    for (let cycle = 0; cycle < SLICES; cycle++) {
      for (let turn = 0; turn < sides.length; turn++) {
        const one = sides[(cycle + turn) % sides.length] as Side;
        const server = one.server as RunningChild;
        const cpuBefore = server.cpuMs();
        const load = await (one.post as NonNullable<Side['post']>)(slice);
        one.cpuMs += server.cpuMs() - cpuBefore;
        one.requests += load.requests;
        one.seconds += load.requests / load.requestsPerSecond;
        one.rates.push(load.requestsPerSecond);
      }
      console.log(
        `  cycle ${cycle + 1}: ${sides.map((one) => Math.round(one.rates[cycle] as number)).join(', ')} req/s`,
      );
    }
  } finally {
    await Promise.all(sides.map((one) => one.server?.stop()));
    await sink.close();
  }
  const accepted = (await ordersInQueue(database, 'pending_allocation')).length;
  const expected = sides.reduce((sum, one) => sum + warmup + one.requests, 0);
  if (accepted !== expected) {
    throw new Error(`tracing: ${expected} accepts answered 200; the database holds ${accepted}`);
  }
  const { exports, bytes } = sink.received();
  if (exports === 0) throw new Error('tracing: the collector was sent no span');
  const [off, compiled, sdk, unsampled] = sides as [Side, Side, Side, Side];
  const cellOf = (one: Side) => {
    const ratios = ratiosOf(one, off);
    return (
      `${describeSide(one)} (${ratioOf(ratios.cpu, 1)} of tracing off's requests per CPU ` +
      `second; cycles ${ratioOf(ratios.lowest, 1)}–${ratioOf(ratios.highest, 1)})`
    );
  };
  console.log(
    `  side by side (sums over ${SLICES} slices each, in turns): off ${describeSide(off)}; ` +
      [compiled, sdk, unsampled]
        .map((one) => `${one.name} ${cellOf(one)}, ${ratioOf(ratiosOf(one, off).rate, 1)}`)
        .join('; ') +
      `; the collector got ${exports} exports, ${Math.round(bytes / 1024)} KiB`,
  );
  const row = (scenario: string, one: Side, target: string) =>
    addRow({
      scenario: `accept over HTTP, ${scenario} vs tracing off, ${database.label}`,
      fulfil: cellOf(one),
      floor: describeSide(off),
      ratio: ratioOf(ratiosOf(one, off).rate, 1),
      target,
    });
  row('tracing compiled in, no SDK', compiled, '≥ 0.98');
  row('SDK + batch OTLP export', sdk, '≥ 0.9');
  row('SDK sampling nothing (the context alone)', unsampled, '—');
}
