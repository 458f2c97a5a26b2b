import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
// The `meta.skipReason` of tests, as @fulfil/core/testing's skipUnless and skipTest keep it.
import type {} from '../packages/core/src/testing/skip.js';

/**
 * The skipped tests of a run, each with why, at the end of its output: vitest's own reporters
 * count them only. A reporter (vitest.config.ts), and the lines CI's summary ends with
 * (test-summary.ts).
 */

export interface SkippedTest {
  /** The test file, from the repository root. */
  file: string;
  /** Its suites and its title, ` > ` between them. */
  name: string;
  reason: string | undefined;
}

/** The skipped tests, grouped by reason; nothing when none was. */
export function describeSkipped(skipped: readonly SkippedTest[]): string[] {
  if (skipped.length === 0) return [];
  const byReason = new Map<string, SkippedTest[]>();
  for (const test of skipped) {
    const reason = test.reason ?? 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), test]);
  }
  const lines = [`${skipped.length} skipped, and why:`];
  for (const [reason, tests] of byReason) {
    lines.push(`  ${reason}:`);
    for (const test of tests) lines.push(`    ${test.file} > ${test.name}`);
  }
  return lines;
}

/** Why a test was skipped: the reason it keeps, else vitest's own note of it. */
function reasonOf(test: TestCase): string | undefined {
  if (test.meta().skipReason !== undefined) return test.meta().skipReason;
  if (test.options.mode === 'todo') return 'to do';
  const result = test.result();
  return result.state === 'skipped' ? result.note : undefined;
}

export default class SkippedTestsReporter implements Reporter {
  #vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = testModules.flatMap((module) =>
      [...module.children.allTests('skipped')].map((test) => ({
        file: module.relativeModuleId,
        name: test.fullName,
        reason: reasonOf(test),
      })),
    );
    for (const line of describeSkipped(skipped)) this.#vitest?.logger.log(line);
  }
}
