import type { Destination } from '../domain/routing/snapshot.js';
import type { AddressToLocate, Locate } from '../ports/locate.js';

/**
 * Where a shipping address is, for routing (docs/routing.md): its own `latitude`/`longitude`
 * when it has them, else what `locate` says of it, else nowhere (the `distance` rule then sorts
 * every warehouse as unknown). A locator that throws is a locator that cannot tell.
 */
export async function locateDestination(
  address: AddressToLocate & { latitude?: number | null; longitude?: number | null },
  locate: Locate | null,
): Promise<Destination> {
  const country = address.country_id.trim().toUpperCase();
  if (typeof address.latitude === 'number' && typeof address.longitude === 'number')
    return {
      country,
      point: { latitude: address.latitude, longitude: address.longitude },
      located_by: 'address',
    };
  let located: Awaited<ReturnType<Locate>> = null;
  try {
    located = locate ? await locate(address) : null;
  } catch {
    located = null;
  }
  return located
    ? {
        country,
        point: { latitude: located.latitude, longitude: located.longitude },
        located_by: located.located_by,
      }
    : { country, point: null, located_by: null };
}
