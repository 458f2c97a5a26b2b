import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAll } from '../src/index.js';

const PACKAGES = join(import.meta.dirname, '..', '..');

/** Every source file of every package: `src`, without generated or built code. */
function sources(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (/\.(ts|tsx)$/.test(entry.name)) files.push(path);
    }
  };
  for (const name of readdirSync(PACKAGES)) {
    const src = join(PACKAGES, name, 'src');
    try {
      walk(src);
    } catch {
      // a package without src
    }
  }
  return files;
}

describe('arrays of any length', () => {
  it('appendAll takes more items than a call takes arguments', () => {
    const many = Array.from({ length: 500_000 }, (_, index) => index);
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    const target = [-1];
    expect(appendAll(target, many)).toBe(target);
    expect(target.length).toBe(500_001);
    expect(target[500_000]).toBe(499_999);
  });

  it('no source spreads an array into the arguments of push, unshift, Math.max or Math.min', () => {
    const spread = /\.(push|unshift)\(\s*\.\.\.|Math\.(max|min)\(\s*\.\.\./;
    const found = sources().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          spread.test(line) ? [`${file.slice(PACKAGES.length + 1)}:${index + 1}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
