/**
 * Distances on the Earth, for the locator's nearest search: the great-circle distance (haversine, on the mean
 * radius), the straight-line distance that the server's index of places measures, and the unit a country writes
 * distances in (the cards).
 */

/** The Earth's mean radius, in kilometres (IUGG). */
export const EARTH_RADIUS_KM = 6371.0088;
/** Half the Earth's circumference: no two points are farther apart. */
export const FARTHEST_KM = Math.PI * EARTH_RADIUS_KM;
const KM_PER_MILE = 1.609344;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

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
 * The straight-line distance, through the sphere of radius 1, between two points that are km apart along the
 * Earth's surface: what the nearest search's index of places (positions on that sphere) measures. It grows with
 * the distance along the surface, so both order points alike, and every point within km lies within it.
 */
export function chordLength(km: number): number {
  return 2 * Math.sin(Math.min(Math.PI, km / EARTH_RADIUS_KM) / 2);
}

/** Countries that write road distances in miles (by their names as the country picklist gives them). */
const MILE_COUNTRIES = new Set(['United States', 'United Kingdom', 'Liberia', 'Myanmar']);

type DistanceUnit = 'km' | 'mi';

/** The unit a country writes distances in: miles in the United States, the United Kingdom, Liberia, Myanmar; else km. */
export function distanceUnitFor(country: string | null | undefined): DistanceUnit {
  return country && MILE_COUNTRIES.has(country) ? 'mi' : 'km';
}

/**
 * A whole number with commas between its thousands, as en-US writes it ("1,234"). Not toLocaleString: its first
 * call in a page sets up the browser's number formatting, 50 ms of the main thread on a slow phone.
 */
const withThousands = (whole: number) => String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A distance in the unit, for a card: whole units from 10 on, one decimal below ("0.4 km", "12 mi"). */
export function formatDistance(km: number, unit: DistanceUnit): string {
  const value = unit === 'mi' ? km / KM_PER_MILE : km;
  const shown = value >= 10 ? withThousands(Math.round(value)) : (Math.round(value * 10) / 10).toFixed(1);
  return `${shown} ${unit}`;
}
