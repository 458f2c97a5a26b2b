/**
 * Routing decisions in process: `decideRouting` at 20 lines x 50 warehouses on a seeded corpus
 * (sparse stock, warehouses across Europe with coordinates, some with countries and daily
 * capacities), under the richest rule list and under the default list, against routing as it
 * was before rules were data (the greedy router, kept word for word in the core's tests) on the
 * same orders. Each side gets its input ready-made; each decision is timed on its own, the sides
 * taking turns round by round, on one core (this process).
 *
 * Each decision is timed twice: by the wall clock, which counts the time the process waited for
 * a core on a shared machine and any garbage-collection pause that fell in it, and by the
 * process's CPU time. Garbage-collection pauses are observed and matched to the decisions they
 * fell in, so what sets the wall-clock p99 is printed, not guessed.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { DEFAULT_ROUTING, decideRouting, ROUTING_RULES, type RoutingSnapshot } from '@fulfil/core';
import { greedyRouter } from '../packages/core/test/support/greedy-router.js';
import {
  contextOf,
  generateCorpus,
  seededRandom,
  snapshotOf,
} from '../packages/core/test/support/routing-corpus.js';
import { addRow, ratioOf } from './summary.js';

/** Every rule: the filters, then the sorts, `fewest_shipments` first of them. */
const RICHEST = ROUTING_RULES;

interface Timing {
  p50: number;
  p99: number;
  /** Per-decision CPU time of this process (every thread of it, the collector's too). */
  cpuP50: number;
  cpuP99: number;
  /** Decisions a second, from the time of all of them. */
  rate: number;
  /** Decisions a second of this process's CPU time: what one core does, however loaded. */
  cpuRate: number;
  /** Garbage-collection pauses that fell in this side's decisions, and their time. */
  gcPauses: number;
  gcMs: number;
  /** Of the decisions at or above the wall-clock p99, how many a pause fell in. */
  slowWithGc: number;
  slow: number;
  /** CPU time over wall-clock time: below 1, the process waited for a core. */
  onCpu: number;
}

function percentile(sorted: ArrayLike<number>, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

interface Pause {
  start: number;
  end: number;
}

/** Runs `decide` over the inputs `rounds` times in turns with the others; per-decision times. */
async function measure(
  sides: ((index: number) => unknown)[],
  count: number,
  rounds: number,
): Promise<Timing[]> {
  const total = count * rounds;
  const starts = sides.map(() => new Float64Array(total));
  const times = sides.map(() => new Float64Array(total));
  const cpuTimes = sides.map(() => new Float64Array(total));
  const filled = sides.map(() => 0);
  const totals = sides.map(() => 0);
  const cpu = sides.map(() => 0);
  const pauses: Pause[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < sides.length; turn++) {
      const side = (round + turn) % sides.length;
      const decide = sides[side] as (index: number) => unknown;
      const usage = process.cpuUsage();
      const started = performance.now();
      for (let index = 0; index < count; index++) {
        const at = filled[side] as number;
        const cpuBefore = process.cpuUsage();
        const before = performance.now();
        decide(index);
        const after = performance.now();
        const cpuUsed = process.cpuUsage(cpuBefore);
        (starts[side] as Float64Array)[at] = before;
        (times[side] as Float64Array)[at] = after - before;
        (cpuTimes[side] as Float64Array)[at] = (cpuUsed.user + cpuUsed.system) / 1000;
        filled[side] = at + 1;
      }
      totals[side] = (totals[side] as number) + performance.now() - started;
      const used = process.cpuUsage(usage);
      cpu[side] = (cpu[side] as number) + (used.user + used.system) / 1000;
    }
  }
  // The observer hears of pauses only once the event loop turns: let it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  pauses.sort((a, b) => a.start - b.start);
  return times.map((list, side) => {
    const sorted = Float64Array.from(list).sort();
    const p99 = percentile(sorted, 0.99);
    const began = starts[side] as Float64Array;
    let gcPauses = 0;
    let gcMs = 0;
    let slow = 0;
    let slowWithGc = 0;
    // Decisions are in time order within a side's turn, not across turns: match each decision
    // to the pauses that overlap it by bisection.
    for (let at = 0; at < list.length; at++) {
      const start = began[at] as number;
      const end = start + (list[at] as number);
      let low = 0;
      let high = pauses.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((pauses[middle] as Pause).end <= start) low = middle + 1;
        else high = middle;
      }
      let hit = false;
      for (let index = low; index < pauses.length; index++) {
        const pause = pauses[index] as Pause;
        if (pause.start >= end) break;
        gcPauses++;
        gcMs += Math.min(pause.end, end) - Math.max(pause.start, start);
        hit = true;
      }
      if ((list[at] as number) >= p99) {
        slow++;
        if (hit) slowWithGc++;
      }
    }
    const cpuSorted = Float64Array.from(cpuTimes[side] as Float64Array).sort();
    return {
      p50: percentile(sorted, 0.5),
      p99,
      cpuP50: percentile(cpuSorted, 0.5),
      cpuP99: percentile(cpuSorted, 0.99),
      rate: (list.length / (totals[side] as number)) * 1000,
      cpuRate: (list.length / (cpu[side] as number)) * 1000,
      gcPauses,
      gcMs,
      slow,
      slowWithGc,
      onCpu: (cpu[side] as number) / (totals[side] as number),
    };
  });
}

