/**
 * Appends `items` to `target`, one at a time. Spread into `push`, every item would be an
 * argument of one call, and past about 100,000 of them (the lines of a page of large orders) the
 * call overflows the stack: a page that grew past it would fail for good.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
