/**
 * Reading records: one, or a batch, with the fields asked for (related records nested), the fields of
 * layouts, and pages of child records. A record the caller may not see answers exactly like one that does
 * not exist.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../describe.ts';
import { notFound, PlatformError } from '../errors.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../ids.ts';
import { layoutFieldPaths } from '../layouts.ts';
import { noteRecordUsed } from '../lists/mru.ts';
import { objectPermissions, type Principal } from '../principal.ts';
import { canSeeRecord, seesOwnRecordsOnly } from './access.ts';
import {
  addPath,
  emptySelection,
  fieldNamed,
  invalidField,
  parseFieldLists,
  parseFieldPath,
  selectFields,
  selectionPaths,
  type FieldPath,
  type ObjectSelection,
} from './field-paths.ts';
import { picklistLabels } from './picklist-labels.ts';
import {
  buildRecord,
  RECORD_COLUMNS,
  recordPage,
  type BuildContext,
  type PicklistLabels,
  type RecordCollectionRepresentation,
  type RecordRepresentation,
  type RecordRow,
} from './representation.ts';
import { UI_API_PATH } from '../../../common/platform.ts';

export const DEFAULT_CHILD_PAGE_SIZE = 5;

export type LayoutTypeName = 'Full' | 'Compact';
export type ModeName = 'View' | 'Edit' | 'Create';

export interface ReadOptions {
  /** Field paths the answer must hold (`Object.Field`, `Object.Relationship.Field`). */
  fields?: string[];
  /** Field paths held when they exist and the caller may see them. */
  optionalFields?: string[];
  /** Layouts whose fields are added (as optional fields), in each of the modes (default View). */
  layoutTypes?: LayoutTypeName[];
  modes?: ModeName[];
  /** `Object.Relationship` or `Object.Relationship.Field`: one page of child records each. */
  childRelationships?: string[];
  pageSize?: number;
  /** getRecord: the record moves to the top of the caller's most-recently-used list of its object. */
  updateMru?: boolean;
  /** Filled with the id of every record the answer is read from, asked for or related, found or not (child pages aside). */
  reads?: Set<string>;
}

export interface ErrorItem {
  errorCode: string;
  message: string;
}

export type RecordResult = { statusCode: 200; result: RecordRepresentation } | { statusCode: number; result: ErrorItem[] };

export async function fetchRows(q: Queryable, ids: string[]): Promise<Map<string, RecordRow>> {
  const rows = new Map<string, RecordRow>();
  if (ids.length === 0) return rows;
  // Prepared once per connection: its plan (by primary key) is the same for every list of ids.
  const result = await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[])`, [ids], { prepareAs: 'record_rows_by_ids' });
  for (const row of result.rows) rows.set(row.id, row);
  return rows;
}

/** Reads the related records a selection reaches, level by level, into `related` (and their ids into `reads`). */
async function loadRelated(
  q: Queryable,
  start: { row: RecordRow; selection: ObjectSelection }[],
  related: Map<string, RecordRow>,
  reads?: Set<string>,
): Promise<void> {
  let pending = start;
  while (pending.length > 0) {
    const wanted = new Set<string>();
    for (const { row, selection } of pending) {
      for (const relationship of selection.relationships.values()) {
        const id = relationshipId(row, relationship.field.apiName);
        if (id && !related.has(id)) wanted.add(id);
      }
    }
    for (const id of wanted) reads?.add(id);
    for (const [id, row] of await fetchRows(q, [...wanted])) related.set(id, row);
    const next: typeof pending = [];
    for (const { row, selection } of pending) {
      for (const relationship of selection.relationships.values()) {
        const id = relationshipId(row, relationship.field.apiName);
        const relatedRow = id ? related.get(id) : undefined;
        if (relatedRow && relationship.selection.relationships.size > 0) next.push({ row: relatedRow, selection: relationship.selection });
      }
    }
    pending = next;
  }
}

function relationshipId(row: RecordRow, fieldApiName: string): string | undefined {
  const value = fieldApiName === 'CreatedById' ? row.created_by_id : fieldApiName === 'LastModifiedById' ? row.last_modified_by_id : row.fields[fieldApiName];
  return typeof value === 'string' ? value : undefined;
}

const contextFor = (principal: Principal, related: Map<string, RecordRow>, picklistLabels: PicklistLabels): BuildContext => ({
  related,
  canSee: (row, object) => canSeeRecord(principal, object, row),
  picklistLabels,
});

/**
 * The representations of rows of one object with a selection's fields (related records nested, those the
 * caller may not see as null): the records of a page of a list.
 */
export async function buildRecords(db: Queryable, principal: Principal, rows: RecordRow[], selection: ObjectSelection): Promise<RecordRepresentation[]> {
  const related = new Map<string, RecordRow>();
  await loadRelated(
    db,
    rows.map((row) => ({ row, selection })),
    related,
  );
  const context = contextFor(principal, related, await picklistLabels(db));
  return rows.map((row) => buildRecord(row, selection, context));
}

/** The paths of the layouts asked for, for records of one object and record type. */
async function layoutPaths(db: Queryable, object: DescribedObject, recordTypeId: string | null, options: ReadOptions): Promise<FieldPath[]> {
  const paths: FieldPath[] = [];
  for (const layoutType of options.layoutTypes ?? []) {
    for (const mode of options.modes?.length ? options.modes : (['View'] as const)) {
      for (const text of await layoutFieldPaths(db, object.apiName, recordTypeId ?? MASTER_RECORD_TYPE_ID, layoutType, mode)) {
        const path = parseFieldPath(text);
        if (path) paths.push(path);
      }
    }
  }
  return paths;
}

/** The fields of a child record page when none are asked for: its name, dates and the reference to the parent. */
function defaultChildSelection(org: OrgDescribe, principal: Principal, childObject: DescribedObject, parentField: string): ObjectSelection {
  const selection = emptySelection(childObject);
  for (const name of ['Id', 'Name', 'CreatedDate', 'LastModifiedById', 'LastModifiedDate', 'SystemModstamp', parentField])
    addPath(org, principal, selection, [name]);
  return selection;
}

/** The child relationship of an object by name (any case), when the caller may read its child object. */
function childRelationshipOf(org: OrgDescribe, principal: Principal, object: DescribedObject, relationshipName: string) {
  const relationship = object.childRelationships.find((candidate) => candidate.relationshipName.toLowerCase() === relationshipName.toLowerCase());
  const childObject = relationship ? org.objects.get(relationship.childObjectApiName) : undefined;
  if (!relationship || !childObject || !objectPermissions(principal, childObject.apiName).read) {
    throw new PlatformError(400, 'INVALID_FIELD', `Didn't understand relationship '${relationshipName}' of entity '${object.apiName}'.`);
  }
  return { relationship, childObject };
}

