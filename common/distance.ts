/**
 * Distances on the Earth, for the locator's nearest search: the great-circle distance (haversine, on the mean
 * radius), the latitude and longitude bounds that hold every point within a distance (the server's indexed
 * search), and the unit a country writes distances in (the cards).
 */

/** The Earth's mean radius, in kilometres (IUGG). */
export const EARTH_RADIUS_KM = 6371.0088;
/** Half the Earth's circumference: no two points are farther apart. */
export const FARTHEST_KM = Math.PI * EARTH_RADIUS_KM;
const KM_PER_MILE = 1.609344;

const radians = (degrees: number) => (degrees * Math.PI) / 180;
const degrees = (radiansValue: number) => (radiansValue * 180) / Math.PI;

/** The great-circle distance between two points given in degrees, in kilometres. */
export function distanceKm(latitude1: number, longitude1: number, latitude2: number, longitude2: number): number {
  const dLatitude = radians(latitude2 - latitude1);
  const dLongitude = radians(longitude2 - longitude1);
  const a =
    Math.sin(dLatitude / 2) ** 2 +
    Math.cos(radians(latitude1)) * Math.cos(radians(latitude2)) * Math.sin(dLongitude / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The bounds holding every point within radiusKm of a point: latitudes from south to north; longitudes from
 * west to east, where west > east when the bounds cross the 180th meridian; null longitudes when every
 * longitude is within (the bounds reach a pole). Null when the radius reaches every point.
 */
export interface Bounds {
  south: number;
  north: number;
  west: number | null;
  east: number | null;
}

export function boundsAround(latitude: number, longitude: number, radiusKm: number): Bounds | null {
  if (radiusKm >= FARTHEST_KM) return null;
  const angle = radiusKm / EARTH_RADIUS_KM;
  const south = latitude - degrees(angle);
  const north = latitude + degrees(angle);
  if (south <= -90 || north >= 90)
    return { south: Math.max(-90, south), north: Math.min(90, north), west: null, east: null };
  // The widest longitude a point at this distance can have (the tangent from the pole's meridian).
  const ratio = Math.sin(angle) / Math.cos(radians(latitude));
  if (ratio >= 1) return { south, north, west: null, east: null };
  const spread = degrees(Math.asin(ratio));
  if (spread >= 180) return { south, north, west: null, east: null };
  let west = longitude - spread;
  let east = longitude + spread;
  if (west < -180) west += 360;
  if (east > 180) east -= 360;
  return { south, north, west, east };
}

/** Countries that write road distances in miles (by their names as the country picklist gives them). */
const MILE_COUNTRIES = new Set(['United States', 'United Kingdom', 'Liberia', 'Myanmar']);

type DistanceUnit = 'km' | 'mi';

/** The unit a country writes distances in: miles in the United States, the United Kingdom, Liberia, Myanmar; else km. */
export function distanceUnitFor(country: string | null | undefined): DistanceUnit {
  return country && MILE_COUNTRIES.has(country) ? 'mi' : 'km';
}

/** A distance in the unit, for a card: whole units from 10 on, one decimal below ("0.4 km", "12 mi"). */
export function formatDistance(km: number, unit: DistanceUnit): string {
  const value = unit === 'mi' ? km / KM_PER_MILE : km;
  const shown = value >= 10 ? Math.round(value).toLocaleString('en-US') : (Math.round(value * 10) / 10).toFixed(1);
  return `${shown} ${unit}`;
}
