import { greatCircleKm, type Locate, locateDestination } from '@fulfil/core';
import { describe, expect, it } from 'vitest';
import { locate, normalizeName } from '../src/index.js';

/** The offline locator: cities within their country, else the country's centre, else null. */

const address = (country_id: string, city: string, region = '') => ({
  country_id,
  city,
  region,
  postcode: '',
});

const km = (
  a: { latitude: number; longitude: number } | null,
  latitude: number,
  longitude: number,
) => (a === null ? Number.NaN : greatCircleKm(a, { latitude, longitude }));

describe('locate', () => {
  it('finds a city within its country, whatever its case, accents and punctuation', () => {
    const milan = locate(address('IT', 'MILAN'));
    expect(milan?.located_by).toBe('city');
    expect(km(milan, 45.4642, 9.19)).toBeLessThan(10);
    const cologne = locate(address('de', ' koln '));
    expect(cologne?.located_by).toBe('city');
    expect(km(cologne, 50.9375, 6.9603)).toBeLessThan(10);
    expect(normalizeName('Saint-Étienne')).toBe('saint etienne');
  });

  it('tells places of one name apart by the region, by its code or its name', () => {
    const illinois = locate(address('US', 'Springfield', 'IL'));
    expect(illinois?.located_by).toBe('city');
    expect(km(illinois, 39.8017, -89.6437)).toBeLessThan(15);
    const missouri = locate(address('US', 'Springfield', 'Missouri'));
    expect(km(missouri, 37.2153, -93.2982)).toBeLessThan(15);
  });

  it("falls back on the country's centre when the city is unknown or stays ambiguous", () => {
    const italy = locate(address('IT', 'Milano'));
    expect(italy?.located_by).toBe('country');
    expect(km(italy, 42.5, 12.5)).toBeLessThan(300);
    expect(locate(address('US', 'Springfield'))?.located_by).toBe('country');
    // Fiji lies across 180°: its centre is there, not near 0°.
    expect(Math.abs(locate(address('FJ', 'Nowhere'))?.longitude ?? 0)).toBeGreaterThan(170);
  });

  it('gives null for a country it does not know', () => {
    expect(locate(address('ZZ', 'Milan'))).toBeNull();
    expect(locate(address('', ''))).toBeNull();
  });

  it("is a Locate of @fulfil/core: a destination's point comes from it when the address has none", async () => {
    const port: Locate = locate;
    const located = await locateDestination(address('IT', 'Milan'), port);
    expect(located).toMatchObject({ country: 'IT', located_by: 'city' });
    const own = await locateDestination(
      { ...address('IT', 'Milan'), latitude: 1, longitude: 2 },
      port,
    );
    expect(own).toEqual({
      country: 'IT',
      point: { latitude: 1, longitude: 2 },
      located_by: 'address',
    });
  });
});