/** Parses `Object.Relationship[.Field]` entries into the relationships of one object and their fields. */
function childRequests(org: OrgDescribe, principal: Principal, object: DescribedObject, entries: string[]) {
  const requests = new Map<string, ChildPageRequest>();
  for (const entry of entries) {
    const [objectName, relationshipName, fieldName] = entry.split('.');
    if (objectName.toLowerCase() !== object.apiName.toLowerCase()) continue;
    const { relationship, childObject } = childRelationshipOf(org, principal, object, relationshipName);
    let request = requests.get(relationship.relationshipName);
    if (!request) {
      const selection = defaultChildSelection(org, principal, childObject, relationship.fieldName);
      request = { childObject, fieldName: relationship.fieldName, relationshipName: relationship.relationshipName, selection };
      requests.set(relationship.relationshipName, request);
    }
    if (fieldName && !(fieldNamed(childObject, fieldName) && addPath(org, principal, request.selection, [fieldName]))) {
      throw invalidField(childObject.apiName, fieldName);
    }
  }
  return [...requests.values()];
}

/**
 * The URL of a page of child records. The platform reaches the other pages through its Get Child Records
 * resource (records/{recordId}/child-relationships/{relationshipName}), with the page's fields; query
 * parameters in alphabetical order, commas encoded.
 */
export function childPageUrl(parentId: string, relationshipName: string, fields: string[], pageSize: number): (offset: number) => string {
  const base = `${UI_API_PATH}/records/${parentId}/child-relationships/${encodeURIComponent(relationshipName)}`;
  return (offset) => `${base}?fields=${encodeURIComponent(fields.join(','))}&pageSize=${pageSize}&pageToken=${offset}`;
}

interface ChildPageRequest {
  childObject: DescribedObject;
  /** The child's reference field to the parent. */
  fieldName: string;
  relationshipName: string;
  selection: ObjectSelection;
}

/**
 * One page of a parent's children in one relationship, ordered by Id, counting only the children the caller
 * may see (it may read the child object: childRelationshipOf checked); its URLs name the selection's fields,
 * so that every page holds the same ones. The database pages and counts, with canSeeRecord's sharing rule
 * as a condition.
 */
