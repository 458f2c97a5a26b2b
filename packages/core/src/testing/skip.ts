import type { TestContext, TestOptions } from 'vitest';

/**
 * Skips that say why. vitest's `skipIf` and `it.skip` give no reason, and a run's output counts
 * skipped tests only; these keep the reason in the test's `meta.skipReason`, where reporters and
 * the JSON report find it, and in the note vitest's own reporters print.
 */

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test was skipped (`skipUnless`, `skipTest`). */
    skipReason?: string;
  }
}

/**
 * Options of `describe` or `it`: run as usual when `condition` holds; otherwise skip the test
 * (or every test of the suite) with `reason`:
 * `describe('on Postgres', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), …)`.
 */
export function skipUnless(condition: unknown, reason: string): TestOptions {
  return condition ? {} : { skip: true, meta: { skipReason: reason } };
}

/** Skips the running test with `reason`, from inside it: for what is known only once it runs. */
export function skipTest(context: TestContext, reason: string): never {
  context.task.meta.skipReason = reason;
  return context.skip(reason);
}
