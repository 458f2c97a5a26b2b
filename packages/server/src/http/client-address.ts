import { isIP } from 'node:net';
import type { HttpRequest } from './types.js';

/**
 * The address a request came from, as failed authentications are counted by it: the TCP peer's,
 * or behind a trusted proxy (`--trust-proxy`) the one that proxy appended to `X-Forwarded-For`
 * (its last entry). Entries before it are whatever the client wrote, and never read. Undefined
 * when the request has no address (the plain handler called directly).
 */
export function clientAddress(request: HttpRequest, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = request.headers['x-forwarded-for'];
    const list = typeof forwarded === 'string' ? forwarded : forwarded?.join(',');
    const last = list?.slice(list.lastIndexOf(',') + 1).trim();
    if (last && isIP(last) !== 0) return last;
  }
  return request.remoteAddress;
}
