/**
 * The contacts nearest to a point (getNearestContacts). A representative is placed by its country, state and
 * city as written: the city among the places of its state (migration 026, server/storefront/places.ts), or the
 * state's own place when its city is blank. Nothing on the write path. The search takes two steps over the
 * places' positions on the unit sphere (migration 029, a GiST index of the cube extension): the places nearest
 * first, each with its representatives (through contact_us_place_idx), until the contacts asked for are found,
 * which gives the distance they reach; then every representative within that distance (the places inside a box
 * around the point), ordered by the great-circle distance (to the metre), then Id. Representatives no place
 * matches come last, by Id.
 */
import type { Schemas } from '../../generated/types.ts';
import type { Queryable } from '../db/connection.ts';
import { MASTER_RECORD_TYPE_ID } from '../platform/core/ids.ts';
import { ApexError } from './apex-error.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';
import { JsonText } from '../../common/json-text.ts';
import { chordLength, EARTH_RADIUS_KM, FARTHEST_KM } from '../../common/distance.ts';
import { CARD_FIELDS, CONTACTS_CHUNK_SIZE } from './locator.ts';

/**
 * The nearest search answers at most this many contacts (30 pages of 12): nearest first, farther pages are of
 * no use, and the count of all contacts of a brand (16 to 50 ms at a million, from contact_us_locator_count)
 * would cost more than the search. totalRecords counts up to it.
 */
const NEAREST_MAX = 360;

type NearestQuery = Schemas['NearestContactsQuery'];

/** The card's columns of record r. */
const CARD_COLUMNS = CARD_FIELDS.map((name) => `r.fields ->> '${name}' AS "${name}"`).join(', ');

/** The great-circle distance, in km to the metre, from the point ($1, $2) to the place p's coordinates. */
const DISTANCE = `round((2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
    power(sin(radians(p.latitude - $1) / 2), 2) +
    cos(radians($1)) * cos(radians(p.latitude)) * power(sin(radians(p.longitude - $2) / 2), 2)))))::numeric, 3)`;

/** The point ($1, $2) on the unit sphere, as place.position holds each place's (migration 029). */
const POINT = `public.cube(ARRAY[cos(radians($1)) * cos(radians($2)), cos(radians($1)) * sin(radians($2)), sin(radians($1))])`;

/** The representatives of the place p that have one of the brands $3 (any, when $3 is empty). */
const OF_PLACE = `r.object_api_name = '${CONTACT_US_OBJECT}' AND r.contact_us_country = p.country
  AND r.contact_us_state = p.state AND r.contact_us_city = p.city_key
  AND (cardinality($3::text[]) = 0 OR r.contact_us_brands && $3::text[])`;

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

/** The contacts of the brands $1 (any, when empty), counted up to NEAREST_MAX: the answer's totalRecords. */
async function matchingTotal(db: Queryable, brands: string[]): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM (SELECT 1 FROM record r WHERE r.object_api_name = '${CONTACT_US_OBJECT}'
       AND (cardinality($1::text[]) = 0 OR r.contact_us_brands && $1::text[]) LIMIT ${NEAREST_MAX}) AS matching`,
    [brands],
    { prepareAs: 'nearest_total' },
  );
  return rows[0].total;
}

/**
 * The statement of reachOf ($1, $2 the point, $3 the brands, $4 how many): the places nearest first, from their
 * index of positions (migration 029), each with up to $4 of its representatives; the distance of the $4-th.
 */
export const REACH = `SELECT ${DISTANCE} AS km
     FROM place p CROSS JOIN LATERAL (SELECT 1 FROM record r WHERE ${OF_PLACE} LIMIT $4) AS c
     ORDER BY p.position OPERATOR(public.<->) ${POINT}
     OFFSET $4 - 1 LIMIT 1`;

/**
 * The distance, in km to the metre, of the wanted-th placed contact from the point: the places nearest first
 * (the index's order), each with up to wanted of its representatives, until wanted are found. Null when fewer
 * are placed.
 */
async function reachOf(
  db: Queryable,
  point: { latitude: number; longitude: number },
  brands: string[],
  wanted: number,
): Promise<number | null> {
  const { rows } = await db.query<{ km: string }>(REACH, [point.latitude, point.longitude, brands, wanted], {
    prepareAs: 'nearest_reach',
  });
  return rows.length ? Number(rows[0].km) : null;
}

/**
 * The contacts placed within radiusKm of the point (every placed contact when radiusKm is null), how many, and
 * the JSON of those from offset on, up to a chunk.
 */
async function placedWithin(
  db: Queryable,
  point: { latitude: number; longitude: number },
  brands: string[],
  radiusKm: number | null,
  offset: number,
): Promise<{ placed: number; contacts: string }> {
  const everywhere = radiusKm === null || radiusKm >= FARTHEST_KM;
  const params: unknown[] = [point.latitude, point.longitude, brands, offset];
  // The places in the box around the point that holds every place within the distance (a metre more for its
  // rounding), then those within it.
  const where = everywhere
    ? 'true'
    : `p.position OPERATOR(public.<@) public.cube_enlarge(${POINT}, $${params.push(chordLength(radiusKm + 0.001))}, 3)
       AND ${DISTANCE} <= $${params.push(radiusKm)}`;
  const { rows } = await db.query<{ placed: number; contacts: string }>(
    `WITH found AS MATERIALIZED (
       SELECT r.id, p.km, p.city_key
       FROM (SELECT p.country, p.state, p.city_key, ${DISTANCE} AS km FROM place p WHERE ${where}) AS p
       JOIN record r ON ${OF_PLACE}
     )
     SELECT
       (SELECT count(*) FROM found)::int AS placed,
       (SELECT coalesce(string_agg(row_to_json(card)::text, ',' ORDER BY card."distanceKm", card."Id"), '')
        FROM (SELECT r.id AS "Id", ${CARD_COLUMNS}, chunk.km AS "distanceKm",
                CASE WHEN chunk.city_key = '' THEN 'state' ELSE 'city' END AS "placedBy"
              FROM (SELECT id, km, city_key FROM found ORDER BY km, id OFFSET $4 LIMIT ${CONTACTS_CHUNK_SIZE}) AS chunk
              JOIN record r ON r.id = chunk.id) AS card) AS contacts`,
    params,
    // Planning this statement costs several times running it: one prepared statement for each of its two forms.
    { prepareAs: everywhere ? 'nearest_everywhere' : 'nearest_within' },
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
 * of all contacts matching the brands. The contacts within the distance that holds offset + a chunk of them (every
 * placed one when fewer match), nearest first; then, when those are fewer, the contacts that no place matches.
 */
export async function getNearestContacts(
  db: Queryable,
  args: NearestQuery,
): Promise<JsonText<Schemas['NearestContactsResult']>> {
  const brands = args.brands ?? [];
  const offset = args.offset ?? 0;
  await checkBrands(db, brands);
  const total = await matchingTotal(db, brands);
  const wanted = Math.min(NEAREST_MAX, offset + CONTACTS_CHUNK_SIZE);
  // Fewer contacts than wanted match at all: every placed one is in the answer, whatever its distance.
  const reach = total < wanted ? null : await reachOf(db, args, brands, wanted);
  const found = await placedWithin(db, args, brands, reach, offset);
  let contacts = found.contacts;
  if (found.placed < wanted) {
    const skip = Math.max(0, offset - found.placed);
    const tail = await unplaced(db, brands, skip, wanted - Math.max(offset, found.placed));
    contacts = [contacts, tail].filter(Boolean).join(',');
  }
  return new JsonText(`{"contacts":[${contacts}],"totalRecords":${total}}`);
}
