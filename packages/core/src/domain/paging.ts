/** Page size of every polling endpoint, fixed by the spec. */
export const PAGE_SIZE = 100;

/**
 * The most characters of JSON documents an `after` or `since` page carries (docs/limits.md): a
 * page of large orders stops before the one that would take it past this, holding at least one,
 * and the next page continues after its last. `page` pages keep the spec's 100 whatever size.
 */
export const PAGE_TEXT_LIMIT = 1024 * 1024;

/** How many of the documents of these sizes, from the first, a bounded page takes: at least one. */
export function fittingCount(sizes: readonly number[], limit = PAGE_TEXT_LIMIT): number {
  let total = 0;
  for (const [index, size] of sizes.entries()) {
    total += size;
    if (total > limit && index > 0) return index;
  }
  return sizes.length;
}
