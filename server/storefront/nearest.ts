/**
 * The contacts nearest to a point (getNearestContacts). A representative is placed by its country, state and
 * city as written: the city among the places of its state (migration 026, server/storefront/places.ts), or the
 * state's own place when its city is blank. Nothing on the write path: the search reads the places within a
 * growing distance of the point (by their latitude band, indexed), then the representatives of those places
 * through contact_us_place_idx, and orders them by the great-circle distance (to the metre), then Id. Representatives no
 * place matches come last, by Id.
 */
import type { Schemas } from '../../generated/types.ts';
import type { Queryable } from '../db/connection.ts';
import { MASTER_RECORD_TYPE_ID } from '../platform/core/ids.ts';
import { ApexError } from './apex-error.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';
import { JsonText } from '../../common/json-text.ts';
import { boundsAround, EARTH_RADIUS_KM, type Bounds } from '../../common/distance.ts';
import { CARD_FIELDS, CONTACTS_CHUNK_SIZE } from './locator.ts';

/**
 * The first distance searched, and the factor it grows by until it holds the contacts asked for (or every
 * place). At a million contacts a city of the United States has some twenty within 20 km: most searches there
 * end at the first or second step.
 */
const FIRST_RADIUS_KM = 20;
const RADIUS_GROWTH = 4;
/**
 * The nearest search answers at most this many contacts (30 pages of 12): nearest first, farther pages are of
 * no use, and the count of all contacts of a brand (16 to 50 ms at a million, from contact_us_locator_count)
 * would cost more than the search. totalRecords counts up to it.
 */
const NEAREST_MAX = 360;

type NearestQuery = Schemas['NearestContactsQuery'];

/** The card's columns of record r. */
const CARD_COLUMNS = CARD_FIELDS.map((name) => `r.fields ->> '${name}' AS "${name}"`).join(', ');

/** The great-circle distance, in km, from the point ($1, $2) to the place's coordinates. */
const DISTANCE = `2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
    power(sin(radians(p.latitude - $1) / 2), 2) +
    cos(radians($1)) * cos(radians(p.latitude)) * power(sin(radians(p.longitude - $2) / 2), 2))))`;

/** The SQL condition of the bounds on the place p, its values pushed onto params. */
function boundsCondition(bounds: Bounds | null, params: unknown[]): string {
  if (bounds === null) return 'true';
  if (bounds.west === null || bounds.east === null)
    return `p.latitude BETWEEN $${params.push(bounds.south)} AND $${params.push(bounds.north)}`;
  const latitude = `p.latitude BETWEEN $${params.push(bounds.south)} AND $${params.push(bounds.north)}`;
  const west = `$${params.push(bounds.west)}`;
  const east = `$${params.push(bounds.east)}`;
  return bounds.west <= bounds.east
    ? `${latitude} AND p.longitude BETWEEN ${west} AND ${east}`
    : `${latitude} AND (p.longitude >= ${west} OR p.longitude <= ${east})`;
}

/** Which of the four conditions boundsCondition writes. */
function boundsShape(bounds: Bounds | null): string {
  if (bounds === null) return 'all';
  if (bounds.west === null || bounds.east === null) return 'band';
  return bounds.west <= bounds.east ? 'box' : 'wrapped';
}

/** Throws the 400 of the first brand that names no brand picklist value. */
async function checkBrands(db: Queryable, brands: string[]): Promise<void> {
  if (!brands.length) return;
  const { rows } = await db.query<{ value: string }>(
    `SELECT value FROM picklist_value
     WHERE object_api_name = $1 AND record_type_id = $2 AND field_api_name = 'APT_Brand__c' AND value = ANY ($3::text[])`,
    [CONTACT_US_OBJECT, MASTER_RECORD_TYPE_ID, brands],
  );
  const known = new Set(rows.map((row) => row.value));
  const unknown = brands.filter((brand) => !known.has(brand));
  if (unknown.length) throw new ApexError(400, `Unknown brand: ${unknown.join(', ')}`);
}

/**
 * The contacts placed within radiusKm of the point (every placed contact when bounds is null), how many, and
 * the JSON of those from offset on, up to a chunk.
 */
