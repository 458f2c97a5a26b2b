/**
 * Money travels through the engine as an integer count of ten-thousandths, so sums, splits and
 * comparisons are exact to the 4 decimal places docs/api.md asks for; floats exist only at the
 * API edge.
 */
export type Money = number;

const SCALE = 10_000;

export function toMoney(amount: number): Money {
  return Math.round(amount * SCALE);
}

export function fromMoney(money: Money): number {
  return money / SCALE;
}

/** A share of a total for `part` out of `whole` units, rounded to the nearest ten-thousandth. */
export function prorate(total: Money, part: number, whole: number): Money {
  return whole === 0 ? 0 : Math.round((total * part) / whole);
}

/** Formats with exactly 4 decimals, for messages that must show the precise expected amount. */
export function formatMoney(money: Money): string {
  const sign = money < 0 ? '-' : '';
  const abs = Math.abs(money);
  return `${sign}${Math.trunc(abs / SCALE)}.${String(abs % SCALE).padStart(4, '0')}`;
}
