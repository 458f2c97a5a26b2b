import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * The documentation ships with the repository: no tracked markdown file links outside it, and
 * every relative link in README.md and docs/ reaches a file (and heading) that exists.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

const tracked = execFileSync('git', ['ls-files', '-z', '--', '*.md'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\0')
  .filter((path) => path !== '' && existsSync(join(ROOT, path)));

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Markdown links and reference definitions outside code blocks and code spans. */
export function linksOf(file: string, text: string): Link[] {
  const links: Link[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, index) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: index + 1, target: match[1] as string });
    }
    const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(line);
    if (definition) links.push({ file, line: index + 1, target: definition[1] as string });
  });
  return links;
}

const EXTERNAL = /^(https?:|mailto:)/i;

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(slug(heading[1] as string));
  }
  return anchors;
}

/** What is wrong with a link, or null. `mustExist`: relative targets must reach a file. */
function problemOf(link: Link, mustExist: boolean): string | null {
  const { target } = link;
  if (EXTERNAL.test(target)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) {
    return 'links outside the repository';
  }
  const [path = '', anchor] = target.split('#');
  const absolute =
    path === '' ? join(ROOT, link.file) : resolve(ROOT, dirname(link.file), decodeURI(path));
  const inside = relative(ROOT, absolute);
  if (inside.startsWith(`..${sep}`) || inside === '..') return 'links outside the repository';
  if (!mustExist) return null;
  if (!existsSync(absolute)) return 'links to a file that does not exist';
  if (anchor && absolute.endsWith('.md') && statSync(absolute).isFile()) {
    if (!anchorsOf(absolute).has(anchor))
      return `links to a heading #${anchor} that does not exist`;
  }
  return null;
}

function problems(files: readonly string[], mustExist: (file: string) => boolean): string[] {
  return files.flatMap((file) =>
    linksOf(file, readFileSync(join(ROOT, file), 'utf8')).flatMap((link) => {
      const problem = problemOf(link, mustExist(file));
      return problem ? [`${link.file}:${link.line} ${link.target}: ${problem}`] : [];
    }),
  );
}

const isUserDocumentation = (file: string) => file === 'README.md' || file.startsWith('docs/');

describe('markdown links', () => {
  test('the repository has its documentation', () => {
    for (const file of ['README.md', 'docs/README.md', 'docs/api.md', 'docs/behaviour.md']) {
      expect(tracked).toContain(file);
    }
  });

  test('no tracked markdown file links outside the repository', () => {
    expect(problems(tracked, () => false)).toEqual([]);
  });

  test('every relative link in README.md and docs/ resolves', () => {
    expect(problems(tracked.filter(isUserDocumentation), () => true)).toEqual([]);
  });

  test('the checks catch what they are for', () => {
    const sample = [
      '[spec](../shared/spec/x.md) [abs](/etc/passwd) [file](file:///tmp/x)',
      '[ok](docs/api.md#post-v1fulfillmentorderaccept) [web](https://example.com)',
      '[gone](docs/nothing.md) [bad anchor](docs/api.md#no-such-heading)',
      '`[not a link](../x.md)`',
      '```',
      '[in a code block](../y.md)',
      '```',
    ].join('\n');
    const found = linksOf('README.md', sample).map((link) => [link.target, problemOf(link, true)]);
    expect(found).toEqual([
      ['../shared/spec/x.md', 'links outside the repository'],
      ['/etc/passwd', 'links outside the repository'],
      ['file:///tmp/x', 'links outside the repository'],
      ['docs/api.md#post-v1fulfillmentorderaccept', null],
      ['https://example.com', null],
      ['docs/nothing.md', 'links to a file that does not exist'],
      ['docs/api.md#no-such-heading', 'links to a heading #no-such-heading that does not exist'],
    ]);
  });
});
