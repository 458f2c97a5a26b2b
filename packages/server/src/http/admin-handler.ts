import { type AdminEngine, DomainError, type OperatorPrincipal, unverified } from '@fulfil/core';
import * as v from 'valibot';
import {
  ADMIN_OPERATIONS,
  ADMIN_PREFIX,
  ADMIN_SCHEMA_PATH,
  type AdminOperation,
  SESSION_PATH,
} from './admin-routes.js';
import { type AuthFailureObserver, type AuthThrottle, throttledFailure } from './auth-throttle.js';
import { clientAddress } from './client-address.js';
import { HttpError } from './errors.js';
import { type LoginThrottle, loginName, throttledLogin } from './login-throttle.js';
import { buildAdminOpenApiDocument } from './openapi/admin-document.js';
import { randomHex } from './random-hex.js';
import type { HttpHeaders, HttpRequest } from './types.js';

/**
 * The admin API's part of the request handler (docs/admin-api.md): who the operator is (session
 * cookie or Bearer secret), the same-origin check of cookie-borne unsafe requests, the request
 * id, the session cookie itself. Routing, body decoding, errors and the log line are the
 * handler's, shared with `/V1`.
 */

export interface AdminOptions {
  /**
   * Take `X-Forwarded-Proto: https` as the request having come over https (Secure cookie, the
   * origin compared), and the last `X-Forwarded-For` entry as the client's address: only behind
   * a proxy that sets them. The request handler's own `trustProxy` does the same.
   */
  trustProxy?: boolean;
}

/** What the admin API counts failed authentications with (docs/limits.md). */
export interface AdminGuards {
  /** Wrong operator secrets, per address: shared with `/V1` tokens. */
  addresses: AuthThrottle;
  /** Failed logins, per operator name and address. */
  logins: LoginThrottle;
  observe?: AuthFailureObserver | undefined;
}

export const SESSION_COOKIE = 'fulfil_session';

export type AdminRoute =
  | { kind: 'admin'; operation: AdminOperation }
  | { kind: 'admin_session' }
  | { kind: 'admin_schema' };

/** Every admin route with its full pattern, for the handler's router. */
export const ADMIN_ROUTES: readonly { method: string; pattern: string; route: AdminRoute }[] = [
  ...ADMIN_OPERATIONS.map((operation) => ({
    method: operation.method,
    pattern: `${ADMIN_PREFIX}${operation.path}`,
    route: { kind: 'admin', operation } as const,
  })),
  ...['GET', 'POST', 'DELETE'].map((method) => ({
    method,
    pattern: `${ADMIN_PREFIX}${SESSION_PATH}`,
    route: { kind: 'admin_session' } as const,
  })),
  {
    method: 'GET',
    pattern: `${ADMIN_PREFIX}${ADMIN_SCHEMA_PATH}`,
    route: { kind: 'admin_schema' },
  },
];

export interface AdminAnswer {
  status: number;
  value: unknown;
  headers: Record<string, string>;
  /** The operator, for the log line. */
  operator?: string;
}

