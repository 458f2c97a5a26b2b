import * as v from 'valibot';
import { fromMoney, MAX_AMOUNT, toMoney } from '../domain/money.js';
import { parseTimestamp, TIMESTAMP_PATTERN } from '../domain/timestamp.js';

/** Building blocks shared by the request, resource and seed schemas. */

// NUL cannot be stored in a Postgres text column: refused here, as bad input, not at storage.
const noNul = v.check(
  (value: string) => !value.includes('\u0000'),
  'must not contain NUL characters',
);

/**
 * How long a string may be, in characters (Unicode code points), the same on every database
 * (docs/limits.md). Every string a request, an intake, a seed file or an operator may send is
 * built from the fields below, so no other limit exists anywhere.
 */
export const STRING_LIMITS = {
  /** Codes, sku, order, invoice and tracking numbers, ACL resources. */
  code: 128,
  /** A sales order's fulfillment orders are numbered `<sales_order_number>-<n>`: room for `-<n>`. */
  sales_order_number: 120,
  /** Names, titles, addresses, e-mails, payment and shipping labels. */
  label: 255,
  /** A customer's note, an operator's reason for failing an order. */
  note: 2_000,
  /** Invoice `additional_data`. */
  additional_data: 65_535,
  /** Invoice `doc_binary` (an encoded document). */
  document: 1_048_576,
  /** A token's secret, when chosen rather than generated. */
  secret: 512,
} as const;

/** Whether `value` has at most `max` code points, without counting more than needed. */
function withinCharacters(value: string, max: number): boolean {
  // A code point takes one or two UTF-16 units: most strings are decided by their length alone.
  if (value.length <= max) return true;
  if (value.length > 2 * max) return false;
  let count = 0;
  for (const _ of value) if (++count > max) return false;
  return true;
}

/** The character limit of each `atMost` check, for describing it (JSON Schema's maxLength). */
const CHARACTER_LIMITS = new WeakMap<object, number>();

function atMost(max: number) {
  const check = v.check(
    (value: string) => withinCharacters(value, max),
    `must be at most ${max} characters`,
  );
  CHARACTER_LIMITS.set(check, max);
  return check;
}

/**
 * The length limit a schema action enforces, in characters, or undefined when it is no such
 * limit. JSON Schema's `maxLength` counts characters (code points) as these checks do.
 */
export function characterLimitOf(action: object): number | undefined {
  return CHARACTER_LIMITS.get(action);
}

/** A string of at most `max` characters, possibly empty. */
export function boundedText(max: number) {
  return v.pipe(v.string(), noNul, atMost(max));
}

/** A string of 1 to `max` characters once trimmed. */
export function requiredText(max: number) {
  return v.pipe(v.string(), noNul, v.trim(), v.minLength(1, 'must not be empty'), atMost(max));
}

/** A code, sku or number: required, at most 128 characters. */
export const code = requiredText(STRING_LIMITS.code);
/** A code that may be empty (a payment method, a carrier code). */
export const optionalCode = boundedText(STRING_LIMITS.code);
/** A name, title, address line or e-mail: at most 255 characters, possibly empty. */
export const label = boundedText(STRING_LIMITS.label);
/** A name that must be given. */
export const requiredLabel = requiredText(STRING_LIMITS.label);
/** Free text of a person: at most 2,000 characters. */
export const note = boundedText(STRING_LIMITS.note);

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
  atMost(STRING_LIMITS.code),
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

/**
 * An amount of money: a number in, exact ten-thousandths out. More decimals are refused, not
 * rounded: a credit of 25.50004 is not one of 25.5. The magnitude is bounded (docs/limits.md) so
 * that every total an order's lines add up to stays exact.
 */
export const money = v.pipe(
  v.number(),
  // The nearest double to a 4-decimal value is what that value's ten-thousandths divide back to.
  v.check((amount) => fromMoney(toMoney(amount)) === amount, 'must have at most 4 decimals'),
  v.check(
    (amount) => Math.abs(amount) <= MAX_AMOUNT,
    `must be from -${MAX_AMOUNT} to ${MAX_AMOUNT}`,
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

/** Degrees north (-90 to 90); with its longitude, where a warehouse or an address is. */
export const latitude = v.pipe(
  v.number(),
  v.minValue(-90, 'must be between -90 and 90'),
  v.maxValue(90, 'must be between -90 and 90'),
);
/** Degrees east (-180 to 180). */
export const longitude = v.pipe(
  v.number(),
  v.minValue(-180, 'must be between -180 and 180'),
  v.maxValue(180, 'must be between -180 and 180'),
);
