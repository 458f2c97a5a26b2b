import { addRow, ratioOf } from './summary.js';

/**
 * Timing for the in-process benchmarks: our path and its raw floor, measured in the same process on the
 * same data, round by round in turns (which goes first alternates), after a warm-up. A figure is
 * the median over the rounds of the mean time of one operation in that round.
 */

/** One operation; `i` counts the side's operations from 0, warm-up included. */
export type Operation = (i: number) => unknown;

export interface Plan {
  warmupOps: number;
  opsPerRound: number;
  rounds: number;
}

export interface Comparison {
  /** ms per operation, median over the rounds. */
  fulfil: number;
  floor: number;
}

/** The plan of `--quick`: a few operations, enough to show both sides still run. */
export function quickPlan(plan: Plan, quick: boolean): Plan {
  return quick ? { warmupOps: 2, opsPerRound: Math.min(plan.opsPerRound, 3), rounds: 3 } : plan;
}

/** How many operations each side runs in all: what benchmarks that use up data must prepare. */
export function opsPerSide(plan: Plan): number {
  return plan.warmupOps + plan.opsPerRound * plan.rounds;
}

/** The middle of `values`, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

class Side {
  #next = 0;
  readonly rounds: number[] = [];

  constructor(readonly run: Operation) {}

  /** Runs `ops` operations; returns the mean ms of one. Sync operations are not awaited. */
  async round(ops: number): Promise<number> {
    const start = performance.now();
    for (let k = 0; k < ops; k++) {
      const result = this.run(this.#next++);
      if (result instanceof Promise) await result;
    }
    return (performance.now() - start) / ops;
  }
}

export async function compare(
  fulfil: Operation,
  floor: Operation,
  plan: Plan,
): Promise<Comparison> {
  const ours = new Side(fulfil);
  const raw = new Side(floor);
  await ours.round(plan.warmupOps);
  await raw.round(plan.warmupOps);
  for (let r = 0; r < plan.rounds; r++) {
    const order = r % 2 === 0 ? [ours, raw] : [raw, ours];
    for (const side of order) side.rounds.push(await side.round(plan.opsPerRound));
  }
  return { fulfil: median(ours.rounds), floor: median(raw.rounds) };
}

function ms(value: number): string {
  return value < 0.1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1);
}

/**
 * `label: fulfil X ms/op, raw SQL floor Y ms/op, ratio Zx`, then what each side did; and the
 * summary's row (its ratio is floor/ours, a share of the floor's speed like the HTTP rows').
 */
export function report(
  label: string,
  result: Comparison,
  what: { fulfil: string; floor: string },
): void {
  const ratio = result.fulfil / result.floor;
  console.log(
    `${label}: fulfil ${ms(result.fulfil)} ms/op, raw SQL floor ${ms(result.floor)} ms/op, ratio ${ratio.toFixed(1)}x`,
  );
  console.log(`    fulfil: ${what.fulfil}`);
  console.log(`    floor:  ${what.floor}`);
  addRow({
    scenario: `in-process ${label}`,
    fulfil: `${ms(result.fulfil)} ms/op`,
    floor: `${ms(result.floor)} ms/op`,
    ratio: ratioOf(result.floor, result.fulfil),
    target: '—',
  });
}