function header(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The request's `X-Request-Id` when it is sane, else a new one. */
export function requestIdOf(headers: HttpHeaders): string {
  const sent = header(headers, 'x-request-id')?.trim();
  return sent && SANE_REQUEST_ID.test(sent) ? sent : randomHex(8);
}

/** Every value of the cookie `name`, as the browser sent them: the most specific path first. */
function cookiesOf(headers: HttpHeaders, name: string): string[] {
  const values: string[] = [];
  for (const part of (header(headers, 'cookie') ?? '').split(';')) {
    const [key, ...rest] = part.split('=');
    const value = rest.join('=').trim();
    if (key?.trim() === name && value !== '') values.push(value);
  }
  return values;
}

function cookieOf(headers: HttpHeaders, name: string): string | undefined {
  return cookiesOf(headers, name)[0];
}

/**
 * The session cookies a logout ends: the browser may hold one per path it logged in at (one
 * set before the cookie followed the mount point had `Path=/admin`); a few at most.
 */
const MOST_SESSIONS_ENDED = 4;

function bearerOf(headers: HttpHeaders): string | null | undefined {
  const authorization = header(headers, 'authorization');
  if (authorization === undefined) return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] ?? null;
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

function forbiddenOrigin(): DomainError {
  return new DomainError(
    'forbidden',
    'A request that changes something must come from the console itself (same origin).',
  );
}

export function createAdminServer(
  admin: AdminEngine,
  guards: AdminGuards,
  options: AdminOptions = {},
) {
  let document: unknown;
  const trustProxy = options.trustProxy === true;
  const observe = (surface: 'admin' | 'login') => (status: 401 | 429) =>
    guards.observe?.(surface, status);

  function isSecure(request: HttpRequest): boolean {
    if (request.secure) return true;
    return trustProxy && header(request.headers, 'x-forwarded-proto') === 'https';
  }

  /** Sec-Fetch-Site first; without it (older browsers) Origin must be this very origin. */
  function assertSameOrigin(request: HttpRequest): void {
    const site = header(request.headers, 'sec-fetch-site');
    if (site !== undefined) {
      if (site !== 'same-origin' && site !== 'none') throw forbiddenOrigin();
      return;
    }
    const origin = header(request.headers, 'origin');
    const host = header(request.headers, 'host');
    const own = `${isSecure(request) ? 'https' : 'http'}://${host}`;
    if (origin === undefined || host === undefined || origin !== own) throw forbiddenOrigin();
  }

  /**
   * The operator of the request. A wrong operator secret counts against the address like a bad
   * `/V1` token (never locking out a valid one); no session, or one that has ended, is not a
   * failure: it is a page opened before logging in, and counts nowhere.
   */
  async function authenticate(
    request: HttpRequest,
    requestId: string,
  ): Promise<{ operator: OperatorPrincipal; byCookie: boolean }> {
    const bearer = bearerOf(request.headers);
    if (bearer !== undefined) {
      try {
        if (bearer === null) {
          throw new DomainError(
            'unauthenticated',
            'The Authorization header must read "Bearer <secret>".',
          );
        }
        return { operator: await admin.authenticateOperator(bearer, requestId), byCookie: false };
      } catch (error) {
        const address = clientAddress(request, trustProxy);
        throw throttledFailure(guards.addresses, address, error, observe('admin'));
      }
    }
    const session = cookieOf(request.headers, SESSION_COOKIE);
    if (session === undefined) {
      throw new DomainError('unauthenticated', 'Log in first: POST /admin/api/session.');
    }
    return { operator: await admin.sessionOperator(session, requestId), byCookie: true };
  }

  /**
   * The session cookie. It names no Path, so the browser scopes it to the directory of the URL
   * it logged in at: `<where the console is mounted>/api`, whatever prefix a proxy in front
   * adds, which is every URL the console sends it to. Clearing it the same way (logout, from the
   * same URL) clears that very cookie.
   */
  function cookie(request: HttpRequest, value: string, maxAge: number): string {
    const secure = isSecure(request) ? '; Secure' : '';
    return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
  }

  const whoami = (operator: OperatorPrincipal) => ({
    name: operator.name,
    role: operator.role,
    store_code: operator.store_code,
  });

  async function session(
    request: HttpRequest,
    body: unknown,
    requestId: string,
  ): Promise<AdminAnswer> {
    const method = request.method.toUpperCase();
    if (method === 'POST') {
      assertSameOrigin(request);
      const { session, operator } = await throttledLogin(
        guards.logins,
        loginName(body),
        clientAddress(request, trustProxy),
        () => admin.login(unverified(body ?? {}), requestId),
        observe('login'),
      );
      return {
        status: 200,
        value: whoami(operator),
        headers: { 'set-cookie': cookie(request, session, admin.sessionSeconds) },
        operator: operator.name,
      };
    }
    const { operator, byCookie } = await authenticate(request, requestId);
    if (method === 'GET')
      return { status: 200, value: whoami(operator), headers: {}, operator: operator.name };
    if (byCookie) assertSameOrigin(request);
    for (const value of cookiesOf(request.headers, SESSION_COOKIE).slice(0, MOST_SESSIONS_ENDED)) {
      await admin.logout(value);
    }
    return {
      status: 200,
      value: { ended: true },
      headers: { 'set-cookie': cookie(request, '', 0) },
      operator: operator.name,
    };
  }

  function queryOf(request: HttpRequest, operation: AdminOperation): Record<string, string> {
    const query: Record<string, string> = {};
    for (const name of Object.keys(operation.query?.entries ?? {})) {
      const value =
        request.query instanceof URLSearchParams
          ? request.query.get(name)
          : ((q) => (typeof q === 'string' ? q : q?.[0]))(request.query[name]);
      if (value !== null && value !== undefined) query[name] = value;
    }
    return query;
  }

  return {
    /** Answers one admin request; `body` is the decoded JSON body (or undefined). */
    async serve(
      request: HttpRequest,
      route: AdminRoute,
      params: Record<string, string>,
      body: unknown,
      requestId: string,
    ): Promise<AdminAnswer> {
      const headers = { 'x-request-id': requestId };
      if (route.kind === 'admin_schema') {
        document ??= buildAdminOpenApiDocument();
        return { status: 200, value: document, headers };
      }
      if (route.kind === 'admin_session') {
        const answer = await session(request, body, requestId);
        return { ...answer, headers: { ...answer.headers, ...headers } };
      }
      const { operation } = route;
      const { operator, byCookie } = await authenticate(request, requestId);
      if (byCookie && UNSAFE.has(operation.method)) assertSameOrigin(request);
      if (operation.request && body !== undefined && !v.is(v.object({}), body)) {
        throw new HttpError(400, 'The request body must be a JSON object.', [
          { fieldName: 'body' },
        ]);
      }
      const value = await operation.run(admin, {
        operator,
        params,
        query: queryOf(request, operation),
        body: body ?? {},
      });
      return { status: operation.status ?? 200, value, headers, operator: operator.name };
    },
  };
}

export type AdminServer = ReturnType<typeof createAdminServer>;
