import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Every package's sources import each other along a graph without circles. */

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files a source imports by relative path (type-only imports included: they still tie). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)].map((match) =>
    resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')),
  );
}

/** One circle of imports, as the files along it, or null. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

describe('import graph', () => {
  for (const name of readdirSync(packagesDir)) {
    it(`packages/${name}/src has no import cycle`, () => {
      const files = sources(join(packagesDir, name, 'src'));
      const graph = new Map(files.map((file) => [file, importsOf(file)]));
      const cycle = findCycle(graph);
      expect(cycle?.map((file) => file.slice(packagesDir.length + 1)) ?? null).toBeNull();
    });
  }
});
