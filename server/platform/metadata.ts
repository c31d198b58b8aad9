/**
 * Org metadata as data: the object definitions in metadata/objects/*.json are loaded into the database at
 * start, when they (or the country data they draw on) have changed. Adding an object means adding a file.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Database } from '../db/connection.ts';
import type { Schemas } from '../../generated/types.ts';
import type { ObjectDefinition, PicklistSource, RecordTypeDefinition } from './core/definitions.ts';
import { MASTER_RECORD_TYPE_ID } from './core/ids.ts';
import { loadLayouts } from './layouts/layouts.ts';
import { loadListViews } from './lists/load.ts';
import { syncDerivedIndexes } from './derived-indexes.ts';
import { describeOrg } from './core/describe.ts';

const OBJECTS_DIR = resolve(import.meta.dirname, 'metadata/objects');
const requireHere = createRequire(import.meta.url);
const countryDataVersion: string = requireHere('country-state-city/package.json').version;
/** The country data package (a few hundred milliseconds to load): loaded when first needed, not at every start. */
const countryData = (): typeof import('country-state-city') => requireHere('country-state-city');

export function readObjectDefinitions(): ObjectDefinition[] {
  return readdirSync(OBJECTS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(resolve(OBJECTS_DIR, name), 'utf8')) as ObjectDefinition);
}

interface PicklistEntry {
  value: string;
  label: string;
  validFor: string[];
  isDefault?: boolean;
  attributes?: Schemas['PicklistValueRepresentation']['attributes'];
}

