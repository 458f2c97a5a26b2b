import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

/**
 * The vendor's OpenAPI document (npm `shipengine-openapi`) as validators of request bodies and
 * answers. Its schemas compose objects with `allOf` under `additionalProperties: false`, which a
 * JSON-schema validator reads as "no property at all"; they are merged into one object schema
 * first, keeping every property, requirement and the closedness.
 */

type Schema = Record<string, unknown>;
type Direction = 'request' | 'response';

const require = createRequire(import.meta.url);
const document = JSON.parse(
  readFileSync(require.resolve('shipengine-openapi/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, Schema>> };

function merge(schema: unknown, direction: Direction): unknown {
  if (Array.isArray(schema)) return schema.map((item) => merge(item, direction));
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(source))
    if (key !== 'allOf') out[key] = merge(value, direction);
  // OpenAPI 3.0 dialect into JSON Schema: boolean exclusive bounds, `nullable`.
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true) out[exclusive] = out[bound];
    else delete out[exclusive];
    if (out[exclusive] !== undefined) delete out[bound];
  }
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  for (const part of (source.allOf as unknown[] | undefined) ?? []) {
    const merged = merge(part, direction) as Schema;
    for (const [key, value] of Object.entries(merged)) {
      if (key === 'properties')
        out.properties = { ...(out.properties as Schema | undefined), ...(value as Schema) };
      else if (key === 'required')
        out.required = [
          ...new Set([...((out.required as string[]) ?? []), ...(value as string[])]),
        ];
      else if (!(key in out)) out[key] = value;
    }
  }
  // A property the server fills (readOnly) is never required of a request, and the reverse.
  const skip = direction === 'request' ? 'readOnly' : 'writeOnly';
  const properties = out.properties as Record<string, Schema> | undefined;
  if (Array.isArray(out.required) && properties)
    out.required = (out.required as string[]).filter((name) => properties[name]?.[skip] !== true);
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

function validator(schema: unknown, direction: Direction) {
  const validate = ajv.compile(merge(schema, direction) as Schema);
  return (value: unknown): string[] =>
    validate(value)
      ? []
      : (validate.errors ?? []).map(
          (e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
        );
}

const operation = (path: string, method: string) => {
  const found = document.paths[path]?.[method] as Schema | undefined;
  if (!found) throw new Error(`the ShipEngine document has no ${method.toUpperCase()} ${path}`);
  return found as {
    requestBody?: { content: Record<string, { schema: unknown }> };
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  };
};

/** Errors of `body` against the operation's JSON request body; none when it conforms. */
export function requestErrors(path: string, method: string, body: unknown): string[] {
  const schema = operation(path, method).requestBody?.content['application/json']?.schema;
  return validator(schema, 'request')(body);
}

/** Errors of `body` against the operation's JSON answer of `status`. */
export function responseErrors(
  path: string,
  method: string,
  status: string,
  body: unknown,
): string[] {
  const schema = operation(path, method).responses[status]?.content?.['application/json']?.schema;
  if (!schema) return [`no ${status} answer documented for ${method.toUpperCase()} ${path}`];
  return validator(schema, 'response')(body);
}
