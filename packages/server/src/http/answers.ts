import { JsonDocuments } from './json-documents.js';
import type { Produced } from './media.js';
import { type Precompressed, representation } from './precompressed.js';
import { header } from './request-parts.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { encodeXmlResponse } from './xml.js';

/** How every answer of the REST surface is written: its body in the negotiated format, its headers. */

/** An operation's answer under another status than 200 (201 of a first intake). */
export class WithStatus {
  constructor(
    readonly status: number,
    readonly value: unknown,
  ) {}
}

/** The status an operation's answer goes out with. */
export function statusOf(result: unknown): number {
  return result instanceof WithStatus ? result.status : 200;
}

/** The value an operation's answer writes. */
export function answerValue(result: unknown): unknown {
  return result instanceof WithStatus ? result.value : result;
}

export function encode(value: unknown, media: Produced): string | Buffer {
  if (value instanceof JsonDocuments) {
    return media.format === 'xml' ? encodeXmlResponse(value.values()) : value.json();
  }
  return media.format === 'xml' ? encodeXmlResponse(value) : JSON.stringify(value);
}

/** Every answer goes out through here, so every one has these headers. */
export function answer(
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    status,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-store',
      // Browsers must take every answer, error bodies included, as the type it says it is.
      'x-content-type-options': 'nosniff',
      vary: 'Accept',
      ...headers,
    },
    body,
  };
}

/** A precompressed answer, in the coding the client takes, or 304 when it has it already. */
export function answerFixed(request: HttpRequest, fixed: Precompressed): HttpResponse {
  const chosen = representation(
    fixed,
    header(request.headers, 'accept-encoding'),
    header(request.headers, 'if-none-match'),
  );
  return answer(chosen.status, fixed.contentType, chosen.body, chosen.headers);
}

export function respond(
  status: number,
  value: unknown,
  media: Produced,
  headers: Record<string, string> = {},
): HttpResponse {
  return answer(status, media.contentType, encode(value, media), headers);
}

/** The headers an answer carries of its own (a queue page's `Fulfil-Cursor`). */
export function headersOf(result: unknown): Record<string, string> {
  return result instanceof JsonDocuments ? result.headers : {};
}
