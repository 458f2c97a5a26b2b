import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type Coding, negotiateCoding } from './content-coding.js';

/**
 * A fixed answer (the API reference page, its icon) kept compressed once per process: requests
 * cost a lookup, never a build or a compression. Each coding is its own representation with its
 * own strong ETag, so a cache never confuses them.
 */

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface Precompressed {
  contentType: string;
  bodies: Readonly<Record<Coding, Buffer>>;
  /** The ETag of each representation, quoted. */
  etags: Readonly<Record<Coding, string>>;
}

/** Compresses `body` both ways, off the event loop (zlib's thread pool). */
export async function precompress(contentType: string, body: Buffer): Promise<Precompressed> {
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  ]);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return {
    contentType,
    bodies: { identity: body, gzip: gzipped, br: brotli },
    etags: { identity: `"${digest}"`, gzip: `"${digest}-gzip"`, br: `"${digest}-br"` },
  };
}

/** Answers built and compressed on first use, each once: `text` is only called then. */
export class PrecompressedCache {
  readonly #built = new Map<string, Promise<Precompressed>>();

  get(key: string, contentType: string, text: () => string): Promise<Precompressed> {
    let answer = this.#built.get(key);
    if (!answer) {
      answer = precompress(contentType, Buffer.from(text(), 'utf8'));
      this.#built.set(key, answer);
    }
    return answer;
  }
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 §13.1.2 asks). */
function noneMatch(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** What to send for one request: the negotiated representation, or 304 when the client has it. */
export function representation(
  answer: Precompressed,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
): { status: 200 | 304; body: Buffer; headers: Record<string, string> } {
  const coding = negotiateCoding(acceptEncoding);
  const headers: Record<string, string> = {
    etag: answer.etags[coding],
    vary: 'Accept-Encoding',
    // Kept, but asked about each time: a new version of the server serves a new page.
    'cache-control': 'no-cache',
  };
  if (ifNoneMatch !== undefined && noneMatch(ifNoneMatch, answer.etags[coding])) {
    return { status: 304, body: Buffer.alloc(0), headers };
  }
  if (coding !== 'identity') headers['content-encoding'] = coding;
  return { status: 200, body: answer.bodies[coding], headers };
}
