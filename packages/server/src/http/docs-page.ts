import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeHtml, HTML_CONTENT_TYPE } from './html.js';
import { type Precompressed, PrecompressedCache } from './precompressed.js';

/**
 * The API reference page (Redoc, built into `dist/docs.html` by `scripts/build-docs-page.mjs`).
 * It is the same page for every store: only the URL of the OpenAPI document it reads differs,
 * written into its `{{OPENAPI_URL}}` placeholder. Each of the few URLs is written, and its page
 * compressed, once per process.
 */

const PLACEHOLDER = '{{OPENAPI_URL}}';

// Bundled, this module lives in dist/ beside the page; run from source (tests), in src/http/.
const CANDIDATES = ['./docs.html', '../../dist/docs.html'];

export interface DocsPage {
  /** The page reading its OpenAPI document from `openApiUrl`, built on first use. */
  page(openApiUrl: string): Promise<Precompressed>;
}

/** Reads the built page; null when the package was not built with it. */
export function loadDocsPage(): DocsPage | null {
  const path = CANDIDATES.map((candidate) =>
    fileURLToPath(new URL(candidate, import.meta.url)),
  ).find(existsSync);
  if (!path) return null;
  const page = readFileSync(path, 'utf8');
  const at = page.indexOf(PLACEHOLDER);
  if (at < 0) throw new Error(`${path} has no ${PLACEHOLDER}: rebuild it`);
  const before = page.slice(0, at);
  const after = page.slice(at + PLACEHOLDER.length);
  const built = new PrecompressedCache();
  return {
    page: (openApiUrl) =>
      built.get(openApiUrl, HTML_CONTENT_TYPE, () => `${before}${escapeHtml(openApiUrl)}${after}`),
  };
}
