/**
 * Money travels through the engine as an integer count of ten-thousandths, so sums, splits and
 * comparisons are exact to the 4 decimal places docs/api.md asks for; floats exist only at the
 * API edge.
 */
export type Money = number;

const SCALE = 10_000;

/**
 * The largest amount the API takes, and the most an order's lines may add up to
 * (docs/limits.md): in ten-thousandths it is 10^13, so a sum of every amount an order carries
 * stays far inside the integers a double holds exactly.
 */
export const MAX_AMOUNT = 1_000_000_000;

export function toMoney(amount: number): Money {
  return Math.round(amount * SCALE);
}

export function fromMoney(money: Money): number {
  return money / SCALE;
}

/** A share of a total for `part` out of `whole` units, rounded to the nearest ten-thousandth. */
export function prorate(total: Money, part: number, whole: number): Money {
  if (whole === 0) return 0;
  const product = total * part;
  if (Number.isSafeInteger(product)) return Math.round(product / whole);
  // A large total times a large qty: exact in integers, rounded half up like Math.round.
  const twice = 2n * BigInt(total) * BigInt(part) + BigInt(whole);
  const divisor = 2n * BigInt(whole);
  const quotient = twice / divisor;
  return Number(twice % divisor < 0n ? quotient - 1n : quotient);
}

/** Formats with exactly 4 decimals, for messages that must show the precise expected amount. */
export function formatMoney(money: Money): string {
  const sign = money < 0 ? '-' : '';
  const abs = Math.abs(money);
  return `${sign}${Math.trunc(abs / SCALE)}.${String(abs % SCALE).padStart(4, '0')}`;
}
