/**
 * Distances for the nearest search (common/distance.ts): the great-circle distance, the straight-line distance
 * through the unit sphere that the server's index of places measures (which must hold every point within a
 * distance, or the search would miss a nearer contact, and order points as the great-circle distance does), and
 * the unit a country writes distances in.
 */
import { describe, expect, it, vi } from 'vitest';
import { chordLength, distanceKm, distanceUnitFor, FARTHEST_KM, formatDistance } from '../../common/distance.ts';

/** A point's position on the unit sphere, as migration 029 writes each place's. */
function position(latitude: number, longitude: number): [number, number, number] {
  const lat = (latitude * Math.PI) / 180;
  const lng = (longitude * Math.PI) / 180;
  return [Math.cos(lat) * Math.cos(lng), Math.cos(lat) * Math.sin(lng), Math.sin(lat)];
}

/** The straight-line distance between two points' positions. */
function straight(latitude1: number, longitude1: number, latitude2: number, longitude2: number): number {
  const a = position(latitude1, longitude1);
  const b = position(latitude2, longitude2);
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

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

describe('chordLength', () => {
  it('is the straight-line distance of points that far apart, wherever they are, so a box of it holds them', () => {
    const next = random(39);
    for (let run = 0; run < 20_000; run++) {
      const latitude = next() * 180 - 90;
      const longitude = next() * 360 - 180;
      const radius = [20, 80, 320, 1280, 5120, 19_000][run % 6];
      // A point at the radius in a random direction.
      const bearing = next() * 2 * Math.PI;
      const angle = radius / 6371.0088;
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
      const km = distanceKm(latitude, longitude, pointLatitude, pointLongitude);
      expect(km).toBeCloseTo(radius, 6);
      expect(straight(latitude, longitude, pointLatitude, pointLongitude)).toBeCloseTo(chordLength(km), 9);
      // In the box of half side chordLength around the point: no coordinate differs by more.
      const [a, b] = [position(latitude, longitude), position(pointLatitude, pointLongitude)];
      for (const axis of [0, 1, 2])
        expect(Math.abs(a[axis] - b[axis])).toBeLessThanOrEqual(chordLength(radius) + 1e-12);
    }
  });

  it('grows with the distance, up to the diameter at half the circumference', () => {
    expect(chordLength(0)).toBe(0);
    expect(chordLength(20)).toBeLessThan(chordLength(21));
    expect(chordLength(FARTHEST_KM)).toBeCloseTo(2, 12);
    expect(chordLength(FARTHEST_KM * 2)).toBeCloseTo(2, 12);
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
    expect(formatDistance(999.6, 'km')).toBe('1,000 km');
    expect(formatDistance(12_345.5, 'km')).toBe('12,346 km');
    expect(formatDistance(20_015.087, 'km')).toBe('20,015 km');
  });

  it('writes the thousands without toLocaleString, whose first call in a page costs a slow phone 50 ms', () => {
    const toLocaleString = vi.spyOn(Number.prototype, 'toLocaleString');
    try {
      expect(formatDistance(1234.4, 'km')).toBe('1,234 km');
      expect(toLocaleString).not.toHaveBeenCalled();
    } finally {
      toLocaleString.mockRestore();
    }
  });
});
