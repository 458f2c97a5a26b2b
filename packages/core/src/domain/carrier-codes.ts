import { carrierKey } from './tracking-urls.js';
import type { Track } from './types.js';

/**
 * The carrier of a courier label as a track names it (docs/couriers.md): the carrier's own word
 * for itself (`UPS`, `dhl-express`) read as the carrier codes tracks use everywhere else in the
 * API (`ups`, `dhl_express`, the keys of the tracking pages), with the title a customer reads.
 */

/** What a customer reads for the carriers Fulfil knows by code; any other carrier's own words. */
export const CARRIER_TITLES: Readonly<Record<string, string>> = {
  ups: 'UPS',
  fedex: 'FedEx',
  usps: 'USPS',
  dhl: 'DHL',
  dhl_express: 'DHL Express',
  dpd: 'DPD',
  gls: 'GLS',
  brt: 'BRT',
  royal_mail: 'Royal Mail',
  canada_post: 'Canada Post',
  australia_post: 'Australia Post',
  poste_italiane: 'Poste Italiane',
};

/** The longest carrier code a track holds, as a partner's track code may be (docs/limits.md). */
const CODE_LIMIT = 128;

// Control characters and halves of a surrogate pair: nothing a carrier's name needs, and neither
// a Postgres text column (NUL) nor a well-formed JSON answer (lone surrogates) could carry them.
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  /[\u0000-\u001f\u007f-\u009f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The carrier as a label records it: its words as it answered them, without control characters
 * or lone surrogates, at most 128 characters (never half a pair); null when it said nothing.
 */
export function carrierWords(answered: string | null | undefined): string | null {
  const words = (answered ?? '').replace(UNPRINTABLE, '').trim();
  if (words === '') return null;
  return [...words].slice(0, CODE_LIMIT).join('');
}

/**
 * The track of one courier label: the carrier as the label records it (else `fallback`, the
 * carrier account's name, for a carrier that did not say), its code in Fulfil's form, its title,
 * the tracking number, and the tracking page the carrier gave, when it gave one.
 */
export function courierTrack(
  label: {
    carrier_code: string | null;
    tracking_number: string | null;
    tracking_url: string | null;
  },
  fallback: string,
): Track {
  const carrier = label.carrier_code ?? fallback;
  const code = carrierKey(carrier);
  const track: Track = {
    carrier_code: code,
    title: Object.hasOwn(CARRIER_TITLES, code) ? (CARRIER_TITLES[code] as string) : carrier,
    track_number: label.tracking_number ?? '',
  };
  if (label.tracking_url && /^https?:\/\//i.test(label.tracking_url)) {
    track.tracking_url = label.tracking_url;
  }
  return track;
}
