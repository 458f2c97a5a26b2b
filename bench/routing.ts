/**
 * Routing decisions in process: `decideRouting` at 20 lines x 50 warehouses on a seeded corpus
 * (sparse stock, warehouses across Europe with coordinates, some with countries and daily
 * capacities), under the richest rule list and under the default list, against routing as it
 * was before rules were data (the greedy router, kept word for word in the core's tests) on the
 * same orders. Each side gets its input ready-made; each decision is timed on its own, the sides
 * taking turns round by round, on one core (this process).
 */
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
  /** Decisions a second, from the time of all of them. */
  rate: number;
  /** Decisions a second of this process's CPU time: what one core does, however loaded. */
  cpuRate: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** Runs `decide` over the inputs `rounds` times in turns with the others; per-decision times. */
function measure(sides: ((index: number) => unknown)[], count: number, rounds: number): Timing[] {
  const times = sides.map(() => [] as number[]);
  const totals = sides.map(() => 0);
  const cpu = sides.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < sides.length; turn++) {
      const side = (round + turn) % sides.length;
      const decide = sides[side] as (index: number) => unknown;
      const usage = process.cpuUsage();
      const started = performance.now();
      for (let index = 0; index < count; index++) {
        const before = performance.now();
        decide(index);
        (times[side] as number[]).push(performance.now() - before);
      }
      totals[side] = (totals[side] as number) + performance.now() - started;
      const used = process.cpuUsage(usage);
      cpu[side] = (cpu[side] as number) + (used.user + used.system) / 1000;
    }
  }
  return times.map((list, side) => {
    const sorted = [...list].sort((a, b) => a - b);
    return {
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      rate: (list.length / (totals[side] as number)) * 1000,
      cpuRate: (list.length / (cpu[side] as number)) * 1000,
    };
  });
}

const ms = (value: number) => (value < 0.1 ? value.toFixed(4) : value.toFixed(2));
const perSecond = (rate: number) => Math.round(rate).toLocaleString('en');
const show = (timing: Timing) =>
  `p50 ${ms(timing.p50)} ms, p99 ${ms(timing.p99)} ms, ${perSecond(timing.rate)}/s (${perSecond(timing.cpuRate)}/CPU-s)`;

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

export function benchRouting(quick: boolean): void {
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
  const [richest, defaults, greedy] = measure(
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
  ) as [Timing, Timing, Timing];
  // The ratio of CPU time per decision: what the load of other processes does not skew.
  const mean = (timing: Timing) => 1 / timing.cpuRate;
  console.log(
    `routing decisions, 20 lines x 50 warehouses, ${count} seeded orders x ${rounds} rounds, one core ` +
      '(wall-clock latencies; rates from the wall clock and, in brackets, from CPU time)',
  );
  console.log(`  engine, ${RICHEST.length} rules (${RICHEST.join(', ')}): ${show(richest)}`);
  console.log(`  engine, default rules (${DEFAULT_ROUTING.join(', ')}): ${show(defaults)}`);
  console.log(`  floor: the greedy router as it was, same orders: ${show(greedy)}`);
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
