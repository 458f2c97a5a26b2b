import { weightedEntry } from './media.js';

/** Content codings (`Accept-Encoding`, RFC 9110 §12.5.3) for answers kept precompressed. */

export type Coding = 'br' | 'gzip' | 'identity';

/** In order of preference when the client weighs them alike. */
const CODINGS: readonly Coding[] = ['br', 'gzip', 'identity'];

/**
 * The weight of `identity` when the header names neither it nor `*`: acceptable, but below any
 * coding the client names (`gzip;q=0.5` still means it wants gzip).
 */
const UNNAMED_IDENTITY = 0.0001;

/**
 * The coding to answer with: the one the client weighs highest, brotli before gzip before none
 * at a tie. `identity` is acceptable unless refused (`identity;q=0`, or `*;q=0` without it);
 * when everything is refused, the answer goes uncompressed all the same (RFC 9110 allows it).
 */
export function negotiateCoding(acceptEncoding: string | undefined): Coding {
  if (acceptEncoding === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const entry of acceptEncoding.split(',').map(weightedEntry)) {
    if (entry.value !== '' && !weights.has(entry.value)) weights.set(entry.value, entry.q);
  }
  const weightOf = (coding: Coding): number =>
    weights.get(coding) ?? weights.get('*') ?? (coding === 'identity' ? UNNAMED_IDENTITY : 0);
  let best: Coding = 'identity';
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
