import type { HttpHeaders, HttpRequest } from './types.js';

/** What the handler reads off a request before its body: headers, query values, credentials. */

/** A header's value; the first of a repeated one. */
export function header(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

export function queryValue(query: HttpRequest['query'], name: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  const value = query[name];
  return typeof value === 'string' ? value : value?.[0];
}

/** What a request says about its credentials (docs/behaviour.md): Bearer and `api_key` are one. */
export interface Credentials {
  secret: string | null;
  malformed: boolean;
}

export function credentialsOf(headers: HttpHeaders): Credentials {
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    return bearer
      ? { secret: bearer[1] as string, malformed: false }
      : { secret: null, malformed: true };
  }
  const apiKey = header(headers, 'api_key')?.trim();
  return { secret: apiKey || null, malformed: false };
}
