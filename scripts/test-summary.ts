// `node --import tsx scripts/test-summary.ts <report.json>`: the lines CI's run ends with, from
// vitest's JSON report: "tests: N passed, N failed, N skipped", then each failed test with the
// first lines of its error (the tail of a long log is often all a reader sees), then each skipped
// test and why.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describeSkipped, type SkippedTest } from './skipped-tests.js';

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults: {
    name: string;
    assertionResults: {
      ancestorTitles: string[];
      title: string;
      status: string;
      failureMessages?: string[];
      meta?: { skipReason?: string };
    }[];
  }[];
}

const file = process.argv[2];
if (file === undefined) throw new Error('usage: test-summary.ts <vitest JSON report>');
const report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
type Module = JsonReport['testResults'][number];

/** Where a test is and what it is called, as CI's summary names it. */
function placeOf(module: Module, test: Module['assertionResults'][number]) {
  return {
    file: relative(process.cwd(), module.name),
    name: [...test.ancestorTitles, test.title].join(' > '),
  };
}

const skipped: SkippedTest[] = report.testResults.flatMap((module) =>
  module.assertionResults
    .filter(
      (test) => test.status === 'skipped' || test.status === 'pending' || test.status === 'todo',
    )
    .map((test) => ({
      ...placeOf(module, test),
      reason: test.meta?.skipReason ?? (test.status === 'todo' ? 'to do' : undefined),
    })),
);
const count = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(
  `tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${count} skipped`,
);
for (const module of report.testResults) {
  for (const test of module.assertionResults) {
    if (test.status !== 'failed') continue;
    const { file, name } = placeOf(module, test);
    console.log(`failed: ${file} > ${name}`);
    const message = (test.failureMessages ?? []).join('\n').split('\n').slice(0, 6);
    for (const line of message) console.log(`  ${line.slice(0, 300)}`);
  }
}
for (const line of describeSkipped(skipped)) console.log(line);
