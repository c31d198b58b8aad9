/**
 * Lookups: the records a user can choose for a reference field while editing a record (getLookupRecords and
 * its GET form), and how the field finds them (getLookupMetadata). Per object the field can point at: the
 * caller's recently used records (Recent), those matching the term in any searchable field (Search, ranked,
 * full text) or those whose name starts with it (TypeAhead, in name order from the name index), narrowed by
 * the field's lookup filter, whose `$Source.Field` values come from the record being edited (the body's
 * sourceRecord, else dependentFieldBindings, else the saved record sourceRecordId names). Only records the
 * caller may see, and only fields it may read, are offered.
 */
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { invalidId, notFound } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import { mruSource } from '../query/mru-source.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { cut, excerpt, illegalValue } from '../query/errors.ts';
import { MAX_OFFSET, queryUrl, splitLookahead, type UrlParameter } from '../query/page-token.ts';
import { fullTextSource, namePrefixCondition } from '../query/full-text.ts';
import { buildListQuery, type JoinedSource } from '../query/select.ts';
import { queryTarget, type QueryTarget } from '../query/target.ts';
import { canSeeRecord } from '../records/access.ts';
import { fieldNamed, invalidField, parseFieldLists, selectFields } from '../records/field-paths.ts';
import { buildRecords, fetchRows } from '../records/rows.ts';
import type { RecordRow } from '../records/representation.ts';
import { lookupFilterOf, SOURCE_VALUE, type LookupFilterDefinition } from '../object-info/lookup-filter.ts';
import {
  checkedTerm,
  filtersWhere,
  nameFieldOf,
  objectSetup,
  readableFieldNames,
  searchTargetNamed,
  type FilterInput,
} from './common.ts';

const LOOKUP_PAGE_SIZE = 25;

type SearchType = 'Recent' | 'Search' | 'TypeAhead';

interface LookupRequest {
  page?: number;
  pageSize?: number;
  q?: string;
  searchType?: SearchType;
  dependentFieldBindings?: string;
  sourceRecordId?: string;
  targetApiName?: string;
  orderBy?: Schemas['ListOrderedByInfoInputRepresentation'][];
  sourceRecord?: { fields?: Record<string, unknown> };
}

interface LookupField {
  source: QueryTarget;
  field: FieldDefinition;
  /** The objects it can point at that the caller may read, in the field's order. */
  targets: QueryTarget[];
}

/** The reference field a lookup names, readable by the caller, and the objects it can point at. */
async function lookupField(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  fieldApiName: string,
): Promise<LookupField> {
  const source = await searchTargetNamed(db, principal, objectApiName);
  const field = fieldNamed(source.object, fieldApiName);
  if (!field || field.dataType !== 'Reference' || !source.access.canReadField(source.object, field))
    throw invalidField(source.object.apiName, cut(fieldApiName));
  const targets = (field.referenceTo ?? []).flatMap((name) => {
    const object = source.org.objects.get(name);
    return object && objectPermissions(principal, object.apiName).read
      ? [queryTarget(source.org, object, principal)]
      : [];
  });
  return { source, field, targets };
}

/** The field values of `field=value,field=value`. */
function parseBindings(text: string | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const pair of text ? text.split(',') : []) {
    const at = pair.indexOf('=');
    values[pair.slice(0, at).split('.').pop() as string] = pair.slice(at + 1);
  }
  return values;
}

/** The values of the record being edited that the lookup filter uses. */
async function sourceValues(
  db: Queryable,
  principal: Principal,
  lookup: LookupField,
  request: LookupRequest,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  if (request.sourceRecordId) {
    const id = toId18(request.sourceRecordId);
    if (!id) throw invalidId('sourceRecordId', request.sourceRecordId);
    const row = (await fetchRows(db, [id])).get(id);
    // A record the caller may not see answers exactly as one that does not exist.
    if (
      !row ||
      row.object_api_name !== lookup.source.object.apiName ||
      !canSeeRecord(principal, lookup.source.object, row)
    )
      throw notFound();
    Object.assign(values, row.fields);
  }
  Object.assign(values, parseBindings(request.dependentFieldBindings));
  for (const [name, value] of Object.entries(request.sourceRecord?.fields ?? {}))
    values[fieldNamed(lookup.source.object, name)?.apiName ?? name] = value;
  return values;
}

/** The lookup filter with the source record's values in place of `$Source.Field`. */
function boundFilters(filter: LookupFilterDefinition | null, values: Record<string, unknown>): FilterInput[] {
  return (filter?.filters ?? []).map((one) => ({
    ...one,
    values: one.values.map((value) => {
      const name = SOURCE_VALUE.exec(value)?.[1];
      if (!name) return value;
      const bound = values[name];
      return bound === undefined || bound === null || bound === '' ? null : String(bound);
    }),
  }));
}

