import { useEffect, useState } from 'preact/hooks';

/**
 * Views are addressed by the URL's fragment (`#/default/orders/100001001?…`): one document at
 * `/admin/` serves them all, so a reload or a shared link never needs the server to know them.
 */
export interface Route {
  /** The path's segments, decoded: `['default', 'orders', '100001001']`. */
  parts: string[];
  params: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const mark = hash.indexOf('?');
  const path = mark < 0 ? hash : hash.slice(0, mark);
  return {
    parts: path
      .split('/')
      .filter(Boolean)
      .map((part) => {
        try {
          return decodeURIComponent(part);
        } catch {
          return part;
        }
      }),
    params: new URLSearchParams(mark < 0 ? '' : hash.slice(mark + 1)),
  };
}

/** `#/a/b?c=d` from decoded segments and parameters. */
export function href(parts: string[], params?: Record<string, string>): string {
  const path = parts.map(encodeURIComponent).join('/');
  const search = params ? new URLSearchParams(params).toString() : '';
  return `#/${path}${search ? `?${search}` : ''}`;
}

export function navigate(to: string): void {
  location.hash = to;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
