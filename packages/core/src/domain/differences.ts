/**
 * The paths at which two JSON-like values differ (`items[0].qty`, `shipping_address.street`),
 * for telling a caller what it sent differently from what is stored. An absent field and a null
 * one are the same; arrays compare entry by entry, an entry only one side has being a difference
 * of its own. Paths start with `prefix` (`sales_order`).
 */
export function differingPaths(stored: unknown, sent: unknown, prefix = ''): string[] {
  const found: string[] = [];
  collect(stored, sent, prefix, found);
  return found;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function collect(stored: unknown, sent: unknown, path: string, found: string[]): void {
  const a = stored ?? null;
  const b = sent ?? null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      const at = `${path}[${index}]`;
      if (index >= a.length || index >= b.length) found.push(at);
      else collect(a[index], b[index], at, found);
    }
    return;
  }
  if (isObject(a) && isObject(b)) {
    // In the order the caller sent them, then any only the stored value has.
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    for (const key of keys) collect(a[key], b[key], path ? `${path}.${key}` : key, found);
    return;
  }
  if (a !== b) found.push(path || '(root)');
}