/** One page of one target object's suggestions. */
async function targetPage(
  db: Queryable,
  principal: Principal,
  lookup: LookupField,
  target: QueryTarget,
  request: LookupRequest,
  filters: FilterInput[],
  now: Date,
): Promise<Schemas['RecordCollectionRepresentation']> {
  const { object } = target;
  const searchType = request.searchType ?? 'Recent';
  const pageSize = request.pageSize ?? LOOKUP_PAGE_SIZE;
  const page = request.page ?? 1;
  const offset = (page - 1) * pageSize;
  if (offset > MAX_OFFSET) throw illegalValue('page', `${page} starts past the ${MAX_OFFSET}th suggestion`);
  let source: JoinedSource | undefined;
  const conditions = [];
  let defaultSortBy: string | undefined;
  if (searchType === 'Recent') source = mruSource(principal.userId, object.apiName);
  else if (searchType === 'Search') source = fullTextSource(request.q as string, target);
  else {
    conditions.push(namePrefixCondition(request.q as string, target));
    const name = nameFieldOf(target);
    defaultSortBy = name?.apiName;
  }
  const sortBy = (request.orderBy ?? []).map((key) => `${key.isAscending === false ? '-' : ''}${key.fieldApiName}`);
  const query = buildListQuery({
    target,
    now,
    conditions,
    viewFilter: filtersWhere(target, filters),
    sortBy,
    defaultSortBy,
    source,
    pageSize,
    defaultPageSize: LOOKUP_PAGE_SIZE,
    pageToken: String(offset),
  });
  const { rows } = await db.query<RecordRow>(query.rows.text, query.rows.values);
  const found = splitLookahead(rows, pageSize);
  const visible = found.rows.filter((row) => canSeeRecord(principal, object, row));
  const shown = readableFieldNames(target, objectSetup(object).lookupFields);
  const paths = parseFieldLists(
    [],
    ['Id', ...shown].map((name) => `${object.apiName}.${name}`),
  );
  const records = await buildRecords(db, principal, visible, selectFields(target.org, principal, object, paths));
  const basePath = `${UI_API_PATH}/lookups/${lookup.source.object.apiName}/${lookup.field.apiName}/${object.apiName}`;
  const parameters: Record<string, UrlParameter> = {
    pageSize,
    q: searchType === 'Recent' ? undefined : request.q,
    searchType,
    dependentFieldBindings: request.dependentFieldBindings,
    sourceRecordId: request.sourceRecordId,
  };
  // Page URLs name pages (one-based), as the request does; tokens are record offsets, as elsewhere.
  const urlOf = (number: number) => queryUrl(basePath, { ...parameters, page: number });
  const hasNext = found.hasMore && offset + pageSize <= MAX_OFFSET;
  return {
    count: records.length,
    currentPageToken: String(offset),
    currentPageUrl: urlOf(page),
    nextPageToken: hasNext ? String(offset + pageSize) : null,
    nextPageUrl: hasNext ? urlOf(page + 1) : null,
    previousPageToken: page > 1 ? String(offset - pageSize) : null,
    previousPageUrl: page > 1 ? urlOf(page - 1) : null,
    records,
  };
}

/** getLookupRecords: the suggestions per object the field can point at (or the one targetApiName names). */
export async function lookupRecords(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  fieldApiName: string,
  request: LookupRequest,
  now: Date,
): Promise<Schemas['LookupValuesRepresentation']> {
  const lookup = await lookupField(db, principal, objectApiName, fieldApiName);
  const searchType = request.searchType ?? 'Recent';
  if (searchType === 'Search') request = { ...request, q: checkedTerm(request.q, 2) as string };
  else if (searchType === 'TypeAhead') request = { ...request, q: checkedTerm(request.q, 1) as string };
  let targets = lookup.targets;
  if (request.targetApiName) {
    const named = request.targetApiName.toLowerCase();
    targets = targets.filter((target) => target.object.apiName.toLowerCase() === named);
    if (targets.length === 0)
      throw illegalValue(
        'targetApiName',
        `${excerpt(request.targetApiName)} is not an object ${lookup.field.apiName} can point at`,
      );
  }
  const filters = boundFilters(lookupFilterOf(lookup.field), await sourceValues(db, principal, lookup, request));
  const lookupResults: Record<string, Schemas['RecordCollectionRepresentation']> = {};
  for (const target of targets)
    lookupResults[target.object.apiName] = await targetPage(db, principal, lookup, target, request, filters, now);
  return { lookupResults };
}

/** getLookupMetadata: per object the field can point at, the fields shown, the lookup filter and the order. */
export async function lookupMetadata(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  fieldApiName: string,
): Promise<Schemas['LookupMetadataRepresentation']> {
  const lookup = await lookupField(db, principal, objectApiName, fieldApiName);
  const filters = lookupFilterOf(lookup.field)?.filters ?? [];
  const targetInfo: Schemas['LookupMetadataRepresentation']['targetInfo'] = {};
  for (const target of lookup.targets) {
    const setup = objectSetup(target.object);
    const qualify = (names: string[]) =>
      readableFieldNames(target, names).map((name) => `${target.object.apiName}.${name}`);
    const name = nameFieldOf(target);
    const sortable = name && target.access.canReadField(target.object, name);
    targetInfo[target.object.apiName] = {
      fullSearchInfo: {
        displayFields: qualify(setup.resultFields),
        filters,
        sortBy: sortable ? `${target.object.apiName}.${name.apiName}` : null,
      },
      suggestionsInfo: { displayFields: qualify(setup.lookupFields), filters, sortBy: null },
    };
  }
  return { fieldApiName: lookup.field.apiName, objectApiName: lookup.source.object.apiName, targetInfo };
}
