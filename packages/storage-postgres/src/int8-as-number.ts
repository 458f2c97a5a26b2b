import pg from 'pg';

const INT8_OID = 20;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`fulfil: int8 value ${text} does not fit a JavaScript number`);
  }
  return value;
}

/**
 * Type parsers for one pool (its `types` option): int8 (`bigint` ids and money, `count(*)`)
 * becomes a `number` instead of pg's default string, and a value beyond 2^53 throws rather than
 * losing digits. pg's global parsers stay untouched, so other pools in the process are unaffected.
 */
export const int8AsNumber = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
