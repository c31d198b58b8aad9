/**
 * Distances for the nearest search (common/distance.ts): the great-circle distance, the bounds that must hold
 * every point within a distance (or the search's growing radius would miss a nearer contact, and order them
 * wrongly), and the unit a country writes distances in.
 */
import { describe, expect, it } from 'vitest';
import {
  boundsAround,
  distanceKm,
  distanceUnitFor,
  FARTHEST_KM,
  formatDistance,
  type Bounds,
} from '../../common/distance.ts';

const within = (bounds: Bounds, latitude: number, longitude: number) => {
  if (latitude < bounds.south || latitude > bounds.north) return false;
  if (bounds.west === null || bounds.east === null) return true;
  return bounds.west <= bounds.east
    ? longitude >= bounds.west && longitude <= bounds.east
    : longitude >= bounds.west || longitude <= bounds.east;
};

/** A seeded generator, so that a failure is found again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('distanceKm', () => {
  it('gives known distances between cities within half a percent', () => {
    // Austin to Dallas, London to Paris, New York to Los Angeles, Sydney to Auckland (great-circle figures).
    expect(distanceKm(30.26715, -97.74306, 32.78306, -96.80667)).toBeCloseTo(292, -1);
    expect(distanceKm(51.5074, -0.1278, 48.8566, 2.3522) / 343.5).toBeCloseTo(1, 2);
    expect(distanceKm(40.7128, -74.006, 34.0522, -118.2437) / 3936).toBeCloseTo(1, 2);
    expect(distanceKm(-33.8688, 151.2093, -36.8485, 174.7633) / 2156).toBeCloseTo(1, 2);
  });

  it('is zero at the point, symmetric, and never beyond half the circumference', () => {
    expect(distanceKm(10, 20, 10, 20)).toBe(0);
    expect(distanceKm(10, 20, -30, 150)).toBeCloseTo(distanceKm(-30, 150, 10, 20), 9);
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(FARTHEST_KM, 6);
    expect(distanceKm(90, 0, -90, 0)).toBeCloseTo(FARTHEST_KM, 6);
  });

  it('measures across the 180th meridian the short way', () => {
    expect(distanceKm(0, 179.5, 0, -179.5)).toBeCloseTo(distanceKm(0, 0, 0, 1), 6);
  });
});

describe('boundsAround', () => {
  it('holds every point within the radius, wherever the point is', () => {
    const next = random(39);
    for (let run = 0; run < 20_000; run++) {
      const latitude = next() * 180 - 90;
      const longitude = next() * 360 - 180;
      const radius = [20, 80, 320, 1280, 5120][run % 5];
      const bounds = boundsAround(latitude, longitude, radius);
      if (bounds === null) throw new Error('a radius below half the circumference has bounds');
      // A point at the radius (or just within) in a random direction.
      const bearing = next() * 2 * Math.PI;
      const angle = (radius * 0.999999) / 6371.0088;
      const lat1 = (latitude * Math.PI) / 180;
      const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing));
      const lng2 =
        (longitude * Math.PI) / 180 +
        Math.atan2(
          Math.sin(bearing) * Math.sin(angle) * Math.cos(lat1),
          Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2),
        );
      const pointLatitude = (lat2 * 180) / Math.PI;
      const pointLongitude = (((((lng2 * 180) / Math.PI + 540) % 360) + 360) % 360) - 180;
      expect(distanceKm(latitude, longitude, pointLatitude, pointLongitude)).toBeLessThanOrEqual(radius);
      if (!within(bounds, pointLatitude, pointLongitude))
        throw new Error(
          `${pointLatitude},${pointLongitude} is outside the bounds of ${latitude},${longitude} at ${radius} km`,
        );
    }
  });

  it('is narrow where it can be: a city 300 km away is outside the 20 km bounds', () => {
    const bounds = boundsAround(30.26715, -97.74306, 20)!;
    expect(within(bounds, 32.78306, -96.80667)).toBe(false);
    expect(bounds.north - bounds.south).toBeCloseTo((2 * 20) / 111.195, 2);
  });

  it('wraps across the 180th meridian, opens to every longitude near a pole, and is null for the whole Earth', () => {
    const fiji = boundsAround(-17.7, 179.9, 100)!;
    expect(fiji.west! > fiji.east!).toBe(true);
    expect(within(fiji, -17.7, -179.8)).toBe(true);
    expect(within(fiji, -17.7, 0)).toBe(false);
    expect(boundsAround(89.5, 0, 100)).toMatchObject({ west: null, east: null });
    expect(boundsAround(0, 0, FARTHEST_KM)).toBeNull();
  });
});

describe('distanceUnitFor and formatDistance', () => {
  it('writes miles in the United States, the United Kingdom, Liberia and Myanmar, kilometres elsewhere', () => {
    for (const country of ['United States', 'United Kingdom', 'Liberia', 'Myanmar'])
      expect(distanceUnitFor(country)).toBe('mi');
    for (const country of ['Canada', 'Mexico', 'Germany', 'India', null, undefined, ''])
      expect(distanceUnitFor(country)).toBe('km');
  });

  it('shows one decimal below 10 and whole units from 10 on, converted to miles', () => {
    expect(formatDistance(0, 'km')).toBe('0.0 km');
    expect(formatDistance(3.456, 'km')).toBe('3.5 km');
    expect(formatDistance(16.09344, 'mi')).toBe('10 mi');
    expect(formatDistance(1609.344, 'mi')).toBe('1,000 mi');
    expect(formatDistance(1234.4, 'km')).toBe('1,234 km');
  });
});
