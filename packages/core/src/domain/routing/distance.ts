import type { Destination, GeoPoint, RoutingWarehouse } from './snapshot.js';

/** The Earth's mean radius (IUGG), in km. */
export const EARTH_RADIUS_KM = 6371.0088;

const RADIANS = Math.PI / 180;

/** The great-circle distance between two points, in km (the haversine formula). */
export function greatCircleKm(from: GeoPoint, to: GeoPoint): number {
  const dLat = (to.latitude - from.latitude) * RADIANS;
  const dLon = (to.longitude - from.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(from.latitude * RADIANS) * Math.cos(to.latitude * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * How far the warehouse is from the destination, in whole km; null when either is not located
 * (it then sorts last under `distance`). Whole km, so that float noise never decides a tie: two
 * warehouses within the same km are equally close, and the next rule decides.
 */
export function distanceKm(warehouse: RoutingWarehouse, destination: Destination): number | null {
  if (!destination.point || warehouse.latitude === null || warehouse.longitude === null)
    return null;
  return Math.round(
    greatCircleKm(
      { latitude: warehouse.latitude, longitude: warehouse.longitude },
      destination.point,
    ),
  );
}
