import type { Engine } from '@fulfil/core';
import { salesOrder, serverPerTest, type TestServer } from '../http/support.js';

/** A test server with the admin API on, and one operator of each kind with its secret. */

export interface AdminTestServer extends TestServer {
  secrets: { admin: string; operator: string; viewer: string; otherOperator: string };
}

export const OPERATORS = {
  admin: { name: 'alice', role: 'admin' },
  operator: { name: 'oscar', role: 'operator' },
  viewer: { name: 'vera', role: 'viewer' },
  otherOperator: { name: 'otto', role: 'operator', store_code: 'other' },
} as const;

export function adminServerPerTest(): (
  options?: Parameters<ReturnType<typeof serverPerTest>>[0],
) => Promise<AdminTestServer> {
  const serve = serverPerTest();
  return async (options = {}) => {
    const server = await serve({ ...options, server: { admin: {}, ...options.server } });
    const secrets = {} as AdminTestServer['secrets'];
    for (const [key, spec] of Object.entries(OPERATORS)) {
      const created = await server.engine.admin.createOperator(spec);
      secrets[key as keyof typeof OPERATORS] = created.secret;
    }
    return { ...server, secrets };
  };
}

export interface AdminReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience, like fetch's own json()
  body: any;
}

export interface AdminCallOptions {
  /** An operator secret, sent as Bearer. */
  secret?: string;
  /** A session cookie value. */
  session?: string;
  json?: unknown;
  headers?: Record<string, string>;
}

/** One request under `/admin/api`. */
export async function adminCall(
  server: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  options: AdminCallOptions = {},
): Promise<AdminReply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.secret) headers.authorization = `Bearer ${options.secret}`;
  if (options.session) {
    headers.cookie = `fulfil_session=${options.session}`;
    headers['sec-fetch-site'] ??= 'same-origin';
  }
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${server.url}/admin/api${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Logs in and answers the session cookie's value. */
export async function login(server: Pick<TestServer, 'url'>, name: string, secret: string) {
  const reply = await adminCall(server, 'POST', '/session', {
    json: { name, secret },
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  const cookie = reply.headers.get('set-cookie') ?? '';
  return { session: /fulfil_session=([^;]*)/.exec(cookie)?.[1] as string, cookie, reply };
}

/**
 * A courier order of the test seed's store (at its `COURIER` warehouse, `sku` in stock there),
 * allocated: the next dispatch round books its label. Answers its number.
 */
export async function allocatedCourierOrder(
  engine: Engine,
  salesOrderNumber: string,
  sku = 'SKU-3',
): Promise<string> {
  const number = `${salesOrderNumber}-1`;
  const lines: [string, number][] = [[sku, 1]];
  await engine.intake(
    'default',
    salesOrder(Number(salesOrderNumber), salesOrderNumber, 'COURIER', lines),
  );
  const [item] = (await engine.getOrder('default', number)).items;
  await engine.allocate(engine.operator('default'), {
    allocation: { order_id: number, items: [{ item_id: item?.id as number }] },
  });
  return number;
}

/** The fields a 400 names, from its parameters and each of its errors. */
export const fieldsOf = (body: {
  parameters?: { fieldName?: string }[];
  errors?: { parameters: { fieldName?: string }[] }[];
}) => [
  ...(body.parameters ?? []).map((parameter) => parameter.fieldName),
  ...(body.errors ?? []).flatMap((error) => error.parameters.map((p) => p.fieldName)),
];
