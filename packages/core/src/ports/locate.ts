import type { GeoPoint, LocatedBy } from '../domain/routing/snapshot.js';

/** What a locator reads of a shipping address. */
export interface AddressToLocate {
  /** ISO 3166-1 alpha-2, as the sales order gives it. */
  country_id: string;
  postcode: string;
  city: string;
  region: string;
}

/** Where a locator found an address, and how precisely. */
export interface Located extends GeoPoint {
  located_by: Exclude<LocatedBy, 'address'>;
}

/**
 * The port behind the `distance` routing rule (docs/routing.md): where an address is, when it
 * does not carry its own coordinates. `@fulfil/geo` is one, offline; an app may plug in its own
 * geocoder. Null when it cannot tell. It may be asynchronous; a locator that throws or rejects
 * counts as one that cannot tell, so a geocoder's outage never fails an intake.
 */
export type Locate = (address: AddressToLocate) => Located | null | Promise<Located | null>;
