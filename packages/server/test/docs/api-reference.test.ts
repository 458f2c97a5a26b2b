import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { buildAdminOpenApiDocument } from '../../src/index.js';
import { startTestServer } from '../http/support.js';

/**
 * The reference pages keep up with what the server serves: every operation of the OpenAPI
 * document `GET /rest/{store}/schema` serves has its section in docs/api.md, and every route of
 * the admin API's document its line in docs/admin-api.md.
 */

const read = (page: string) =>
  readFileSync(new URL(`../../../../docs/${page}`, import.meta.url), 'utf8');

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** `GET /V1/warehouses`, … : every operation of a document, as its method and path. */
function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The markdown's headings, each with the text of its section (up to the next heading). */
function sections(markdown: string): { heading: string; body: string }[] {
  const found: { heading: string; body: string }[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{2,4} (.*)$/.exec(line);
    if (heading) found.push({ heading: heading[1] as string, body: '' });
    else if (found.length > 0) (found.at(-1) as { body: string }).body += `${line}\n`;
  }
  return found;
}

/**
 * Whether docs/api.md documents `operation`: a heading names it, or names its path with a
 * parameter where the operation has a fixed segment (`GET /V1/fulfillmentOrders/{queue}`) whose
 * section then names that segment as code (`pending_cancellation`).
 */
function documentedInApi(markdown: string, operation: string): boolean {
  const [method, path] = operation.split(' ') as [string, string];
  const wanted = path.split('/');
  return sections(markdown).some(({ heading, body }) =>
    [...heading.matchAll(/\b(GET|POST|PUT|DELETE|PATCH) (\/\S+)/g)].some(([, verb, template]) => {
      const parts = (template as string).replace(/[`,:]+$/, '').split('/');
      if (verb !== method || parts.length !== wanted.length) return false;
      return parts.every((part, index) => {
        const segment = wanted[index] as string;
        if (part === segment) return true;
        if (!/^\{.+\}$/.test(part)) return false;
        return /^\{.+\}$/.test(segment) || body.includes(`\`${segment}\``);
      });
    }),
  );
}

/**
 * The routes docs/admin-api.md lists, as `METHOD /path` with `{name}` parameters: each
 * `` `METHOD /path` `` (`:name` parameters, `{a|b}` alternatives, `/admin/api` left out), and its
 * `` `METHOD …/tail` `` shorthands, read against the last full path before them.
 */
function adminRoutesListed(markdown: string): Set<string> {
  const routes = new Set<string>();
  let parent = '';
  for (const [, method, path] of markdown.matchAll(
    /`(GET|POST|PUT|DELETE|PATCH) ([/…][^`?\s]*)/g,
  )) {
    const written = (path as string).replace(/^\/admin\/api(?=\/)/, '');
    const full = written.startsWith('…/') ? `${parent}/${written.slice(2)}` : written;
    if (!written.startsWith('…/')) parent = full.split('/').slice(0, -1).join('/');
    const alternatives = /\{([^}]*\|[^}]*)\}/.exec(full);
    const expanded = alternatives
      ? (alternatives[1] as string).split('|').map((one) => full.replace(alternatives[0], one))
      : [full];
    for (const route of expanded) routes.add(`${method} ${route.replace(/:(\w+)/g, '{$1}')}`);
  }
  return routes;
}

describe('the reference pages name every operation', () => {
  test('docs/api.md: every operation of the served OpenAPI document', async () => {
    const server = await startTestServer();
    try {
      const response = await fetch(`${server.url}/rest/default/schema`);
      const operations = operationsOf(
        (await response.json()) as { paths: Record<string, Record<string, unknown>> },
      );
      expect(operations.length).toBeGreaterThan(20);
      const page = read('api.md');
      expect(operations.filter((operation) => !documentedInApi(page, operation))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test('docs/admin-api.md: every route of the admin API', () => {
    const operations = operationsOf(
      buildAdminOpenApiDocument() as { paths: Record<string, Record<string, unknown>> },
    );
    expect(operations.length).toBeGreaterThan(30);
    const listed = adminRoutesListed(read('admin-api.md'));
    expect(operations.filter((operation) => !listed.has(operation))).toEqual([]);
  });
});
