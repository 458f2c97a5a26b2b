import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every release note names the packages it bumps in its front matter, as `changeset version`
 * reads them: a Markdown formatter that turns `'@fulfil/core': patch` above `---` into a heading
 * leaves a note that bumps nothing and a changelog that lacks it.
 */

const dir = join(import.meta.dirname, '../../.changeset');
const notes = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md');
const workspace = new Set(
  readdirSync(join(import.meta.dirname, '../../packages')).map((name) => `@fulfil/${name}`),
);

describe('release notes', () => {
  it.each(notes)('%s names the packages it bumps', (name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(match, 'front matter between two --- lines').not.toBeNull();
    const lines = (match?.[1] ?? '').split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const bump = /^'(@fulfil\/[a-z-]+)': (patch|minor|major)$/.exec(line);
      expect(bump, line).not.toBeNull();
      expect(workspace.has(bump?.[1] ?? ''), line).toBe(true);
    }
    expect(text.slice(match?.[0].length ?? 0).trim()).not.toBe('');
  });
});
