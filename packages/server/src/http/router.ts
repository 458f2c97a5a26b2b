/**
 * A small router: `add(method, pattern, handler)` and `match(method, path)`. Patterns are
 * `/`-separated literal segments and `:name` parameters (one whole segment each). A path that no
 * pattern matches is `not_found` (so is one whose parameter decodes to a NUL); one that some pattern matches under other methods only is
 * `method_not_allowed`, with the methods to put in `Allow`.
 */

export type RouteMatch<THandler> =
  | {
      kind: 'found';
      handler: THandler;
      params: Record<string, string>;
      /** The pattern that matched, parameters in braces: `/rest/{store_code}/V1/…`. */
      template: string;
    }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

export interface Router<THandler> {
  add(method: string, pattern: string, handler: THandler): void;
  match(method: string, path: string): RouteMatch<THandler>;
}

type Segment = { literal: string } | { param: string };

interface Entry<THandler> {
  method: string;
  template: string;
  segments: Segment[];
  handler: THandler;
}

function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

function compile(pattern: string): Segment[] {
  if (!pattern.startsWith('/')) throw new Error(`route pattern must start with "/": ${pattern}`);
  return splitPath(pattern).map((part) =>
    part.startsWith(':') ? { param: part.slice(1) } : { literal: part },
  );
}

/** Parameters of `path` under `segments`, or null when it does not match. */
function bind(
  segments: readonly Segment[],
  parts: readonly string[],
): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const part = parts[index] as string;
    if ('literal' in segment) {
      if (segment.literal !== part) return null;
      continue;
    }
    if (part === '') return null;
    let value: string;
    try {
      value = decodeURIComponent(part);
    } catch {
      return null; // malformed percent-encoding names no resource
    }
    // No name holds a NUL (bodies refuse it), and Postgres cannot even compare text with one.
    if (value.includes('\u0000')) return null;
    params[segment.param] = value;
  }
  return params;
}

export function createRouter<THandler>(): Router<THandler> {
  const entries: Entry<THandler>[] = [];
  return {
    add(method, pattern, handler) {
      entries.push({
        method: method.toUpperCase(),
        template: pattern.replace(/:(\w+)/g, '{$1}'),
        segments: compile(pattern),
        handler,
      });
    },
    match(method, path) {
      const wanted = method.toUpperCase();
      const parts = splitPath(path);
      const allow = new Set<string>();
      for (const entry of entries) {
        const params = bind(entry.segments, parts);
        if (!params) continue;
        if (entry.method === wanted) {
          return { kind: 'found', handler: entry.handler, params, template: entry.template };
        }
        allow.add(entry.method);
      }
      return allow.size ? { kind: 'method_not_allowed', allow: [...allow] } : { kind: 'not_found' };
    },
  };
}
