import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/**
 * Issue 16 item 11: a 503 can follow an action the database committed (the connection dropped
 * between the commit and its reply), as docs/faults-and-shutdown.md says. Every page that tells
 * clients what a 503 means says so too, and none says a 503 changed nothing.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const PAGES = [
  'README.md',
  'docs/behaviour.md',
  'docs/api.md',
  'docs/partner-guide.md',
  'docs/erp-guide.md',
];

/** Sentences and table rows, with line breaks and markup folded away. */
function statements(text: string): string[] {
  return text
    .replace(/`/g, '')
    .split(/\n\s*\n|\n\||\.\s+/)
    .map((part) => part.replace(/\s+/g, ' ').trim());
}

test.each(PAGES)('%s: a 503 may follow a committed action, and retrying is safe', (page) => {
  const said = statements(readFileSync(join(ROOT, page), 'utf8'));
  const about503 = said.filter((statement) => /\b503\b/.test(statement));
  expect(about503.length).toBeGreaterThan(0);
  // "A failed request changes nothing, except that a 503…" is right; "503 changes nothing" is not.
  const unchanged = about503.filter(
    (statement) =>
      /nothing (was|is) changed|changes? nothing/i.test(statement) && !/except/i.test(statement),
  );
  expect(unchanged).toEqual([]);
  expect(about503.some((statement) => /commit/i.test(statement))).toBe(true);
  expect(said.some((statement) => /idempotent/.test(statement))).toBe(true);
});
