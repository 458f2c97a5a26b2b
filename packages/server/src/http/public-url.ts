/**
 * Where clients reach the server, for the absolute URLs it writes (the OpenAPI document's
 * `servers`). Configured (`--public-url`) behind a proxy; otherwise `http://` and the request's
 * Host, which the server itself can vouch for as much as anyone: it speaks plain HTTP, and
 * `X-Forwarded-*` headers are never trusted, since any client can send them.
 */

/**
 * The base of a configured public URL, without a trailing slash: `https://api.example.com/fulfil`.
 * Throws for anything but an absolute http(s) URL without query or fragment.
 */
export function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`public URL "${text}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`public URL "${text}" must start with http:// or https://`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`public URL "${text}" must have no query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

// A host name or IPv4 address, or an IPv6 literal, with an optional port: nothing that could
// turn the URL into another one.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The base URL of a request: the configured one, else `http://<Host>`; empty (a relative URL)
 * when the Host header is missing or not a plain host.
 */
export function requestBaseUrl(publicUrl: string | undefined, host: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  return host !== undefined && HOST.test(host) ? `http://${host}` : '';
}