/** Countries and their states or provinces, from the country-state-city data package. */
export function countriesWithStates(): {
  name: string;
  isoCode: string;
  phonecode: string;
  states: { name: string; isoCode: string }[];
}[] {
  const { Country, State } = countryData();
  return Country.getAllCountries()
    .map((country) => {
      const seen = new Set<string>();
      const states = State.getStatesOfCountry(country.isoCode)
        .filter((state) => !seen.has(state.name) && seen.add(state.name))
        .map((state) => ({ name: state.name, isoCode: state.isoCode }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en'));
      return { name: country.name, isoCode: country.isoCode, phonecode: country.phonecode, states };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** The values of a picklist field; a dependent value lists the controlling values it is valid for. */
export function picklistEntries(source: PicklistSource): PicklistEntry[] {
  if ('values' in source)
    return source.values.map((entry) => {
      if (typeof entry === 'string') return { value: entry, label: entry, validFor: [] };
      const value: PicklistEntry = {
        value: entry.value,
        label: entry.label ?? entry.value,
        validFor: entry.validFor ?? [],
      };
      if (entry.default) value.isDefault = true;
      if (entry.attributes) value.attributes = entry.attributes;
      return value;
    });
  const countries = countriesWithStates();
  if (source.source === 'countries')
    return countries.map((country) => ({ value: country.name, label: country.name, validFor: [] }));
  const byName = new Map<string, PicklistEntry>();
  for (const country of countries) {
    for (const state of country.states) {
      const entry = byName.get(state.name) ?? { value: state.name, label: state.name, validFor: [] };
      entry.validFor.push(country.name);
      byName.set(state.name, entry);
    }
  }
  return [...byName.values()].sort((a, b) => a.value.localeCompare(b.value, 'en'));
}

function definitionHash(definition: ObjectDefinition): string {
  return createHash('sha256').update(JSON.stringify(definition)).update(countryDataVersion).digest('hex');
}

/** Loads every object definition whose content changed since the last load. Returns the names loaded. */
export async function loadOrgMetadata(db: Database): Promise<string[]> {
  const loaded: string[] = [];
  for (const definition of readObjectDefinitions()) {
    const hash = definitionHash(definition);
    const { rows } = await db.query<{ hash: string }>(
      `SELECT definition ->> 'hash' AS hash FROM sobject WHERE api_name = $1`,
      [definition.apiName],
    );
    if (rows[0]?.hash === hash) continue;
    await db.transaction(async (tx) => {
      const { fields, recordTypes, ...object } = definition;
      await tx.query(
        `INSERT INTO sobject (api_name, key_prefix, definition, updated_at) VALUES ($1, $2, $3::jsonb, now())
         ON CONFLICT (api_name) DO UPDATE SET key_prefix = EXCLUDED.key_prefix, definition = EXCLUDED.definition, updated_at = now()`,
        [definition.apiName, definition.keyPrefix, JSON.stringify({ ...object, hash })],
      );
      await tx.query('DELETE FROM sobject_field WHERE object_api_name = $1', [definition.apiName]);
      await tx.query('DELETE FROM record_type WHERE object_api_name = $1', [definition.apiName]);
      await tx.query(
        `INSERT INTO sobject_field (object_api_name, api_name, position, definition)
         SELECT $1, f ->> 'apiName', (ordinality - 1)::int, f FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(f, ordinality)`,
        [definition.apiName, JSON.stringify(fields)],
      );
      const types = recordTypesWithMaster(recordTypes);
      for (const type of types) {
        await tx.query(
          `INSERT INTO record_type (object_api_name, id, name, developer_name, is_master, is_default, available) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            definition.apiName,
            type.id,
            type.name,
            type.developerName,
            type.isMaster,
            type.isDefault ?? false,
            type.available ?? true,
          ],
        );
      }
      for (const field of fields) {
        if (!field.picklist) continue;
        const entries = picklistEntries(field.picklist);
        for (const type of types) {
          await tx.query(
            `INSERT INTO picklist_value (object_api_name, field_api_name, record_type_id, position, value, label, valid_for, is_default, attributes)
             SELECT $1, $2, $3, (ordinality - 1)::int, e ->> 'value', e ->> 'label',
                    ARRAY(SELECT jsonb_array_elements_text(e -> 'validFor')), coalesce((e ->> 'isDefault')::boolean, false), e -> 'attributes'
             FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t(e, ordinality)`,
            [
              definition.apiName,
              field.apiName,
              type.id,
              JSON.stringify(entriesForRecordType(entries, field.apiName, type)),
            ],
          );
        }
      }
    });
    loaded.push(definition.apiName);
  }
  // Layouts and list views name fields and record types, so they load after the objects.
  for (const name of await loadLayouts(db)) loaded.push(`${name} layouts`);
  for (const name of await loadListViews(db)) loaded.push(`${name} list views`);
  const indexed = await syncDerivedIndexes(db, await describeOrg(db));
  if (indexed.length > 0) loaded.push(`${indexed.length} list view indexes`);
  return loaded;
}

type LoadedRecordType = RecordTypeDefinition & { isMaster: boolean };

/**
 * The record types to store: the master record type alone for an object without record types; otherwise
 * the object's own, plus the master record type, which every record type's values are a subset of.
 */
export function recordTypesWithMaster(recordTypes: RecordTypeDefinition[]): LoadedRecordType[] {
  const master = { id: MASTER_RECORD_TYPE_ID, name: 'Master', developerName: 'Master', isMaster: true };
  if (recordTypes.length === 0) return [{ ...master, isDefault: true, available: true }];
  return [
    { ...master, isDefault: false, available: false },
    ...recordTypes.map((type) => ({ ...type, isMaster: false })),
  ];
}

/** A picklist's values for one record type: its subset in the field's order, with its own default if it names one. */
export function entriesForRecordType(
  entries: PicklistEntry[],
  fieldApiName: string,
  type: RecordTypeDefinition,
): PicklistEntry[] {
  const subset = type.picklistValues?.[fieldApiName];
  const chosen = subset ? entries.filter((entry) => subset.includes(entry.value)) : entries;
  if (!type.picklistDefaults || !(fieldApiName in type.picklistDefaults)) return chosen;
  const defaultValue = type.picklistDefaults[fieldApiName];
  return chosen.map(({ isDefault: _, ...entry }) =>
    entry.value === defaultValue ? { ...entry, isDefault: true } : entry,
  );
}
