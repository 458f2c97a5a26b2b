import { createHash } from 'node:crypto';
import { ADMIN_PREFIX, ADMIN_SCHEMA_PATH } from './admin-routes.js';
import { escapeHtml, HTML_CONTENT_TYPE } from './html.js';
import { JSON_MEDIA, preferred } from './media.js';
import { HEALTH_PATH, READY_PATH } from './probes.js';
import { METRICS_PATH } from './prometheus.js';
import { notAcceptable } from './refusals.js';
import { DOCS_PATH, SCHEMA_PATH } from './routes.js';

/**
 * `GET /`, where someone who opens the server's URL learns where to go: a small page for a
 * browser, the same links as JSON for an API client (by `Accept`). It links the API reference,
 * the OpenAPI document, the console and the admin API where they are served, the probes, and the
 * metrics when they are on.
 */

export const HOME_PATH = '/';

/** What this server serves besides the API: each is linked only when it is. */
export interface HomeOffers {
  docs: boolean;
  console: boolean;
  admin: boolean;
  metrics: boolean;
}

interface Link {
  /** Its name in the JSON document. */
  key: string;
  path: string;
  title: string;
  about: string;
}

/** Where the API's operations are, as a template. */
const API_PATH = '/rest/{store_code}/V1';

function linksFor(offers: HomeOffers): Link[] {
  const links: (Link | false)[] = [
    offers.docs && {
      key: 'docs',
      path: DOCS_PATH,
      title: 'API reference',
      about: 'every operation, its request and its answers, with examples',
    },
    {
      key: 'openapi',
      path: `/rest/default${SCHEMA_PATH}`,
      title: 'OpenAPI document',
      about:
        'the API as OpenAPI 3.1 JSON, for the store default (any store: /rest/{store_code}/schema)',
    },
    offers.console && {
      key: 'console',
      path: '/admin/',
      title: 'Console',
      about: 'where operators follow and act on orders, logged in with their secret',
    },
    offers.admin && {
      key: 'admin_api',
      path: `${ADMIN_PREFIX}${ADMIN_SCHEMA_PATH}`,
      title: 'Admin API',
      about: 'the OpenAPI document of the API the console calls',
    },
    { key: 'health', path: HEALTH_PATH, title: 'Health', about: 'whether the process answers' },
    { key: 'ready', path: READY_PATH, title: 'Ready', about: 'whether it can reach its database' },
    offers.metrics && {
      key: 'metrics',
      path: METRICS_PATH,
      title: 'Metrics',
      about: 'Prometheus series',
    },
  ];
  return links.filter((link): link is Link => link !== false);
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;color:#1f2330;max-width:42rem;margin:3rem auto;padding:0 1rem}' +
  'a{color:#32329f}li{margin:.5rem 0}code{font-size:.9em}';

/** Nothing but the page's own stylesheet and the server's icon. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * The page. Its links are relative, so that they stay right behind a proxy that mounts the
 * server under a path.
 */
function page(offers: HomeOffers): string {
  const items = linksFor(offers).map(
    (link) =>
      `<li><a href="${escapeHtml(link.path.slice(1))}">${escapeHtml(link.title)}</a>: ${escapeHtml(link.about)}</li>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fulfil</title>
<link rel="icon" type="image/svg+xml" href="${escapeHtml(DOCS_PATH.slice(1))}/icon.svg">
<style>${STYLE}</style>
</head>
<body>
<h1>Fulfil</h1>
<p>This server speaks the fulfillment REST API under <code>${escapeHtml(API_PATH)}</code>: every call takes a token, sent as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<ul>
${items.join('\n')}
</ul>
</body>
</html>
`;
}

/** The same links as JSON, absolute from `baseUrl` (empty: from the root of this server). */
function document(baseUrl: string, offers: HomeOffers): string {
  const links = Object.fromEntries(linksFor(offers).map((link) => [link.key, baseUrl + link.path]));
  return JSON.stringify({ name: 'Fulfil', api: baseUrl + API_PATH, links });
}

const OFFERED = [
  { type: 'application', subtype: 'json', format: 'json' },
  { type: 'text', subtype: 'html', format: 'html' },
] as const;

/**
 * The answer to `GET /` for a request that accepts `accept`: JSON by default and on a tie, the
 * page when the client weighs HTML higher (a browser); a 406 when it takes neither.
 */
export function homeAnswer(
  accept: string | undefined,
  baseUrl: string,
  offers: HomeOffers,
): { contentType: string; body: string; headers: Readonly<Record<string, string>> } {
  const chosen =
    accept === undefined || accept.trim() === '' ? OFFERED[0] : preferred(accept, OFFERED);
  if (!chosen) throw notAcceptable(accept, 'application/json or text/html');
  return chosen.format === 'html'
    ? { contentType: HTML_CONTENT_TYPE, body: page(offers), headers: PAGE_HEADERS }
    : { contentType: JSON_MEDIA.contentType, body: document(baseUrl, offers), headers: {} };
}
