/**
 * The places of the nearest search: the cities and states of the country data package (country-state-city)
 * with their coordinates, in the place table (migration 026), loaded at start when the package's version is not
 * the one loaded; and the place box's type-ahead over them (getPlaceSuggestions).
 */
import { createRequire } from 'node:module';
import type { Schemas } from '../../generated/types.ts';
import type { Database, Queryable } from '../db/connection.ts';
import { JsonText } from '../../common/json-text.ts';
import { MASTER_RECORD_TYPE_ID } from '../platform/core/ids.ts';
import { ApexError } from './apex-error.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';

const requireHere = createRequire(import.meta.url);
const countryDataVersion = (): string => requireHere('country-state-city/package.json').version;
/** The country data package (a few hundred milliseconds to load): loaded only when the places are (re)loaded. */
const countryData = (): typeof import('country-state-city') => requireHere('country-state-city');

/** At most this many cities are suggested (PlaceSuggestionList.maxItems). */
const SUGGESTIONS = 10;
/** Rows per INSERT while loading. */
const LOAD_BATCH = 20_000;

/** A place row: [country, country code, state, city ('' for the state's own), latitude, longitude]. */
type PlaceRow = [string, string, string, string, number, number];

/** How a city or a state's name is matched: trimmed, lower-cased (as migration 026's contact_us_city is). */
const placeKey = (name: string) => name.trim().toLowerCase();

/**
 * Every place of the country data: each state with coordinates, and each city of a state, once per country,
 * state and name (the first of the package's duplicates). A state is named as the state picklist names it (the
 * first of its country's states by that name, metadata.ts).
 */
function placeRows(): PlaceRow[] {
  const { Country, State, City } = countryData();
  const countries = new Map(Country.getAllCountries().map((country) => [country.isoCode, country.name]));
  const states = new Map<string, string>();
  const rows: PlaceRow[] = [];
  const seen = new Set<string>();
  const add = (row: PlaceRow) => {
    const key = `${row[0]}\u0000${row[2]}\u0000${placeKey(row[3])}`;
    if (seen.has(key) || !Number.isFinite(row[4]) || !Number.isFinite(row[5])) return;
    seen.add(key);
    rows.push(row);
  };
  for (const state of State.getAllStates()) {
    const country = countries.get(state.countryCode);
    if (!country) continue;
    states.set(`${state.countryCode}/${state.isoCode}`, state.name);
    if (state.latitude && state.longitude)
      add([country, state.countryCode, state.name, '', Number(state.latitude), Number(state.longitude)]);
  }
  for (const city of City.getAllCities()) {
    const country = countries.get(city.countryCode);
    const state = states.get(`${city.countryCode}/${city.stateCode}`);
    if (!country || !state || !city.latitude || !city.longitude) continue;
    add([country, city.countryCode, state, city.name, Number(city.latitude), Number(city.longitude)]);
  }
  return rows;
}

/**
 * Fills the place table from the country data when it holds another version's places (or none): at the first
 * start, and after an upgrade of the package. Returns whether it loaded.
 */
export async function loadPlaces(db: Database): Promise<boolean> {
  const version = countryDataVersion();
  const { rows } = await db.query<{ version: string }>('SELECT version FROM place_source');
  if (rows[0]?.version === version) return false;
  const places = placeRows();
  await db.transaction(async (tx) => {
    // Two servers starting on one database load once: the second waits, then finds the version loaded.
    await tx.query('LOCK TABLE place_source IN EXCLUSIVE MODE');
    const { rows: again } = await tx.query<{ version: string }>('SELECT version FROM place_source');
    if (again[0]?.version === version) return;
    await tx.query('DELETE FROM place');
    for (let start = 0; start < places.length; start += LOAD_BATCH) {
      const batch = places.slice(start, start + LOAD_BATCH);
      await tx.query(
        `INSERT INTO place (country, country_code, state, city, city_key, latitude, longitude)
         SELECT country, country_code, state, city, lower(btrim(city)), latitude, longitude
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[])
           AS p (country, country_code, state, city, latitude, longitude)`,
        [0, 1, 2, 3, 4, 5].map((column) => batch.map((row) => row[column])),
      );
    }
    await tx.query('DELETE FROM place_source');
    await tx.query('INSERT INTO place_source (version) VALUES ($1)', [version]);
  });
  // Statistics, and the visibility map that lets the searches read the place indexes alone.
  await db.exec('VACUUM (ANALYZE) place');
  return true;
}

/** The LIKE pattern of a prefix: its own %, _ and \ taken literally. */
const likePrefix = (prefix: string) => `${placeKey(prefix).replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Up to 10 cities whose name starts with the prefix (ignoring case), in the country or in any, by name, then
 * country and state, as the JSON text of the answer.
 */
export async function getPlaceSuggestions(
  db: Queryable,
  args: Schemas['PlaceSuggestionsQuery'],
): Promise<JsonText<Schemas['PlaceSuggestionList']>> {
  const country = args.country ?? null;
  const { rows } = await db.query<{ list: string; known: boolean }>(
    `SELECT $2::text IS NULL OR EXISTS (SELECT 1 FROM picklist_value WHERE object_api_name = $3
       AND record_type_id = $4 AND field_api_name = 'APT_Country__c' AND value = $2) AS known,
     coalesce(json_agg(json_build_object('city', city, 'state', state, 'country', country,
              'latitude', latitude, 'longitude', longitude) ORDER BY city_key, country, state), '[]')::text AS list
     FROM (SELECT city, city_key, state, country, latitude, longitude FROM place
           WHERE city_key <> '' AND city_key LIKE $1 AND ($2::text IS NULL OR country = $2)
           ORDER BY city_key, country, state LIMIT ${SUGGESTIONS}) AS found`,
    [likePrefix(args.prefix), country, CONTACT_US_OBJECT, MASTER_RECORD_TYPE_ID],
  );
  if (!rows[0].known) throw new ApexError(400, `Unknown country: ${country}`);
  return new JsonText(rows[0].list);
}
