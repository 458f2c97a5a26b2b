/**
 * Strings that are not well-formed Unicode: a lone surrogate, as the JSON escape `"\ud800"` or
 * the XML reference `&#xD800;` produces. No database stores one as sent (SQLite keeps invalid
 * UTF-8, Postgres a U+FFFD), so a retry of what was acknowledged would no longer match it, and
 * two codes that differ only there would collide. Every input is refused with them, wherever
 * they are, field names included.
 */

export interface MalformedString {
  /** The field path, as `issuePath` writes it: `order.items[1].sku`. */
  path: string;
  /** The string, its lone surrogates written as `\uD800` so that it can be shown as text. */
  shown: string;
  /** Whether it is a field name rather than a value. */
  key: boolean;
}

/** ES2024's `String.prototype.isWellFormed` (Node 20 has it), typed here: our lib is ES2022. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** `\uD800` for each lone surrogate; the rest as it is. */
export function showMalformed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function join(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** Whether any string or field name in `input` is not well-formed; allocates next to nothing. */
function holdsMalformed(input: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!isWellFormed(value)) return true;
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const child of value) stack.push(child);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!isWellFormed(key)) return true;
      stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** A place still to look at: a value, or a field name found malformed, in document order. */
type Pending = { value: unknown; path: string } | { malformed: MalformedString };

/**
 * The strings of `input` (values and field names, at any depth) that are not well-formed, in
 * document order, at most `limit` of them. Walks with its own stack: no nesting is too deep.
 */
export function malformedStrings(input: unknown, limit = 20): MalformedString[] {
  // Nearly every input has none: that answer is found without building a single path.
  if (!holdsMalformed(input)) return [];
  const found: MalformedString[] = [];
  const seen = new Set<object>();
  const stack: Pending[] = [{ value: input, path: '' }];
  while (stack.length > 0 && found.length < limit) {
    const next = stack.pop() as Pending;
    if ('malformed' in next) {
      found.push(next.malformed);
      continue;
    }
    const { value, path } = next;
    if (typeof value === 'string') {
      if (!isWellFormed(value)) found.push({ path, shown: showMalformed(value), key: false });
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const children: Pending[] = [];
    if (Array.isArray(value)) {
      value.forEach((child, index) => {
        children.push({ value: child, path: join(path, index) });
      });
    } else {
      for (const [key, child] of Object.entries(value)) {
        if (isWellFormed(key)) {
          children.push({ value: child, path: join(path, key) });
          continue;
        }
        const shown = showMalformed(key);
        children.push({ malformed: { path: join(path, shown), shown, key: true } });
      }
    }
    // Reversed onto the stack, so that they come off it in document order.
    for (let index = children.length - 1; index >= 0; index--) {
      stack.push(children[index] as Pending);
    }
  }
  return found;
}