const ms = (value: number) => (value < 0.1 ? value.toFixed(4) : value.toFixed(2));
const perSecond = (rate: number) => Math.round(rate).toLocaleString('en');
const show = (timing: Timing) =>
  `p50 ${ms(timing.p50)} ms, p99 ${ms(timing.p99)} ms, ${perSecond(timing.rate)}/s (CPU: p50 ${ms(timing.cpuP50)} ms, p99 ${ms(timing.cpuP99)} ms, ${perSecond(timing.cpuRate)}/CPU-s)`;
/** What the wall clock counted besides the decisions' own work. */
const besides = (timing: Timing) =>
  `${timing.gcPauses} GC pauses in decisions, ${ms(timing.gcMs)} ms in all; ${timing.slowWithGc} of the ${timing.slow} decisions at or above p99 had one; the process had a core ${Math.round(timing.onCpu * 100)} % of the wall-clock time`;

/** The corpus's orders, placed: warehouses across Europe, some with markets and capacities. */
function snapshots(count: number): { rich: RoutingSnapshot[]; plain: RoutingSnapshot[] } {
  const random = seededRandom(2026);
  const corpus = generateCorpus(36, count, { lines: [20, 20], warehouses: [50, 50] });
  const rich = corpus.map((order) => {
    const warehouses = order.warehouses.map((warehouse) => ({
      ...warehouse,
      latitude: 36 + random() * 22,
      longitude: -9 + random() * 33,
      countries: random() < 0.2 ? ['DE', 'AT', 'CH'] : null,
      daily_capacity: random() < 0.3 ? 300 : null,
      routed_today: Math.floor(random() * 320),
    }));
    return {
      ...snapshotOf({ ...order, warehouses }, RICHEST),
      destination: {
        country: 'IT',
        point: { latitude: 45.6983, longitude: 9.6773 },
        located_by: 'address' as const,
      },
    };
  });
  return { rich, plain: corpus.map((order) => snapshotOf(order, DEFAULT_ROUTING)) };
}

export async function benchRouting(quick: boolean): Promise<void> {
  const count = quick ? 50 : 1_000;
  const rounds = quick ? 1 : 5;
  const corpus = generateCorpus(36, count, { lines: [20, 20], warehouses: [50, 50] });
  const contexts = corpus.map(contextOf);
  const { rich, plain } = snapshots(count);
  // Warm-up, and a check of the work: the default rules and the greedy router route every line
  // (short lines too); the richest rules may leave a line no warehouse may take.
  for (const [index, order] of corpus.entries()) {
    const floor = greedyRouter(order.lines, null, contexts[index] as (typeof contexts)[number]);
    decideRouting(rich[index] as RoutingSnapshot);
    const decision = decideRouting(plain[index] as RoutingSnapshot);
    const routed = (lines: readonly unknown[]) => lines.length === order.lines.length;
    if (
      !routed(floor.flatMap((route) => route.lines)) ||
      !routed(decision.lines.filter((line) => line.parts.length > 0))
    )
      throw new Error(`bench routing: order ${index} left lines unrouted`);
  }
  const [richest, defaults, greedy] = (await measure(
    [
      (index) => decideRouting(rich[index] as RoutingSnapshot),
      (index) => decideRouting(plain[index] as RoutingSnapshot),
      (index) =>
        greedyRouter(
          (corpus[index] as (typeof corpus)[number]).lines,
          null,
          contexts[index] as (typeof contexts)[number],
        ),
    ],
    count,
    rounds,
  )) as [Timing, Timing, Timing];
  // The ratio of CPU time per decision: what the load of other processes does not skew.
  const mean = (timing: Timing) => 1 / timing.cpuRate;
  console.log(
    `routing decisions, 20 lines x 50 warehouses, ${count} seeded orders x ${rounds} rounds, one core ` +
      '(wall-clock latencies and rate; in brackets, per-decision CPU time and the rate from it)',
  );
  console.log(`  engine, ${RICHEST.length} rules (${RICHEST.join(', ')}): ${show(richest)}`);
  console.log(`    ${besides(richest)}`);
  console.log(`  engine, default rules (${DEFAULT_ROUTING.join(', ')}): ${show(defaults)}`);
  console.log(`    ${besides(defaults)}`);
  console.log(`  floor: the greedy router as it was, same orders: ${show(greedy)}`);
  console.log(`    ${besides(greedy)}`);
  console.log(
    `  ratio of CPU time per decision: richest ${ratioOf(mean(richest), mean(greedy))}, default ${ratioOf(mean(defaults), mean(greedy))}`,
  );
  const target = 'p99 <= 5 ms, >= 2,000/s';
  addRow({
    scenario: 'routing decision, 20 x 50, richest rules',
    fulfil: show(richest),
    floor: show(greedy),
    ratio: ratioOf(mean(richest), mean(greedy)),
    target,
  });
  addRow({
    scenario: 'routing decision, 20 x 50, default rules',
    fulfil: show(defaults),
    floor: show(greedy),
    ratio: ratioOf(mean(defaults), mean(greedy)),
    target,
  });
}