async function childPage(
  q: Queryable,
  principal: Principal,
  parentId: string,
  request: ChildPageRequest,
  offset: number,
  pageSize: number,
  labels: PicklistLabels,
) {
  const params: unknown[] = [request.childObject.apiName, request.fieldName, parentId];
  const where = ['object_api_name = $1', 'fields ->> $2 = $3'];
  if (seesOwnRecordsOnly(principal, request.childObject))
    where.push(`(fields ->> 'OwnerId' = $${params.push(principal.userId)} OR created_by_id = $${params.length})`);
  const matching = `FROM record WHERE ${where.join(' AND ')}`;
  const { rows } = await q.query<RecordRow & { total: number }>(
    `SELECT ${RECORD_COLUMNS}, (SELECT count(*) ${matching})::int AS total ${matching} ORDER BY id LIMIT $${params.push(pageSize)} OFFSET $${params.push(offset)}`,
    params,
  );
  // A page past the end has no row to carry the count.
  const total =
    rows[0]?.total ?? (offset > 0 ? (await q.query<{ total: number }>(`SELECT count(*)::int AS total ${matching}`, params.slice(0, -2))).rows[0].total : 0);
  // The same rule again, so that a record is never shown by mistake.
  const page = rows.filter((row) => canSeeRecord(principal, request.childObject, row));
  const related = new Map<string, RecordRow>();
  await loadRelated(
    q,
    page.map((row) => ({ row, selection: request.selection })),
    related,
  );
  const context = contextFor(principal, related, labels);
  const records = page.map((row) => buildRecord(row, request.selection, context));
  const fields = selectionPaths(request.selection);
  return recordPage(records, total, offset, pageSize, childPageUrl(parentId, request.relationshipName, fields, pageSize));
}

/** One page of the children of each relationship asked for, the first one: getRecord has no page token. */
async function childPages(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  parent: RecordRow,
  object: DescribedObject,
  options: ReadOptions,
  labels: PicklistLabels,
) {
  const pages: Record<string, RecordCollectionRepresentation> = {};
  const pageSize = options.pageSize ?? DEFAULT_CHILD_PAGE_SIZE;
  for (const request of childRequests(org, principal, object, options.childRelationships ?? [])) {
    pages[request.relationshipName] = await childPage(q, principal, parent.id, request, 0, pageSize, labels);
  }
  return pages;
}

export interface ChildRecordsOptions {
  /** Fields of the child records (`Child.Field`, relationships included); none: the default page fields. */
  fields?: string[];
  optionalFields?: string[];
  pageSize?: number;
  /** A page token: the zero-based offset of the page's first record. */
  pageToken?: string;
  /** The zero-based page number, when there is no page token. */
  page?: number;
}

/**
 * GET /records/{recordId}/child-relationships/{relationshipName}: a page of a record's children in one
 * relationship, the resource the child-relationship pages of getRecord link to. A parent the caller may not
 * see answers 404, like one that does not exist.
 */
