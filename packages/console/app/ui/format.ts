/**
 * Amounts, times and counts as an operator reads them, in the browser's locale. The API gives
 * amounts as numbers in the store's currency and times as `YYYY-MM-DD HH:MM:SS` in UTC.
 */

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(currency: string | null): Intl.NumberFormat {
  const key = currency ?? '';
  let format = formats.get(key);
  if (!format) {
    format = currency
      ? new Intl.NumberFormat(undefined, { style: 'currency', currency })
      : new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formats.set(key, format);
  }
  return format;
}

/** In the store's currency; without one, two decimals and no symbol. */
export function money(amount: number | null | undefined, currency: string | null): string {
  return amount === null || amount === undefined ? '—' : numberFormat(currency).format(amount);
}

/** The moment a UTC timestamp of the API stands for; null when it is none. */
export function instant(at: string | null | undefined): Date | null {
  if (!at) return null;
  const time = Date.parse(`${at.replace(' ', 'T')}Z`);
  return Number.isNaN(time) ? null : new Date(time);
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** `27 Nov 2026, 10:04` in the browser's time zone. */
export function dateTime(at: string | null | undefined): string {
  const moment = instant(at);
  return moment ? dateTimeFormat.format(moment) : (at ?? '—');
}

/** How long ago: `12 min`, `5 h`, `3 d`. */
export function age(at: string | null | undefined, now = Date.now()): string {
  const moment = instant(at);
  if (!moment) return '—';
  const minutes = Math.max(0, Math.round((now - moment.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

/** `1 order`, `1,204 orders`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** A count the API stopped at its cap: `10,000+`. */
export function capped(total: { count: number; capped: boolean }): string {
  return `${total.count.toLocaleString()}${total.capped ? '+' : ''}`;
}
