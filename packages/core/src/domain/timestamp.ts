/** `YYYY-MM-DD HH:MM:SS` in UTC: the one timestamp format of the API. */
export type Timestamp = string;

/** The shape of a timestamp; `parseTimestamp` also refuses moments that do not exist. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * The last second formatted, and its text: an action formats its clock's now for each order and
 * event it writes, nearly always within one second.
 */
let lastSecond = Number.NaN;
let lastText = '';

export function formatTimestamp(date: Date): Timestamp {
  const second = Math.floor(date.getTime() / 1000);
  if (second === lastSecond) return lastText;
  // An invalid date throws here, as before: its NaN second never matches.
  const text = date.toISOString().slice(0, 19).replace('T', ' ');
  lastSecond = second;
  lastText = text;
  return text;
}

/** Parses a timestamp; null when it is malformed or names a moment that does not exist (Feb 30). */
export function parseTimestamp(text: string): Date | null {
  if (!TIMESTAMP_PATTERN.test(text)) return null;
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  return !Number.isNaN(date.getTime()) && formatTimestamp(date) === text ? date : null;
}
