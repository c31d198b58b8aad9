/**
 * What the search operations share: the search configurations and per-object set-up of
 * metadata/search.json, the checks of their input (the term, object and field names, filters), filters as
 * the query core's `where`, and the highlighting of matches. Unknown objects and fields, and those the caller
 * may not read, fail alike with 400, so that nothing is learnt of what the caller may not see. Pure
 * functions, but for searchObject, which reads the org's metadata.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject } from '../core/describe.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { PlatformError } from '../core/errors.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { cut, excerpt, illegalValue } from '../query/errors.ts';
import { followRelationship, readableField, rootScope, valueKindOf } from '../query/fields.ts';
import { nameFieldOf } from '../query/full-text.ts';
import { MAX_SEARCH_TERM_LENGTH } from '../query/search-term.ts';
import { SqlParameters } from '../query/sql.ts';
import { queryTarget, type QueryTarget } from '../query/target.ts';
import type { WhereObject, WhereValue } from '../query/where-parser.ts';
import { invalidField } from '../records/field-paths.ts';

export interface SearchFilterSetup {
  field: string;
  type: 'Text' | 'Select';
  hasInitialOptions: boolean;
}

interface ObjectSearchSetup {
  /** The fields of a search result, the name first. */
  resultFields: string[];
  /** The fields of a lookup suggestion, the name first. */
  lookupFields: string[];
  filters: SearchFilterSetup[];
}

interface SearchFile {
  configurations: Record<string, string[]>;
  objects: Record<string, ObjectSearchSetup>;
}

const SEARCH_FILE = resolve(import.meta.dirname, '../metadata/search.json');
let searchFile: SearchFile | undefined;
const setup = (): SearchFile => (searchFile ??= JSON.parse(readFileSync(SEARCH_FILE, 'utf8')) as SearchFile);

const DEFAULT_CONFIGURATION = 'default';

/** The objects a search configuration searches, in its order; an unknown configuration fails with 400. */
export function configurationObjects(name: string | null | undefined): string[] {
  const objects = setup().configurations[name ?? DEFAULT_CONFIGURATION];
  if (!objects || name === DEFAULT_CONFIGURATION)
    throw illegalValue('configurationName', `${excerpt(name)} is not a search configuration`);
  return objects;
}

/** An object's search set-up; an object without one shows its name alone and has no filters. */
export function objectSetup(object: DescribedObject): ObjectSearchSetup {
  const own = setup().objects[object.apiName];
  if (own) return own;
  const name = object.fields.find((field) => field.nameField)?.apiName;
  return { resultFields: name ? [name] : [], lookupFields: name ? [name] : [], filters: [] };
}

const invalidType = (objectApiName: string) =>
  new PlatformError(400, 'INVALID_TYPE', `sObject type '${cut(objectApiName)}' is not supported.`);

/** The object named (any case), as the caller may search it; unknown or unreadable: 400 INVALID_TYPE. */
export async function searchTargetNamed(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
): Promise<QueryTarget> {
  const org = await describeOrg(db);
  const object = org.byLowerName.get(objectApiName.toLowerCase());
  if (!object || !objectPermissions(principal, object.apiName).read) throw invalidType(objectApiName);
  return queryTarget(org, object, principal);
}

/**
 * The search term of q: trimmed, at least `minLength` characters, at most 255, without NUL. An absent or
 * blank term fails when minLength > 0 and is null otherwise.
 */
export function checkedTerm(q: string | null | undefined, minLength: number, parameter = 'q'): string | null {
  const term = q?.trim() ?? '';
  if (term.length === 0 && minLength === 0) return null;
  if (term.length < minLength)
    throw illegalValue(parameter, `the search term must have at least ${minLength} characters`);
  if (term.length > MAX_SEARCH_TERM_LENGTH)
    throw illegalValue(parameter, `longer than ${MAX_SEARCH_TERM_LENGTH} characters`);
  if (term.includes('\u0000')) throw illegalValue(parameter, 'holds a NUL character');
  return term;
}

/** The readable fields of a list of names (unknown and unreadable ones left out), qualified. */
export function readableFieldNames(target: QueryTarget, names: string[]): string[] {
  const root = rootScope(target.object, 'r');
  return names.map((name) => readableField(target, root, name)).flatMap((field) => (field ? [field.apiName] : []));
}

