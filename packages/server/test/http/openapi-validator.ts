import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Checks a response against the OpenAPI document the server serves: its status must be one the
 * operation declares (or its `default`), its media type one the response lists, its declared
 * headers present, and a JSON body valid against the response schema. A request that matches no
 * operation of the document (unknown route, wrong method) must answer the error body.
 */

type Json = { [key: string]: unknown };

export interface ResponseFacts {
  method: string;
  /** The path below `/rest/{store_code}`, without the query. */
  path: string;
  status: number;
  headers: Headers;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

export interface OpenApiValidator {
  /** The problems of one response; empty when it is what the document says. */
  problems(response: ResponseFacts): string[];
}

const DOCUMENT_ID = 'fulfil:openapi';

function pointer(...segments: string[]): string {
  return segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

function mediaTypeOf(headers: Headers): string {
  return (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function createOpenApiValidator(document: Json): OpenApiValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // OpenAPI's annotation keyword, and the document's own top-level fields (only schemas inside
  // them are compiled, through `$ref`s): no meaning for validation.
  for (const keyword of new Set(['xml', ...Object.keys(document)])) ajv.addKeyword(keyword);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  const paths = document.paths as Record<string, Record<string, Json>>;
  const components = document.components as { responses: Record<string, Json> };

  /** A schema of the document, by its JSON pointer; each compiled once. */
  function validatorAt(location: string): ValidateFunction {
    let validate = compiled.get(location);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${location}` });
      compiled.set(location, validate);
    }
    return validate;
  }

  function resolveResponse(response: Json): { object: Json; location: string[] } | null {
    const ref = response.$ref;
    if (typeof ref !== 'string') return null;
    const name = ref.replace('#/components/responses/', '');
    const object = components.responses[name];
    return object ? { object, location: ['components', 'responses', name] } : null;
  }

  function check(location: string[], declared: Json, response: ResponseFacts): string[] {
    const problems: string[] = [];
    for (const header of Object.keys((declared.headers as Json | undefined) ?? {})) {
      if (!response.headers.has(header)) problems.push(`header ${header} is missing`);
    }
    const content = declared.content as Record<string, Json> | undefined;
    if (!content) return problems;
    const mediaType = mediaTypeOf(response.headers);
    if (!(mediaType in content)) {
      problems.push(`media type ${mediaType || '(none)'} is not one of ${Object.keys(content)}`);
      return problems;
    }
    // XML bodies are typed by the same schema through the codec; their shape is tested by name.
    if (mediaType !== 'application/json') return problems;
    const validate = validatorAt(pointer(...location, 'content', mediaType, 'schema'));
    if (!validate(response.body)) {
      for (const error of validate.errors ?? []) {
        problems.push(`body${error.instancePath} ${error.message}`);
      }
    }
    return problems;
  }

  return {
    problems(response) {
      const template = templateOf(Object.keys(paths), response.path);
      const operation = paths[template]?.[response.method.toLowerCase()];
      if (!operation) {
        if (response.status < 400) return [`${response.method} ${response.path} is undocumented`];
        if (mediaTypeOf(response.headers) !== 'application/json') return [];
        const validate = validatorAt(pointer('components', 'schemas', 'ErrorBody'));
        return validate(response.body)
          ? []
          : (validate.errors ?? []).map(
              (error) => `error body${error.instancePath} ${error.message}`,
            );
      }
      const responses = operation.responses as Record<string, Json>;
      const key = String(response.status) in responses ? String(response.status) : 'default';
      const declared = responses[key];
      if (!declared) return [`status ${response.status} is not declared`];
      const resolved = resolveResponse(declared);
      const location = resolved
        ? resolved.location
        : ['paths', template, response.method.toLowerCase(), 'responses', key];
      return check(location, resolved ? resolved.object : declared, response).map(
        (problem) => `${response.method} ${response.path} ${response.status}: ${problem}`,
      );
    },
  };
}

/**
 * The document's path that `path` is: itself, or a template whose `{name}` segments match the
 * path's segments (`/V1/salesOrders/{sales_order_number}` for `/V1/salesOrders/5001`).
 */
function templateOf(templates: readonly string[], path: string): string {
  if (templates.includes(path)) return path;
  const parts = path.split('/');
  const found = templates.find((template) => {
    const segments = template.split('/');
    return (
      segments.length === parts.length &&
      segments.every((segment, index) => /^\{\w+\}$/.test(segment) || segment === parts[index])
    );
  });
  return found ?? path;
}
