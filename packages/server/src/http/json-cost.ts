import { setImmediate as nextTurn } from 'node:timers/promises';
import { HttpError } from './errors.js';

/**
 * What a JSON body may cost to parse. `JSON.parse` is one uninterruptible step whose time grows
 * with the number of values, so that number is counted first, without parsing: every `{`, `[`
 * and `,` outside strings starts a value. A stock item (an object of three fields) is four, as in
 * XML, where it is four elements. The count gives the event loop back every
 * {@link CHARACTERS_PER_TURN} characters, like the XML reader.
 */

/** Room for the largest stock batch (40,001 values) even with a few unknown fields per item. */
export const DEFAULT_JSON_VALUES = 100_000;

const CHARACTERS_PER_TURN = 256 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;

/** Where the string that opens at `quote` ends (the index of its closing quote), or -1. */
function stringEnd(text: string, quote: number): number {
  let at = text.indexOf('"', quote + 1);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** Throws a 413 when `text` holds more than `limit` JSON values; malformed text is left to JSON.parse. */
export async function assertJsonValuesWithin(text: string, limit: number): Promise<void> {
  // Each value past the first takes at least one character of its own.
  if (text.length <= limit) return;
  let values = 0;
  let nextYield = CHARACTERS_PER_TURN;
  for (let at = 0; at < text.length; at++) {
    if (at >= nextYield) {
      nextYield += CHARACTERS_PER_TURN;
      await nextTurn();
    }
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (end === -1) return;
      at = end;
    } else if (code === COMMA || code === OPEN_BRACKET || code === OPEN_BRACE) {
      values += 1;
      if (values > limit) {
        throw new HttpError(413, 'The JSON body has more than %fieldValue values.', [
          { fieldName: 'body', fieldValue: String(limit) },
        ]);
      }
    }
  }
}