export async function getChildRecords(
  db: Queryable,
  principal: Principal,
  recordId: string,
  relationshipName: string,
  options: ChildRecordsOptions,
): Promise<RecordCollectionRepresentation> {
  const id = toId18(recordId);
  if (!id) throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${recordId} is not a valid record ID.`);
  const pageSize = options.pageSize ?? DEFAULT_CHILD_PAGE_SIZE;
  let offset = (options.page ?? 0) * pageSize;
  if (options.pageToken !== undefined) {
    if (!/^(0|[1-9][0-9]{0,8})$/.test(options.pageToken))
      throw new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', `Invalid page token: ${options.pageToken}`);
    offset = Number(options.pageToken);
  }
  const org = await describeOrg(db);
  const parent = (await fetchRows(db, [id])).get(id);
  const object = parent ? org.objects.get(parent.object_api_name) : undefined;
  if (!parent || !object || !canSeeRecord(principal, object, parent)) throw notFound();
  const { relationship, childObject } = childRelationshipOf(org, principal, object, relationshipName);
  const paths = parseFieldLists(options.fields ?? [], options.optionalFields ?? []);
  const selection =
    paths.required.length || paths.optional.length
      ? selectFields(org, principal, childObject, paths)
      : defaultChildSelection(org, principal, childObject, relationship.fieldName);
  const request = { childObject, fieldName: relationship.fieldName, relationshipName: relationship.relationshipName, selection };
  return childPage(db, principal, parent.id, request, offset, pageSize, await picklistLabels(db));
}

const errorOf = (error: unknown): { statusCode: number; result: ErrorItem[] } => {
  if (error instanceof PlatformError) return { statusCode: error.status, result: [{ errorCode: error.errorCode, message: error.message }] };
  throw error;
};

/**
 * Reads records by id (15 or 18 characters), one result per id in the order given: 200 with the record,
 * 404 for a record that does not exist or that the caller may not see, 400 for a bad id or a required field
 * the record's object lacks. A bad field list fails the whole call (throws).
 * `db` must be the app's database handle (the org's metadata is read through it), not a transaction.
 */
export async function readRecords(
  db: Queryable,
  principal: Principal,
  ids: string[],
  options: ReadOptions = {},
  /** A record as just saved (returned by its update in the transaction that committed it): not read again. */
  saved?: RecordRow,
): Promise<RecordResult[]> {
  const org = await describeOrg(db);
  const paths = parseFieldLists(options.fields ?? [], options.optionalFields ?? []);
  const id18s = ids.map((id) => toId18(id));
  for (const id of id18s) if (id) options.reads?.add(id);
  const rows = await fetchRows(
    db,
    id18s.filter((id): id is string => id !== null && id !== saved?.id),
  );
  if (saved) rows.set(saved.id, saved);
  const selections = new Map<string, ObjectSelection | PlatformError>();
  const results: (RecordResult | { row: RecordRow; object: DescribedObject; selection: ObjectSelection })[] = [];
  for (const [index, id] of id18s.entries()) {
    if (!id) {
      results.push({ statusCode: 400, result: [{ errorCode: 'INVALID_ID_FIELD', message: `Record ID ${ids[index]} is not a valid record ID.` }] });
      continue;
    }
    const row = rows.get(id);
    const object = row ? org.objects.get(row.object_api_name) : undefined;
    if (!row || !object || !canSeeRecord(principal, object, row)) {
      results.push(errorOf(notFound()));
      continue;
    }
    const key = `${object.apiName}/${row.record_type_id ?? ''}`;
    let selection = selections.get(key);
    if (!selection) {
      try {
        const layout = options.layoutTypes?.length ? await layoutPaths(db, object, row.record_type_id, options) : [];
        selection = selectFields(org, principal, object, { required: paths.required, optional: [...layout, ...paths.optional] });
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        selection = error;
      }
      selections.set(key, selection);
    }
    results.push(selection instanceof PlatformError ? errorOf(selection) : { row, object, selection });
  }
  const related = new Map<string, RecordRow>();
  const found = results.filter((result): result is { row: RecordRow; object: DescribedObject; selection: ObjectSelection } => 'row' in result);
  await loadRelated(db, found, related, options.reads);
  const labels = await picklistLabels(db);
  const context = contextFor(principal, related, labels);
  const built: RecordResult[] = [];
  for (const result of results) {
    if (!('row' in result)) {
      built.push(result);
      continue;
    }
    const children = options.childRelationships?.length ? await childPages(db, org, principal, result.row, result.object, options, labels) : {};
    built.push({ statusCode: 200, result: buildRecord(result.row, result.selection, context, children) });
  }
  return built;
}

/** Reads one record; throws the error a single read answers with (400 bad id or field, 404 not found). */
export async function readRecord(db: Queryable, principal: Principal, id: string, options: ReadOptions = {}, saved?: RecordRow): Promise<RecordRepresentation> {
  if (!toId18(id)) throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${id} is not a valid record ID.`);
  const [result] = await readRecords(db, principal, [id], options, saved);
  if (result.statusCode === 200) return result.result as RecordRepresentation;
  const [error] = result.result as ErrorItem[];
  throw new PlatformError(result.statusCode as PlatformError['status'], error.errorCode, error.message);
}

export const NO_FIELDS_MESSAGE = 'At least one of fields, optionalFields or layoutTypes is required';

/** GET /records/{recordId}: at least one of fields, optionalFields or layoutTypes must be given. */
export async function getRecord(db: Queryable, principal: Principal, id: string, options: ReadOptions): Promise<RecordRepresentation> {
  if (!options.fields?.length && !options.optionalFields?.length && !options.layoutTypes?.length) {
    throw new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', NO_FIELDS_MESSAGE);
  }
  const record = await readRecord(db, principal, id, options);
  if (options.updateMru) await noteRecordUsed(db, principal, record.id, record.apiName);
  return record;
}

/** GET /records/batch/{recordIds}: at most 200 ids; at least one of fields or optionalFields. */
export async function getRecords(
  db: Queryable,
  principal: Principal,
  ids: string[],
  options: Pick<ReadOptions, 'fields' | 'optionalFields'>,
): Promise<Schemas['BatchRepresentation']> {
  if (!options.fields?.length && !options.optionalFields?.length) {
    throw new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', 'At least one of fields or optionalFields is required');
  }
  if (ids.length === 0 || ids.length > 200) throw new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', 'Between 1 and 200 record ids are required');
  const results = await readRecords(db, principal, ids, options);
  return { hasErrors: results.some((result) => result.statusCode >= 400), results };
}
