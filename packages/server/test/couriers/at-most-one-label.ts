import type { Repository } from '@fulfil/core';
import { afterAll, expect, it } from 'vitest';
import { emptyFigures, labelRun } from './label-runs.js';

/**
 * CI runs `ci`; `FULFIL_LONG=1` runs `long`, ten times more unless named. `FULFIL_LABEL_SEED`
 * replays one run.
 */
export function runCount(ci: number, long = ci * 10): number {
  return process.env.FULFIL_LONG === '1' ? long : ci;
}

/**
 * The at-most-one-label runs on one database, through two repositories (two dispatchers). Prints
 * its figures when done.
 */
export function describeLabelRuns(
  name: string,
  runs: number,
  open: () => Promise<{ repositories: [Repository, Repository]; close(): Promise<void> }>,
): void {
  const figures = emptyFigures();
  afterAll(() => {
    console.info(`${name}: ${JSON.stringify(figures)}`);
  });
  it(`${name}: ${runs} randomized dispatch runs leave exactly one live label per shipped parcel and none elsewhere`, async () => {
    const database = await open();
    const replay = process.env.FULFIL_LABEL_SEED;
    const seeds = replay ? [Number(replay)] : Array.from({ length: runs }, (_, run) => 1 + run);
    try {
      for (const seed of seeds) await labelRun(seed, database.repositories, figures);
    } finally {
      await database.close();
    }
    expect(figures.runs).toBe(seeds.length);
    // The mix did happen: every fault, races and lease expiries.
    if (!replay) {
      expect(Object.keys(figures.faults).sort()).toEqual([
        'drop',
        'hang',
        'refuse',
        'server_error',
        'slow',
        'throttle',
        'timeout_after_create',
      ]);
      expect(figures.races).toBeGreaterThan(0);
      expect(figures.lease_expiries).toBeGreaterThan(0);
    }
  }, 600_000);
}
