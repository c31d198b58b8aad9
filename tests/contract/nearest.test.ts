/**
 * The nearest search over real HTTP, on every test database: getPlaceSuggestions (the place box's type-ahead)
 * and getNearestContacts (the contacts nearest to a point), as a guest, every answer checked against the
 * contract. The order is compared with one computed here from the stored contacts and the places, with the
 * great-circle distance of common/distance.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apexUrl, BRANDS, compareBytes, CONTROLLER, storedContacts, type ApexErrorBody } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { distanceKm } from '../../common/distance.ts';
import { REACH } from '../../server/storefront/nearest.ts';

interface NearestCard extends Record<string, string | number | null> {
  Id: string;
  distanceKm: number | null;
  placedBy: 'city' | 'state' | null;
}
interface NearestResult {
  contacts: NearestCard[];
  totalRecords: number;
}
interface Suggestion {
  city: string;
  state: string;
  country: string;
  latitude: number;
  longitude: number;
}

const CONTACTS = 300;
const CHUNK = 36;
const AUSTIN = { latitude: 30.26715, longitude: -97.74306 };

describe.each(databases())('nearest search on %s', (kind) => {
  let server: TestServer;
  /**
   * Each call on a connection of its own: the expected orders take seconds to compute between calls, after
   * which a kept-alive connection may be closed by the server just as it is reused (ECONNRESET).
   */
  const fresh: RequestInit = { headers: { connection: 'close' } };
  const nearest = (params: unknown) =>
    callOperation<NearestResult>(
      'getNearestContacts',
      apexUrl(server.baseUrl, CONTROLLER, 'getNearestContacts', params),
      fresh,
    );
  const suggestions = (params: unknown) =>
    callOperation<Suggestion[]>(
      'getPlaceSuggestions',
      apexUrl(server.baseUrl, CONTROLLER, 'getPlaceSuggestions', params),
    );

  /** Every contact with its distance from the point, by the rules: city, else state when the city is blank. */
  interface Place {
    country: string;
    state: string;
    city_key: string;
    latitude: number;
    longitude: number;
  }
  /** Every place by its key, read once: 152,944 rows take seconds to read from PGlite on a busy machine. */
  let placesByKey: Promise<Map<string, Place>> | undefined;
  const placesOf = () =>
    (placesByKey ??= server.db
      .query<Place>('SELECT country, state, city_key, latitude, longitude FROM place')
      .then(({ rows }) => new Map(rows.map((place) => [`${place.country}|${place.state}|${place.city_key}`, place]))));

  async function expectedOrder(point: { latitude: number; longitude: number }, brands: string[] = []) {
    const byKey = await placesOf();
    const contacts = (await storedContacts(server.db)).filter(
      (contact) =>
        !brands.length ||
        String(contact.fields.APT_Brand__c ?? '')
          .split(';')
          .some((brand) => brands.includes(brand)),
    );
    const placed = contacts.map((contact) => {
      const city = String(contact.fields.APT_City__c ?? '')
        .trim()
        .toLowerCase();
      const place = byKey.get(`${contact.fields.APT_Country__c}|${contact.fields.APT_Primary_State__c}|${city}`);
      const km = place
        ? Math.round(distanceKm(point.latitude, point.longitude, place.latitude, place.longitude) * 1000) / 1000
        : null;
      return { id: contact.id, km, placedBy: place ? (city ? 'city' : 'state') : null };
    });
    return placed.sort((a, b) =>
      a.km === null || b.km === null
        ? (a.km === null ? 1 : 0) - (b.km === null ? 1 : 0) || compareBytes(a.id, b.id)
        : a.km - b.km || compareBytes(a.id, b.id),
    );
  }

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: CONTACTS });
  });
  afterAll(() => server?.close());

  describe('getPlaceSuggestions', () => {
    it('suggests up to 10 cities starting with the prefix, ignoring case, in the country given', async () => {
      const { status, body } = await suggestions({ prefix: 'AUS', country: 'United States' });
      expect(status).toBe(200);
      expect(body.length).toBeGreaterThan(0);
      expect(body.length).toBeLessThanOrEqual(10);
      for (const place of body) {
        expect(place.city.toLowerCase().startsWith('aus')).toBe(true);
        expect(place.country).toBe('United States');
      }
      const austin = body.find((place) => place.city === 'Austin' && place.state === 'Texas');
      expect(austin?.latitude).toBeCloseTo(AUSTIN.latitude, 3);
      expect(austin?.longitude).toBeCloseTo(AUSTIN.longitude, 3);
    });

    it('suggests the cities of every country without one, and none for a prefix no city has', async () => {
      const { body } = await suggestions({ prefix: 'toro' });
      expect(new Set(body.map((place) => place.country)).size).toBeGreaterThan(1);
      expect(body.some((place) => place.city === 'Toronto' && place.country === 'Canada')).toBe(true);
      expect((await suggestions({ prefix: 'zzqx' })).body).toEqual([]);
      // LIKE's own characters are taken literally.
      expect((await suggestions({ prefix: '%' })).body).toEqual([]);
    });

    it.each([
      ['no arguments', undefined],
      ['an empty prefix', { prefix: '' }],
      ['a prefix that is not text', { prefix: 5 }],
      ['an argument it does not take', { prefix: 'aus', state: 'Texas' }],
      ['methodParams that are not JSON', '{prefix'],
    ])('answers 400 {errorMessage} to %s', async (_, params) => {
      const { status, body } = await callOperation<ApexErrorBody>(
        'getPlaceSuggestions',
        apexUrl(server.baseUrl, CONTROLLER, 'getPlaceSuggestions', params),
      );
      expect(status).toBe(400);
      expect(typeof body.errorMessage).toBe('string');
    });

    it('answers 400 to a country that is not in the list', async () => {
      const { status, body } = await suggestions({ prefix: 'aus', country: 'Atlantis' });
      expect(status).toBe(400);
      expect((body as unknown as ApexErrorBody).errorMessage).toBe('Unknown country: Atlantis');
    });
  });

  describe('getNearestContacts', () => {
    it('walks the places nearest first through their index of positions, with no sort of them all', async () => {
      const { rows } = await server.db.query<Record<string, string>>(`EXPLAIN ${REACH}`, [
        AUSTIN.latitude,
        AUSTIN.longitude,
        [],
        CHUNK,
      ]);
      const plan = rows.map((row) => Object.values(row)[0]).join('\n');
      expect(plan).toMatch(/Index Scan using place_position_idx/);
      expect(plan).not.toMatch(/Sort/);
    });

    it('answers the contacts nearest to the point, by distance then Id, in chunks, with the total', async () => {
      const expected = await expectedOrder(AUSTIN);
      const first = await nearest(AUSTIN);
      expect(first.status).toBe(200);
      expect(first.body.totalRecords).toBe(CONTACTS);
      expect(first.body.contacts.map((card) => [card.Id, card.distanceKm, card.placedBy])).toEqual(
        expected.slice(0, CHUNK).map((one) => [one.id, one.km, one.placedBy]),
      );
      // The first is in Texas or near it; the distances never fall.
      const distances = first.body.contacts.map((card) => card.distanceKm!);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      const second = await nearest({ ...AUSTIN, offset: CHUNK });
      expect(second.body.contacts.map((card) => card.Id)).toEqual(
        expected.slice(CHUNK, 2 * CHUNK).map((one) => one.id),
      );
      // Past the last contact: nothing more.
      const past = await nearest({ ...AUSTIN, offset: CONTACTS });
      expect(past.body.contacts).toEqual([]);
    });

    it('answers the same order from the other side of the Earth and across the 180th meridian', async () => {
      for (const point of [
        { latitude: -17.7, longitude: 179.9 },
        { latitude: 89.9, longitude: 0 },
        { latitude: -45, longitude: -120 },
      ]) {
        const expected = await expectedOrder(point);
        const { body } = await nearest(point);
        expect(body.contacts.map((card) => card.Id)).toEqual(expected.slice(0, CHUNK).map((one) => one.id));
      }
    });

    it('combines with the brand filter', async () => {
      const brands = [BRANDS[1]];
      const expected = await expectedOrder(AUSTIN, brands);
      const { body } = await nearest({ ...AUSTIN, brands });
      expect(body.totalRecords).toBe(expected.length);
      expect(body.contacts.map((card) => card.Id)).toEqual(expected.slice(0, CHUNK).map((one) => one.id));
    });

    it('places a contact without a city by its state, and one whose city is unknown last, without a distance', async () => {
      const [blank, unknown] = (await storedContacts(server.db)).filter(
        (contact) => contact.fields.APT_Country__c === 'United States' && !contact.fields.APT_Default_Contact__c,
      );
      await server.db.query(
        `UPDATE record SET fields = jsonb_set(fields, '{APT_City__c}', to_jsonb($2::text)) WHERE id = $1`,
        [blank.id, ' '],
      );
      await server.db.query(
        `UPDATE record SET fields = jsonb_set(fields, '{APT_City__c}', to_jsonb($2::text)) WHERE id = $1`,
        [unknown.id, 'Nowhere Springs'],
      );
      const expected = await expectedOrder(AUSTIN);
      expect(expected.find((one) => one.id === blank.id)?.placedBy).toBe('state');
      // Unplaced contacts (this one, and any demo contact whose city the data lacks in its state) come last.
      const firstUnplaced = expected.findIndex((one) => one.km === null);
      expect(expected.slice(firstUnplaced).some((one) => one.id === unknown.id)).toBe(true);
      expect(expected.slice(firstUnplaced).every((one) => one.km === null)).toBe(true);
      const cards: NearestCard[] = [];
      for (let offset = 0; offset < CONTACTS; offset += CHUNK)
        cards.push(...(await nearest({ ...AUSTIN, offset })).body.contacts);
      expect(cards.map((card) => [card.Id, card.distanceKm, card.placedBy])).toEqual(
        expected.map((one) => [one.id, one.km, one.placedBy]),
      );
      expect(cards.find((card) => card.Id === unknown.id)).toMatchObject({ distanceKm: null, placedBy: null });
      expect(cards.find((card) => card.Id === blank.id)).toMatchObject({ placedBy: 'state' });
    });

    it('is cached like getContacts: the same ETag, and 304 to If-None-Match', async () => {
      const url = apexUrl(server.baseUrl, CONTROLLER, 'getNearestContacts', { ...AUSTIN, brands: [BRANDS[0]] });
      const first = await callOperation('getNearestContacts', url);
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(first.headers.get('cache-control')).toMatch(/max-age/);
      const again = await callOperation('getNearestContacts', url, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
    });

    it.each([
      ['no arguments', undefined],
      ['no longitude', { latitude: 30 }],
      ['a latitude beyond the pole', { latitude: 91, longitude: 0 }],
      ['a longitude beyond 180', { latitude: 0, longitude: 180.5 }],
      ['a latitude that is text', { latitude: '30', longitude: 0 }],
      ['brands as text', { ...AUSTIN, brands: 'Arcline' }],
      ['a negative offset', { ...AUSTIN, offset: -1 }],
      ['an offset that is not whole', { ...AUSTIN, offset: 1.5 }],
      ['an argument it does not take', { ...AUSTIN, country: 'United States' }],
      ['methodParams that are not JSON', '{"latitude":'],
    ])('answers 400 {errorMessage} to %s', async (_, params) => {
      const { status, body } = await callOperation<ApexErrorBody>(
        'getNearestContacts',
        apexUrl(server.baseUrl, CONTROLLER, 'getNearestContacts', params),
      );
      expect(status).toBe(400);
      expect(typeof body.errorMessage).toBe('string');
    });

    it('answers 400 to a brand that is not in the picklist', async () => {
      const { status, body } = await callOperation<ApexErrorBody>(
        'getNearestContacts',
        apexUrl(server.baseUrl, CONTROLLER, 'getNearestContacts', { ...AUSTIN, brands: ['Nonesuch'] }),
      );
      expect(status).toBe(400);
      expect(body.errorMessage).toBe('Unknown brand: Nonesuch');
    });
  });
});
