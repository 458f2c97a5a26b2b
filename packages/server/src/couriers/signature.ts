import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The HTTP courier's request signature (docs/couriers.md): `Fulfil-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "<t>.<body>" under the shared secret>`. The timestamp is signed with the
 * body, so a receiver that refuses old timestamps refuses replays, and any change to the body
 * breaks the signature.
 */

export const SIGNATURE_HEADER = 'fulfil-signature';

/** How far a signature's timestamp may be from the receiver's clock, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value for `body` sent at `nowSeconds`. */
export function signRequest(secret: string, body: string, nowSeconds: number): string {
  const timestamp = Math.floor(nowSeconds);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export type SignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

/**
 * For receivers: whether `header` signs exactly `body` (the raw bytes as received, as text) with
 * `secret`, at a time within `toleranceSeconds` of `nowSeconds`. Compares in constant time.
 */
export function verifySignature(options: {
  secret: string;
  header: string | null | undefined;
  body: string;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): SignatureCheck {
  const parts = new Map(
    (options.header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1))
    return { ok: false, reason: 'malformed' };
  const timestamp = Number(t);
  const now = options.nowSeconds ?? Date.now() / 1000;
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    return { ok: false, reason: 'expired' };
  const expected = Buffer.from(hmac(options.secret, timestamp, options.body), 'hex');
  const given = Buffer.from(v1, 'hex');
  return timingSafeEqual(expected, given)
    ? { ok: true, timestamp }
    : { ok: false, reason: 'mismatch' };
}
