/** Whether the runtime knows `name` as a time zone (IANA names, as `Europe/Rome`). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '' || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
