import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

/** `pnpm build`: scripts/build.mjs, here over a workspace of made-up packages. */

let workspace: string | undefined;
afterEach(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

/** A script that prints what tsup prints, checks that `needs` are built, then builds. */
function noisyBuild(needs: string[] = []): string {
  const program = [
    "const fs = require('node:fs');",
    "console.log('CLI Building entry: src/index.ts'); console.error('ESM Build success in 12ms');",
    ...needs.map((name) => `if (!fs.existsSync('../${name}/dist/index.js')) process.exit(3);`),
    "fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.js', '');",
  ].join(' ');
  return `node -e "${program}"`;
}

async function makeWorkspace(
  packages: Record<string, { build: string; needs?: string[] }>,
): Promise<string> {
  workspace = await mkdtemp(join(tmpdir(), 'fulfil-build-'));
  for (const [name, { build, needs = [] }] of Object.entries(packages)) {
    await mkdir(join(workspace, 'packages', name), { recursive: true });
    const dependencies = Object.fromEntries(needs.map((need) => [need, 'workspace:*']));
    await writeFile(
      join(workspace, 'packages', name, 'package.json'),
      JSON.stringify({ name, scripts: { build }, dependencies }),
    );
  }
  return workspace;
}

function build(
  root: string,
  flags: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'scripts/build.mjs'), ...flags, root],
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('the build', () => {
  it('says how long it usually takes, then one line per package; what the tools print stays out', async () => {
    const root = await makeWorkspace({
      server: { build: noisyBuild(['core', 'client']), needs: ['core', 'client', 'left-out'] },
      core: { build: noisyBuild() },
      client: { build: noisyBuild(['core']), needs: ['core'] },
    });
    const { code, stdout, stderr } = await build(root);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('Building 3 packages (usually about a minute)…');
    // In the order their needs allow, each with its time.
    expect(lines.slice(1, 4)).toEqual([
      expect.stringMatching(/^ {2}core {4}\d+\.\d s$/),
      expect.stringMatching(/^ {2}client {2}\d+\.\d s$/),
      expect.stringMatching(/^ {2}server {2}\d+\.\d s$/),
    ]);
    expect(lines[4]).toMatch(/^Built 3 packages in \d+ s\.$/);
    expect(lines).toHaveLength(5);
  });

  it('prints the output of a build that fails, and starts nothing that needs it', async () => {
    const root = await makeWorkspace({
      core: {
        build: `node -e "console.error('src/index.ts(9,14): error TS2322: Type string is not assignable'); process.exit(2)"`,
      },
      server: { build: noisyBuild(), needs: ['core'] },
    });
    const { code, stderr } = await build(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      '  core failed:\nsrc/index.ts(9,14): error TS2322: Type string is not assignable\n',
    );
    expect(stderr).toMatch(/The build failed \(core\)\.\n$/);
    expect(existsSync(join(root, 'packages/server/dist'))).toBe(false);
  });

  it('builds without types to run the packages, and says so', async () => {
    // The packages' tsup config (tsup.base.ts) reads FULFIL_BUILD_TYPES.
    const program = `require('node:fs').writeFileSync('types', process.env.FULFIL_BUILD_TYPES)`;
    const root = await makeWorkspace({ core: { build: `node -e "${program}"` } });
    const run = await build(root, ['--no-types']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^Building 1 package to run them, without types \(usually under 20 seconds\)…\n/,
    );
    expect(readFileSync(join(root, 'packages/core/types'), 'utf8')).toBe('off');
    expect((await build(root)).code).toBe(0);
    expect(readFileSync(join(root, 'packages/core/types'), 'utf8')).toBe('on');
  });
});
