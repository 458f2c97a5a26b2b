import { type Precompressed, PrecompressedCache } from './precompressed.js';

/**
 * The images the API reference page shows, served by the server itself so that the page loads
 * nothing from elsewhere: its icon (also at `/favicon.ico`), and the wordmark that stands in for
 * the logo Redoc's bundle would fetch from its CDN (scripts/build-docs-page.mjs points it here).
 */

const SVG = 'image/svg+xml';

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#32329f"/><path d="M10 7h13v4h-8.5v4H22v4h-7.5v7H10z" fill="#fff"/></svg>`;

const REDOC = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 80 20" width="80" height="20"><text x="0" y="15" font-family="sans-serif" font-size="15" font-weight="bold" fill="#32329f">Redoc</text></svg>`;

const SOURCES: Readonly<Record<string, string>> = { 'icon.svg': ICON, 'redoc.svg': REDOC };

/** The name the page's icon is served under, below `/docs/` (and at `/favicon.ico`). */
export const ICON_ASSET = 'icon.svg';

const built = new PrecompressedCache();

/** The asset called `name`, compressed on first use; undefined when there is none. */
export function docsAsset(name: string): Promise<Precompressed> | undefined {
  if (!Object.hasOwn(SOURCES, name)) return undefined;
  return built.get(name, SVG, () => SOURCES[name] as string);
}
