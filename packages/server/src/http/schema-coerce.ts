import * as v from 'valibot';

/**
 * Types a tree of strings (a decoded XML body) by walking the valibot schema of the endpoint, so
 * values are typed by the schema, never guessed (docs/api.md): numbers where it says number,
 * booleans where it says boolean, arrays from `{ item: x | x[] }`, and strings stay strings
 * (`000123` stays "000123"). Text that does not fit is left as it is, for validation to report
 * with its field path.
 */

/** What this walk reads of a valibot schema object; every schema is such a plain object. */
interface SchemaNode {
  readonly type: string;
  readonly pipe?: readonly unknown[];
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly item?: SchemaNode;
  readonly wrapped?: SchemaNode;
  readonly options?: readonly unknown[];
  readonly value?: SchemaNode;
  readonly literal?: unknown;
  readonly getter?: (input: unknown) => SchemaNode;
}

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  1: true,
  0: false,
};

/** The schema a pipe starts from; its `type` and shape are the piped schema's own anyway. */
function baseOf(schema: SchemaNode): SchemaNode {
  let node = schema;
  while (node.pipe && node.pipe[0] !== node) node = node.pipe[0] as SchemaNode;
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function coerceNumber(value: unknown): unknown {
  if (typeof value !== 'string' || !NUMBER_TEXT.test(value.trim())) return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value; // 1e400 stays text, reported as written
}

function coerceBoolean(value: unknown): unknown {
  return typeof value === 'string' && Object.hasOwn(BOOLEAN_TEXT, value.trim())
    ? BOOLEAN_TEXT[value.trim()]
    : value;
}

function coerceObject(entries: Readonly<Record<string, SchemaNode>>, value: unknown): unknown {
  // An empty element stands for an object with no fields; validation then names what is missing.
  const source = value === '' ? {} : value;
  if (!isRecord(source)) return value;
  const result: Record<string, unknown> = { ...source };
  for (const [key, entry] of Object.entries(entries)) {
    if (Object.hasOwn(source, key)) result[key] = coerceBySchema(entry, source[key]);
  }
  return result;
}

/** `<items><item>…</item><item>…</item></items>`, or one `<item>`, or `<items/>`. */
function coerceArray(item: SchemaNode, value: unknown): unknown {
  if (value === '') return [];
  if (!isRecord(value) || Object.keys(value).some((key) => key !== 'item')) return value;
  const entries = value.item;
  return (Array.isArray(entries) ? entries : [entries]).map((entry) => coerceBySchema(item, entry));
}

/** How many of the value's fields an object option knows: picks the branch of a union. */
function fit(option: SchemaNode, value: unknown): number {
  const entries = baseOf(option).entries;
  if (!entries || !isRecord(value)) return 0;
  return Object.keys(value).filter((key) => Object.hasOwn(entries, key)).length;
}

function coerceUnion(options: readonly SchemaNode[], value: unknown): unknown {
  // Text that some branch takes as text stays text: `000123` for a string-or-number order_id.
  if (typeof value === 'string' && options.some((option) => baseOf(option).type === 'string')) {
    return value;
  }
  const candidates = options.map((option) => ({ option, coerced: coerceBySchema(option, value) }));
  const valid = candidates.find(
    ({ option, coerced }) => v.safeParse(option as unknown as v.GenericSchema, coerced).success,
  );
  if (valid) return valid.coerced;
  let best = candidates[0];
  for (const candidate of candidates) {
    if (best && fit(candidate.option, value) > fit(best.option, value)) best = candidate;
  }
  return best ? best.coerced : value;
}

/** Types `value` (a string tree) by `schema`; see the module comment. */
export function coerceBySchema(schema: SchemaNode | v.GenericSchema, value: unknown): unknown {
  const node = baseOf(schema as SchemaNode);
  switch (node.type) {
    case 'number':
      return coerceNumber(value);
    case 'boolean':
      return coerceBoolean(value);
    case 'literal':
      if (typeof node.literal === 'number') return coerceNumber(value);
      if (typeof node.literal === 'boolean') return coerceBoolean(value);
      return value;
    case 'object':
    case 'loose_object':
    case 'strict_object':
    case 'object_with_rest':
      return node.entries ? coerceObject(node.entries, value) : value;
    case 'array':
      return node.item ? coerceArray(node.item, value) : value;
    case 'record':
      if (!node.value || !isRecord(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => [
          key,
          coerceBySchema(node.value as SchemaNode, entry),
        ]),
      );
    case 'optional':
    case 'exact_optional':
    case 'undefinedable':
    case 'nullable':
    case 'nullish':
    case 'non_optional':
    case 'non_nullable':
    case 'non_nullish':
      return node.wrapped ? coerceBySchema(node.wrapped, value) : value;
    case 'union':
    case 'variant':
      return node.options ? coerceUnion(node.options as SchemaNode[], value) : value;
    case 'lazy':
      return node.getter ? coerceBySchema(node.getter(value), value) : value;
    default:
      // string, picklist, enum, unknown, …: text is already what they take.
      return value;
  }
}
