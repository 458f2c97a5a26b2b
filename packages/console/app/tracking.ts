import type { Label, Track } from './api.js';

/**
 * Where a track can be followed: the tracking page the courier's label names, else the
 * carrier's own page for the carriers whose address is stable; null for any other carrier, whose
 * number then shows as text.
 */
const CARRIER_PAGES: Record<string, (number: string) => string> = {
  ups: (number) => `https://www.ups.com/track?tracknum=${number}`,
  fedex: (number) => `https://www.fedex.com/fedextrack/?trknbr=${number}`,
  usps: (number) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`,
  dhl: (number) =>
    `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${number}`,
  dpd: (number) => `https://tracking.dpd.de/status/en_US/parcel/${number}`,
};

export function trackingUrl(track: Track, labels: readonly Label[]): string | null {
  const label = labels.find((row) => row.tracking_number === track.track_number);
  const named = track.tracking_url ?? label?.tracking_url;
  if (named && /^https?:\/\//.test(named)) return named;
  const page = CARRIER_PAGES[track.carrier_code.toLowerCase()];
  return page ? page(encodeURIComponent(track.track_number)) : null;
}
