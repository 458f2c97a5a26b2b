declare const unverifiedBrand: unique symbol;

/**
 * Data from outside the program (a request body, a file, a fuzzer's bytes) that nobody has
 * checked: the engine's methods take it as well as their typed input, and validate both alike.
 */
export type Unverified = { readonly [unverifiedBrand]: true };

/** Hands the engine data it will validate itself; a typed caller passes its input as is. */
export function unverified(value: unknown): Unverified {
  return value as Unverified;
}