async function placedWithin(
  db: Queryable,
  point: { latitude: number; longitude: number },
  brands: string[],
  radiusKm: number,
  bounds: Bounds | null,
  offset: number,
): Promise<{ placed: number; contacts: string; total: number }> {
  const params: unknown[] = [point.latitude, point.longitude, radiusKm, brands, offset];
  const where = boundsCondition(bounds, params);
  const { rows } = await db.query<{ placed: number; contacts: string; total: number }>(
    `WITH near AS MATERIALIZED (
       SELECT country, state, city_key, km FROM (
         SELECT p.country, p.state, p.city_key, round((${DISTANCE})::numeric, 3) AS km FROM place p WHERE ${where}) AS p
       WHERE km <= $3
     ), found AS MATERIALIZED (
       SELECT r.id, near.km, near.city_key FROM near
       JOIN record r ON r.object_api_name = '${CONTACT_US_OBJECT}' AND r.contact_us_country = near.country
         AND r.contact_us_state = near.state AND r.contact_us_city = near.city_key
       WHERE cardinality($4::text[]) = 0 OR r.contact_us_brands && $4::text[]
     )
     SELECT
       (SELECT count(*) FROM found)::int AS placed,
       (SELECT count(*)::int FROM (SELECT 1 FROM record r WHERE r.object_api_name = '${CONTACT_US_OBJECT}'
          AND (cardinality($4::text[]) = 0 OR r.contact_us_brands && $4::text[]) LIMIT ${NEAREST_MAX}) AS matching) AS total,
       (SELECT coalesce(string_agg(row_to_json(card)::text, ',' ORDER BY card."distanceKm", card."Id"), '')
        FROM (SELECT r.id AS "Id", ${CARD_COLUMNS}, chunk.km AS "distanceKm",
                CASE WHEN chunk.city_key = '' THEN 'state' ELSE 'city' END AS "placedBy"
              FROM (SELECT id, km, city_key FROM found ORDER BY km, id OFFSET $5 LIMIT ${CONTACTS_CHUNK_SIZE}) AS chunk
              JOIN record r ON r.id = chunk.id) AS card) AS contacts`,
    params,
    // Planning this statement costs several times running it (5 ms against 1.5 ms from Chicago at a million
    // contacts): one prepared statement per shape of the bounds.
    { prepareAs: `nearest_${boundsShape(bounds)}` },
  );
  return rows[0];
}

/** Up to count contacts that no place matches, by Id, after skipping skip of them. */
async function unplaced(db: Queryable, brands: string[], skip: number, count: number): Promise<string> {
  const { rows } = await db.query<{ contacts: string }>(
    `SELECT coalesce(string_agg(row_to_json(card)::text, ',' ORDER BY card."Id"), '') AS contacts
     FROM (SELECT r.id AS "Id", ${CARD_COLUMNS}, NULL::numeric AS "distanceKm", NULL::text AS "placedBy"
           FROM record r
           WHERE r.object_api_name = '${CONTACT_US_OBJECT}'
             AND (cardinality($1::text[]) = 0 OR r.contact_us_brands && $1::text[])
             AND NOT EXISTS (SELECT 1 FROM place p WHERE p.country = r.contact_us_country
                               AND p.state = r.contact_us_state AND p.city_key = r.contact_us_city)
           ORDER BY r.id OFFSET $2 LIMIT $3) AS card`,
    [brands, skip, count],
  );
  return rows[0].contacts;
}

/**
 * The chunk of the contacts nearest to the point after offset, as the JSON text of the answer, with the number
 * of all contacts matching the brands. The distance searched starts at 20 km and grows fourfold until it holds
 * offset + a chunk of contacts, or reaches every place; then the contacts that no place matches follow.
 */
export async function getNearestContacts(
  db: Queryable,
  args: NearestQuery,
): Promise<JsonText<Schemas['NearestContactsResult']>> {
  const brands = args.brands ?? [];
  const offset = args.offset ?? 0;
  await checkBrands(db, brands);
  const wanted = Math.min(NEAREST_MAX, offset + CONTACTS_CHUNK_SIZE);
  let radius = FIRST_RADIUS_KM;
  for (;;) {
    const bounds = boundsAround(args.latitude, args.longitude, radius);
    const found = await placedWithin(db, args, brands, radius, bounds, offset);
    if (found.placed >= wanted || bounds === null) {
      let contacts = found.contacts;
      if (found.placed < wanted) {
        const skip = Math.max(0, offset - found.placed);
        const tail = await unplaced(db, brands, skip, wanted - Math.max(offset, found.placed));
        contacts = [contacts, tail].filter(Boolean).join(',');
      }
      return new JsonText(`{"contacts":[${contacts}],"totalRecords":${found.total}}`);
    }
    radius *= RADIUS_GROWTH;
  }
}
