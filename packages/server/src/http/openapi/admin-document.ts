import { LoginInput } from '@fulfil/core';
import {
  ADMIN_OPERATIONS,
  ADMIN_PREFIX,
  ADMIN_SCHEMA_PATH,
  type AdminOperation,
  SESSION_PATH,
} from '../admin-routes.js';
import { jsonSchemaOf } from './document.js';
import { ErrorBodySchema } from './resources.js';

/**
 * The OpenAPI 3.1 document of the admin API (docs/admin-api.md), generated from its route table
 * like the `/V1` document is from routes.ts. Request bodies and query parameters come from the
 * valibot schemas the engine validates with.
 */

type Json = { [key: string]: unknown };

const ERRORS: Record<number, string> = {
  400: 'Invalid query or body; nothing changed. The body names each bad field.',
  401: 'No valid session cookie or operator secret.',
  403: "The operator's role does not allow this, or an unsafe request came from another origin.",
  404: "No such route, or the store or order does not exist in the operator's scope.",
  409: 'The name is taken.',
  413: 'The request body exceeds the server limit.',
  415: 'The body is not application/json.',
  406: 'Accept names no media type the admin API produces (application/json).',
  429: 'Too many failed logins of this operator name from this address, or wrong operator secrets from this address; retry after Retry-After seconds.',
  503: 'The database cannot be reached right now; nothing changed.',
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

function errorResponses(codes: readonly number[]): Json {
  return Object.fromEntries(
    codes.map((code) => [code, { description: ERRORS[code], content: errorContent }]),
  );
}

/** `:name` segments as OpenAPI's `{name}`, each a required path parameter. */
function openApiPath(path: string): { path: string; parameters: Json[] } {
  const parameters: Json[] = [];
  const converted = path.replace(/:(\w+)/g, (_whole, name: string) => {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    return `{${name}}`;
  });
  return { path: converted, parameters };
}

function operationObject(operation: AdminOperation, pathParameters: Json[]): Json {
  const query = Object.entries(operation.query?.entries ?? {}).map(([name]) => ({
    name,
    in: 'query',
    required: false,
    schema: { type: 'string' },
  }));
  const codes =
    operation.method === 'GET'
      ? [400, 401, 403, 404, 406, 429, 503]
      : [400, 401, 403, 404, 406, 409, 413, 415, 429, 503];
  const object: Json = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: `Needs the role \`${operation.role}\` or above.`,
    'x-role': operation.role,
    parameters: [...pathParameters, ...query],
    responses: {
      [operation.status ?? 200]: {
        description: 'OK',
        content: operation.file
          ? Object.fromEntries(
              ['application/pdf', 'image/png', 'application/octet-stream'].map((type) => [
                type,
                { schema: { type: 'string', format: 'binary' } },
              ]),
            )
          : { 'application/json': { schema: { type: 'object' } } },
      },
      ...errorResponses(codes),
    },
  };
  if (operation.request) {
    object.requestBody = {
      required: operation.method !== 'POST',
      content: { 'application/json': { schema: jsonSchemaOf(operation.request) } },
    };
  }
  return object;
}

export function buildAdminOpenApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const operation of ADMIN_OPERATIONS) {
    const { path, parameters } = openApiPath(operation.path);
    paths[path] ??= {};
    (paths[path] as Json)[operation.method.toLowerCase()] = operationObject(operation, parameters);
  }
  const ok = (description: string) => ({
    description,
    content: { 'application/json': { schema: { type: 'object' } } },
  });
  paths[SESSION_PATH] = {
    post: {
      operationId: 'login',
      tags: ['Session'],
      summary: 'Logs in: sets the HttpOnly session cookie and answers the operator.',
      security: [],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchemaOf(LoginInput) } },
      },
      responses: {
        200: ok('The operator: name, role, store_code'),
        ...errorResponses([400, 401, 403, 429]),
      },
    },
    get: {
      operationId: 'whoami',
      tags: ['Session'],
      summary: 'The operator of the session.',
      responses: { 200: ok('The operator: name, role, store_code'), ...errorResponses([401]) },
    },
    delete: {
      operationId: 'logout',
      tags: ['Session'],
      summary: 'Ends the session and clears its cookie.',
      responses: { 200: ok('Ended'), ...errorResponses([401, 403]) },
    },
  };
  paths[ADMIN_SCHEMA_PATH] = {
    get: {
      operationId: 'adminOpenApiDocument',
      tags: ['Schema'],
      summary: 'This document. Needs no credentials.',
      security: [],
      responses: { 200: ok('The OpenAPI document'), ...errorResponses([406]) },
    },
  };
  const tags = [
    ...new Set(ADMIN_OPERATIONS.map((operation) => operation.tag)),
    'Session',
    'Schema',
  ];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fulfil admin API',
      version: '1',
      description:
        'What an operator does to a running Fulfil: orders, interventions, stock, tokens, operators. ' +
        'JSON only. Unsafe requests with the session cookie must be same-origin.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: ADMIN_PREFIX }],
    tags: tags.map((name) => ({ name, description: `${name}.` })),
    security: [{ sessionCookie: [] }, { bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'fulfil_session' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: "An operator's secret." },
      },
      schemas: { ErrorBody: jsonSchemaOf(ErrorBodySchema) },
    },
  };
}
