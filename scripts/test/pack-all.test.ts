import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pnpmCommand, ROOT } from './support.js';

/**
 * `pnpm -s pack:all`: what an outside project installs until the packages are on a registry.
 * CI runs the line it prints in such a project (scripts/outside-project.sh).
 */

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function packAll(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, ...first] = pnpmCommand();
  return new Promise((resolve) => {
    execFile(
      command,
      [...first, '-s', 'pack:all', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** The package.json inside a tarball. */
function manifestIn(tarball: string): {
  name: string;
  version: string;
  types: string;
  dependencies?: Record<string, string>;
} {
  return JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  );
}

/** The files inside a tarball, from the package's root. */
function filesIn(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .map((file) => file.replace(/^package\//, ''));
}

describe('pack:all', () => {
  it('prints one npm install line with every tarball the named packages need, and no other', async () => {
    const out = await mkdtemp(join(tmpdir(), 'fulfil-packed-'));
    dirs.push(out);
    const { code, stdout, stderr } = await packAll(['--out', out, '@fulfil/testkit', 'client']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`Packed 9 packages into ${out}.`);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const [npm, install, ...tarballs] = (lines[0] as string).split(' ');
    expect([npm, install]).toEqual(['npm', 'install']);
    const manifests = tarballs.map((tarball) => {
      expect(existsSync(tarball), tarball).toBe(true);
      const manifest = manifestIn(tarball);
      // Built with types, whatever `pnpm start` built before (it builds without).
      expect(filesIn(tarball), tarball).toContain(manifest.types.replace(/^\.\//, ''));
      return manifest;
    });
    const listed = new Map(manifests.map((manifest) => [manifest.name, manifest.version]));
    expect([...listed.keys()]).toEqual([
      '@fulfil/client',
      '@fulfil/console',
      '@fulfil/core',
      '@fulfil/geo',
      '@fulfil/server',
      '@fulfil/storage-kysely',
      '@fulfil/storage-sqlite',
      '@fulfil/testkit',
    ]);
    // npm finds every dependency of ours among the tarballs, at the version they ask for: none
    // is looked for on a registry, where it is not.
    for (const manifest of manifests) {
      for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
        if (!name.startsWith('@fulfil/')) continue;
        expect(listed.get(name), `${manifest.name} needs ${name}`).toBe(range);
      }
    }
  }, 300_000);

  it('refuses a package it does not have, naming those it has', async () => {
    const { code, stdout, stderr } = await packAll(['@fulfil/nothing']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'pack:all: @fulfil/nothing is not one of the packages: @fulfil/client,',
    );
  });
});
