import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file as served: its bytes, and the precompressed variants the build wrote beside it. */
export interface Asset {
  contentType: string;
  etag: string;
  /** A hashed name never changes content, so it may be kept for a year; index.html may not. */
  immutable: boolean;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

// Bundled, this module lives in dist/ beside app/; run from source (tests), in src/.
const CANDIDATES = ['./app/', '../dist/app/'];

/** Where the built assets are: `dist/app` of this package, or null when it was not built. */
export function defaultAssetsDirectory(): string | null {
  return (
    CANDIDATES.map((candidate) => fileURLToPath(new URL(candidate, import.meta.url))).find((path) =>
      existsSync(join(path, 'index.html')),
    ) ?? null
  );
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot);
}

/**
 * Reads every built file once, keyed by its path relative to `directory` (`index.html`,
 * `assets/app-3F2A….js`). `.br` and `.gz` files are variants of the file they name, not files.
 */
export function loadAssets(directory: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const files = (readdirSync(directory, { recursive: true }) as string[])
    .map((name) => name.split('\\').join('/'))
    .filter((name) => TYPES[extension(name)] !== undefined);
  for (const name of files) {
    const identity = readFileSync(join(directory, name));
    const variant = (suffix: string) =>
      existsSync(join(directory, name + suffix))
        ? readFileSync(join(directory, name + suffix))
        : undefined;
    const br = variant('.br');
    const gzip = variant('.gz');
    const digest = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    assets.set(name, {
      contentType: TYPES[extension(name)] as string,
      etag: `"${digest}"`,
      immutable: name.startsWith('assets/'),
      identity,
      ...(br ? { br } : {}),
      ...(gzip ? { gzip } : {}),
    });
  }
  return assets;
}
