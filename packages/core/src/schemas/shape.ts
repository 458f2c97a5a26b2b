import type * as v from 'valibot';

/** True when each of `A` and `B` is assignable to the other. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

type Conforms<TOutput, TDomain> =
  Same<TOutput, TDomain> extends true ? unknown : { 'parses to another shape than': TDomain };

/**
 * The domain owns its types; a schema only describes one. `shapeOf<T>()(schema)` is the schema
 * itself, once the compiler has checked that what it parses to (or presents) is `T`.
 */
export function shapeOf<TDomain>() {
  return <TSchema extends v.GenericSchema>(
    schema: TSchema & Conforms<v.InferOutput<TSchema>, TDomain>,
  ): TSchema => schema;
}
