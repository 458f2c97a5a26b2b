import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

/** Skips say why: in every run's output, and in the lines CI's run ends with. */

const TEST_FILE = 'scripts/test/skipped-tests.test.ts';

/** A test file that skips in every way there is. */
const SKIPPING = `
import { skipTest, skipUnless } from '@fulfil/core/testing';
import { describe, it } from 'vitest';

describe('on a database', skipUnless(false, 'DATABASE_URL is not set'), () => {
  it('reads', () => {});
  it('writes', () => {});
});
it('on a second connection', (context) => {
  skipTest(context, 'an in-memory database has one');
});
it.skip('forgotten', () => {});
it('runs', skipUnless(true, 'never said'), () => {});
`;

const EXPECTED = [
  '4 skipped, and why:',
  '  DATABASE_URL is not set:',
  '    scripts/test/skipping.test.ts > on a database > reads',
  '    scripts/test/skipping.test.ts > on a database > writes',
  '  an in-memory database has one:',
  '    scripts/test/skipping.test.ts > on a second connection',
  '  no reason given:',
  '    scripts/test/skipping.test.ts > forgotten',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fulfil-skips-'));
  await mkdir(join(dir, 'scripts/test'), { recursive: true });
  await writeFile(join(dir, 'scripts/test/skipping.test.ts'), SKIPPING);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs vitest with the repository's configuration over the test file above. */
function vitest(args: string[] = []): Promise<string> {
  // Not the variables of the run this test is part of.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')),
  );
  const cli = join(ROOT, 'node_modules/vitest/vitest.mjs');
  const config = join(ROOT, 'vitest.config.ts');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'run', '--config', config, '--root', dir, '--color=false', ...args],
      { cwd: dir, env: { ...env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${stdout}${stderr}`)) : resolve(stdout),
    );
  });
}

describe('a skipped test', () => {
  it('is listed at the end of the run, under why it was skipped', async () => {
    const out = await vitest();
    expect(out.trimEnd().split('\n').slice(-EXPECTED.length)).toEqual(EXPECTED);
  }, 60_000);

  it("is listed, with why, in the lines CI's run ends with", async () => {
    // .ci/run's reporters, then its summary of the JSON report.
    const reporter = join(ROOT, 'scripts/skipped-tests.ts');
    const report = join(dir, 'report.json');
    await vitest([
      '--reporter=default',
      `--reporter=${reporter}`,
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]);
    // As .ci/run runs it (`--import tsx`), from the directory of the tests.
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const summary = execFileSync(
      process.execPath,
      ['--import', tsx, join(ROOT, 'scripts/test-summary.ts'), report],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(summary.trimEnd().split('\n')).toEqual([
      'tests: 1 passed, 0 failed, 4 skipped',
      ...EXPECTED,
    ]);
  }, 60_000);
});

describe('the skips of this repository', () => {
  it('each say why: none by skipIf, runIf, a bare skip or context.skip', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      // The helpers themselves, and this file, whose test file above skips every way there is.
      .filter((file) => file && !['packages/core/src/testing/skip.ts', TEST_FILE].includes(file));
    const silent = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\b(it|test|describe)\.(skip|skipIf|runIf)\b|\b(context|ctx)\.skip\(/.test(line)
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(silent).toEqual([]);
  });
});
