/**
 * Where a customer follows a parcel: the tracking page of each carrier that has a public one, as
 * data. A template holds `{number}`, replaced by the track number percent-encoded, so that a track
 * number (a string a partner wrote) can never leave the parameter or the path segment it fills.
 * Carrier codes are matched without regard to case, spaces or dashes (`DHL Express`,
 * `dhl-express` and `dhl_express` are one carrier); a carrier not listed has no tracking URL.
 */
export const TRACKING_URL_TEMPLATES: Readonly<Record<string, string>> = {
  ups: 'https://www.ups.com/track?tracknum={number}',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr={number}',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={number}',
  dhl: 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={number}',
  dhl_express:
    'https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={number}',
  royal_mail: 'https://www.royalmail.com/track-your-item#/tracking-results/{number}',
  canada_post:
    'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor={number}',
  australia_post: 'https://auspost.com.au/mypost/track/details/{number}',
  poste_italiane: 'https://www.poste.it/cerca/index.html#/risultati-spedizioni/{number}',
};

/** `DHL Express` → `dhl_express`: how a carrier code is looked up. */
export function carrierKey(carrierCode: string): string {
  return carrierCode
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** The carrier's tracking page for this track number, or undefined when it has none listed. */
export function trackingUrl(carrierCode: string, trackNumber: string): string | undefined {
  const key = carrierKey(carrierCode);
  // Own keys only: a carrier code is the partner's text (`__proto__` names no carrier).
  const template = Object.hasOwn(TRACKING_URL_TEMPLATES, key)
    ? TRACKING_URL_TEMPLATES[key]
    : undefined;
  if (template === undefined || trackNumber.trim() === '') return undefined;
  return template.replace('{number}', encodeURIComponent(trackNumber.trim()));
}