const LIST_OPERATORS = new Set(['in', 'nin', 'includes', 'excludes']);

/** A filter value as the where filter takes it for the field's kind. */
function typedValue(field: FieldDefinition, path: string, value: string | null): WhereValue {
  if (value === null) return null;
  switch (valueKindOf(field)) {
    case 'number': {
      const number = value.trim() === '' ? NaN : Number(value);
      if (!Number.isFinite(number)) throw illegalValue('filters', `${excerpt(value)} is not a number for ${cut(path)}`);
      return number;
    }
    case 'boolean':
      if (value !== 'true' && value !== 'false')
        throw illegalValue('filters', `${excerpt(value)} is not true or false for ${cut(path)}`);
      return value === 'true';
    default:
      return value;
  }
}

/**
 * Search filters as a `where` filter: each filter's field (`Object.Field`, or through relationships), compared
 * with any of its values; all filters must hold. The field must be one the caller may read; the operator
 * and values are then checked by the where compiler, as for lists.
 */
/** A filter whose values may be null (a lookup filter's value taken from an empty field of the source record). */
export type FilterInput = Omit<Schemas['SearchFilterInputRepresentation'], 'values'> & { values: (string | null)[] };

export function filtersWhere(target: QueryTarget, filters: FilterInput[]): WhereObject | null {
  if (filters.length === 0) return null;
  const checking = new SqlParameters();
  const clauses: WhereObject[] = filters.map((filter) => {
    const names = filter.fieldPath.split('.');
    if (names[0].toLowerCase() !== target.object.apiName.toLowerCase() || names.length < 2)
      throw invalidField(target.object.apiName, cut(filter.fieldPath));
    let scope = rootScope(target.object, 'r');
    for (const name of names.slice(1, -1)) {
      const next = followRelationship(target, scope, name, checking);
      if (!next) throw invalidField(target.object.apiName, cut(filter.fieldPath));
      scope = next;
    }
    const field = readableField(target, scope, names[names.length - 1]);
    if (!field) throw invalidField(target.object.apiName, cut(filter.fieldPath));
    const operator = filter.operator;
    if (!/^[a-z]{2,10}$/.test(operator)) throw illegalValue('filters', `${excerpt(operator)} is not an operator`);
    const values = filter.values.map((value) => typedValue(field, filter.fieldPath, value));
    let condition: WhereObject;
    if (LIST_OPERATORS.has(operator)) condition = { [field.apiName]: { [operator]: values } };
    else if (values.length === 1) condition = { [field.apiName]: { [operator]: values[0] } };
    else condition = { or: values.map((value) => ({ [field.apiName]: { [operator]: value } })) };
    // Through relationships, innermost last: { Account: { Owner: { Name: ... } } }.
    for (const name of [...scope.path].reverse()) condition = { [name]: condition };
    return condition;
  });
  return clauses.length === 1 ? clauses[0] : { and: clauses };
}

/** Data-category filters: none of the org's objects is filed under data categories. */
export function checkDataCategories(target: QueryTarget, dataCategories: unknown[] | undefined): void {
  if (dataCategories && dataCategories.length > 0) {
    throw illegalValue('dataCategories', `${target.object.apiName} has no data category groups`);
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The words of a term, as prefixes to mark (letters and digits, lower case). */
function termWords(term: string): string[] {
  return [...new Set(term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/**
 * The fields whose values hold a word beginning with one of the term's words, with those words wrapped in
 * `<mark>`; the rest of the text is HTML-escaped. Only the fields given (those the caller may read) are looked at.
 */
export function highlightInfo(
  values: Record<string, unknown>,
  fieldNames: string[],
  term: string,
): Schemas['SearchHighlightInfoRepresentation'] | null {
  const words = termWords(term).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return null;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])((?:${words.join('|')})[\\p{L}\\p{N}]*)`, 'giu');
  const fields: Record<string, string> = {};
  for (const name of fieldNames) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    let marked = '';
    let last = 0;
    for (const match of value.matchAll(pattern)) {
      marked += `${escapeHtml(value.slice(last, match.index))}<mark>${escapeHtml(match[1])}</mark>`;
      last = match.index + match[1].length;
    }
    if (last > 0) fields[name] = marked + escapeHtml(value.slice(last));
  }
  return Object.keys(fields).length > 0 ? { fields, snippet: null } : null;
}

export { nameFieldOf };
