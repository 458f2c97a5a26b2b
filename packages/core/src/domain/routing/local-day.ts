/**
 * A warehouse's local day, for its daily capacity (docs/routing.md): the calendar date at the instant `at`
 * in its IANA time zone (UTC when it has none), `YYYY-MM-DD`. The day turns at local midnight,
 * daylight saving time included.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format;
}

export function localDay(at: Date, timeZone: string | null | undefined): string {
  return formatOf(timeZone || 'UTC').format(at);
}
