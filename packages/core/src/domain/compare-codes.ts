/**
 * Orders codes (warehouse codes, skus, token names) by their code units, never by the process
 * locale: every process, and the databases' binary collations, then agree on one order, so two
 * workers route a tie the same way.
 */
export function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
