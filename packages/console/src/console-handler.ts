import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Asset, defaultAssetsDirectory, loadAssets } from './assets.js';

/**
 * What the page may do, and nothing more: its own scripts, styles and API only, no inline code,
 * no framing, no `<base>`, forms only to itself.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Header values as node:http gives them: names lowercased, repeated headers as arrays. */
export type ConsoleHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request as a server with a pipeline of its own has it: no socket, no stream. */
export interface ConsoleRequest {
  method: string;
  /** The path only, without the query string. */
  path: string;
  /** Names lowercased. */
  headers: ConsoleHeaders;
}

export interface ConsoleResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ConsoleHandlerOptions {
  /**
   * Where the console is mounted; default `/admin`. The admin API is expected at
   * `<basePath>/api` (the page calls it by a relative URL), and this handler leaves it alone.
   */
  basePath?: string;
  /** Where the built assets are; default this package's `dist/app`. */
  assetsDirectory?: string;
}

/**
 * The console as a node:http listener: `handler(req, res)` answers and returns true for a
 * request under the console's path, and returns false, writing nothing, for any other request
 * (the admin API under `<basePath>/api` included).
 */
export interface ConsoleHandler {
  (req: IncomingMessage, res: ServerResponse): boolean;
  /** The same answer as a value, for a server that writes responses itself; null: not ours. */
  respond(request: ConsoleRequest): ConsoleResponse | null;
}

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function header(headers: ConsoleHeaders, name: string): string {
  const value = headers[name];
  return (typeof value === 'string' ? value : value?.join(',')) ?? '';
}

/** The encodings the client takes, by the names its `Accept-Encoding` lists (q=0 refuses one). */
function accepts(acceptEncoding: string, coding: string): boolean {
  return acceptEncoding.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    return name === coding && !refused;
  });
}

function text(status: number, body: string, extra: Record<string, string> = {}): ConsoleResponse {
  return {
    status,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    },
    body: Buffer.from(body),
  };
}

function serveAsset(asset: Asset, request: ConsoleRequest): ConsoleResponse {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': asset.contentType,
    'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag: asset.etag,
    vary: 'accept-encoding',
  };
  const match = header(request.headers, 'if-none-match');
  if (match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
    return { status: 304, headers, body: Buffer.alloc(0) };
  }
  const acceptEncoding = header(request.headers, 'accept-encoding');
  if (asset.br && accepts(acceptEncoding, 'br')) {
    return { status: 200, headers: { ...headers, 'content-encoding': 'br' }, body: asset.br };
  }
  if (asset.gzip && accepts(acceptEncoding, 'gzip')) {
    return { status: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: asset.gzip };
  }
  return { status: 200, headers, body: asset.identity };
}

/**
 * Serves the console's prebuilt assets under `basePath`: `/admin/` is the page (the console
 * routes by the URL's fragment, so that one document and relative URLs serve every view, behind
 * any proxy prefix), `/admin/assets/…` its hashed scripts and styles.
 */
export function createConsoleHandler(options: ConsoleHandlerOptions = {}): ConsoleHandler {
  const base = (options.basePath ?? '/admin').replace(/\/+$/, '');
  const directory = options.assetsDirectory ?? defaultAssetsDirectory();
  if (!directory) {
    throw new Error('@fulfil/console: the console assets are not built (run its `build` script)');
  }
  const assets = loadAssets(directory);
  const api = `${base}/api`;

  function respond(request: ConsoleRequest): ConsoleResponse | null {
    const { path } = request;
    if (path === api || path.startsWith(`${api}/`)) return null;
    if (path !== base && !path.startsWith(`${base}/`)) return null;
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      return text(405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    }
    // Relative, so that it holds behind a proxy that mounts the server under a prefix.
    const last = base.slice(base.lastIndexOf('/') + 1);
    if (path === base) return text(308, `See ${last}/\n`, { location: `${last}/` });
    const name = path.slice(base.length + 1) || 'index.html';
    const asset = assets.get(name);
    return asset ? serveAsset(asset, request) : text(404, 'Not found.\n');
  }

  const handler = ((req: IncomingMessage, res: ServerResponse): boolean => {
    const target = req.url ?? '/';
    const mark = target.indexOf('?');
    const response = respond({
      method: req.method ?? 'GET',
      path: mark < 0 ? target : target.slice(0, mark),
      headers: req.headers,
    });
    if (!response) return false;
    res.writeHead(response.status, {
      ...response.headers,
      'content-length': String(response.body.length),
    });
    res.end(response.body);
    return true;
  }) as ConsoleHandler;
  handler.respond = respond;
  return handler;
}
