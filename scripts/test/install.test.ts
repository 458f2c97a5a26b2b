import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pnpmCommand, ROOT } from './support.js';

const run = (command: string, args: string[], cwd: string) =>
  promisify(execFile)(command, args, { cwd, env: { ...process.env, CI: 'true' } });

/** The files git tracks: what a fresh clone holds before anything is built. */
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** Every bin the workspace's packages declare, as a path from the root. */
function workspaceBins(): { name: string; file: string }[] {
  const dirs = [
    'examples',
    ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}`),
  ];
  return dirs.flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
    return Object.entries((manifest.bin ?? {}) as Record<string, string>).map(([name, file]) => ({
      name,
      file: posix.join(dir, file),
    }));
  });
}

describe('installing a fresh clone', () => {
  it('links every bin of the workspace: each names a file the clone holds before a build', () => {
    const bins = workspaceBins();
    expect(bins.length).toBeGreaterThan(0);
    for (const bin of bins) expect(tracked, `bin ${bin.name}`).toContain(bin.file);
  });

  it('prints no warning: every bin links, every build script is allowed or refused', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'fulfil-install-'));
    try {
      // What install reads: the manifests, the lockfile, the workspace settings, and the bins.
      const files = [
        ...tracked.filter(
          (file) =>
            /(^|\/)package\.json$/.test(file) ||
            ['pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc'].includes(file),
        ),
        ...workspaceBins()
          .map((bin) => bin.file)
          .filter((file) => tracked.includes(file)),
      ];
      for (const file of files) {
        await mkdir(dirname(join(copy, file)), { recursive: true });
        await copyFile(join(ROOT, file), join(copy, file));
      }
      const [command, ...args] = pnpmCommand();
      const { stdout, stderr } = await run(
        command,
        [...args, 'install', '--frozen-lockfile', '--offline'],
        copy,
      );
      const output = `${stdout}${stderr}`;
      expect(output).toContain('Done in');
      expect(output).not.toMatch(/WARN|Ignored build scripts/);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 180_000);
});
