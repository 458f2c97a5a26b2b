import { boundCarrierText, type CourierOutcome, traceContextHeaders } from '@fulfil/core';
import { retryAfterMs } from './environment.js';

/**
 * How a carrier's HTTP answer reads as an outcome (docs/couriers.md), for every adapter that
 * speaks HTTP: 2xx ok; 429 and 503 retriable, with Retry-After (429 `throttled`); other 5xx
 * unknown, since the request may have been acted on; other 4xx permanent. `code` and `message`
 * are the carrier's, bounded.
 */
export function outcomeOfStatus(
  response: Pick<Response, 'status' | 'ok' | 'headers'>,
  code: string,
  message: string,
): CourierOutcome<object> {
  const bounded = boundCarrierText(message);
  if (response.ok) return { kind: 'ok' };
  if (response.status === 429 || response.status === 503) {
    const wait = retryAfterMs(response.headers.get('retry-after'));
    return {
      kind: 'retriable',
      code,
      message: bounded,
      ...(response.status === 429 ? { throttled: true } : {}),
      ...(wait !== undefined ? { wait_ms: wait } : {}),
    };
  }
  if (response.status >= 500) return { kind: 'unknown', message: `${code}: ${bounded}` };
  return { kind: 'permanent', code, message: bounded };
}

/**
 * Sends a request; a timeout or a dropped connection is `unknown`, and the body is read as JSON.
 * The carrier call's span goes with it (`traceparent`), so that a carrier that traces its side
 * joins the order's trace.
 */
export async function sendJson(
  send: typeof fetch,
  url: string,
  init: RequestInit & { headers: Record<string, string> },
): Promise<{ response: Response; body: unknown } | { unknown: string }> {
  try {
    const response = await send(url, {
      ...init,
      headers: { ...traceContextHeaders(), ...init.headers },
    });
    const raw = await response.text();
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = { message: raw };
    }
    return { response, body };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { unknown: boundCarrierText(`no answer: ${reason}`) };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
