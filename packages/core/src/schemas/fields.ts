import * as v from 'valibot';
import { toMoney } from '../domain/money.js';
import { parseTimestamp, TIMESTAMP_PATTERN } from '../domain/timestamp.js';

/** Building blocks shared by the request, resource and seed schemas. */

// NUL cannot be stored in a Postgres text column: refused here, as bad input, not at storage.
const noNul = v.check(
  (value: string) => !value.includes('\u0000'),
  'must not contain NUL characters',
);

export const text = v.pipe(v.string(), noNul);
export const nonEmptyText = v.pipe(
  v.string(),
  noNul,
  v.trim(),
  v.minLength(1, 'must not be empty'),
);
// Safe integers only: beyond 2^53 a number no longer stands for one integer, and storage refuses it.
export const positiveId = v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(1));
export const quantity = v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(0));

/** What the 32-bit integer columns (priority, ordered qty) hold. */
export const INT32_MAX = 2_147_483_647;
export const int32 = v.pipe(
  v.number(),
  v.integer('must be an integer'),
  v.minValue(-INT32_MAX - 1),
  v.maxValue(INT32_MAX),
);

/** The spec types order_id as a string; a number is taken as its decimal text. */
export const orderId = v.pipe(
  v.union([v.string(), v.pipe(v.number(), v.integer())], 'must be a string'),
  v.transform((id: string | number) => String(id)),
  noNul,
  v.minLength(1, 'must not be empty'),
);

const TIMESTAMP_MESSAGE = 'must be a timestamp "YYYY-MM-DD HH:MM:SS"';

// The regex gives the OpenAPI document its pattern; the check refuses dates that do not exist.
export const timestamp = v.pipe(
  v.string(),
  v.regex(TIMESTAMP_PATTERN, TIMESTAMP_MESSAGE),
  v.check(
    (value) => !TIMESTAMP_PATTERN.test(value) || parseTimestamp(value) !== null,
    TIMESTAMP_MESSAGE,
  ),
);

/** An amount of money: a number in, exact ten-thousandths out (which must stay a safe integer). */
export const money = v.pipe(
  v.number(),
  v.check(
    (amount) => Number.isSafeInteger(toMoney(amount)),
    'must be an amount of at most 4 decimals below 900 billion',
  ),
  v.transform(toMoney),
);
export const optionalMoney = v.optional(money);

/** `items[]` of an action: at least one entry, no item listed twice. */
export function itemList<TEntry extends v.GenericSchema<unknown, { item_id: number }>>(
  entry: TEntry,
) {
  return v.pipe(
    v.array(entry),
    v.minLength(1, 'must list at least one item'),
    v.check(
      (items) => new Set(items.map((item) => item.item_id)).size === items.length,
      'must not list an item twice',
    ),
  );
}
