/**
 * Pages of a record's child records in one relationship: those getRecord adds for childRelationships, and
 * the Get Child Records resource their URLs point to.
 */
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { canSeeRecord, seesOwnRecordsOnly } from './access.ts';
import {
  addPath,
  emptySelection,
  fieldNamed,
  invalidField,
  parseFieldLists,
  selectFields,
  selectionPaths,
  type ObjectSelection,
} from './field-paths.ts';
import { picklistLabels } from './picklist-labels.ts';
import {
  buildRecord,
  RECORD_COLUMNS,
  recordPage,
  type PicklistLabels,
  type RecordCollectionRepresentation,
  type RecordRow,
} from './representation.ts';
import { contextFor, fetchRows, loadRelated } from './rows.ts';
import { UI_API_PATH } from '../../../common/platform.ts';

const DEFAULT_CHILD_PAGE_SIZE = 5;

/** The fields of a child record page when none are asked for: its name, dates and the reference to the parent. */
function defaultChildSelection(
  org: OrgDescribe,
  principal: Principal,
  childObject: DescribedObject,
  parentField: string,
): ObjectSelection {
  const selection = emptySelection(childObject);
  for (const name of [
    'Id',
    'Name',
    'CreatedDate',
    'LastModifiedById',
    'LastModifiedDate',
    'SystemModstamp',
    parentField,
  ])
    addPath(org, principal, selection, [name]);
  return selection;
}

/** The child relationship of an object by name (any case), when the caller may read its child object. */
function childRelationshipOf(
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  relationshipName: string,
) {
  const relationship = object.childRelationships.find(
    (candidate) => candidate.relationshipName.toLowerCase() === relationshipName.toLowerCase(),
  );
  const childObject = relationship ? org.objects.get(relationship.childObjectApiName) : undefined;
  if (!relationship || !childObject || !objectPermissions(principal, childObject.apiName).read) {
    throw new PlatformError(
      400,
      'INVALID_FIELD',
      `Didn't understand relationship '${relationshipName}' of entity '${object.apiName}'.`,
    );
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
      request = {
        childObject,
        fieldName: relationship.fieldName,
        relationshipName: relationship.relationshipName,
        selection,
      };
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
export function childPageUrl(
  parentId: string,
  relationshipName: string,
  fields: string[],
  pageSize: number,
): (offset: number) => string {
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
    rows[0]?.total ??
    (offset > 0
      ? (await q.query<{ total: number }>(`SELECT count(*)::int AS total ${matching}`, params.slice(0, -2))).rows[0]
          .total
      : 0);
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
  return recordPage(
    records,
    total,
    offset,
    pageSize,
    childPageUrl(parentId, request.relationshipName, fields, pageSize),
  );
}

/** One page of the children of each relationship asked for, the first one: getRecord has no page token. */
export async function childPages(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  parent: RecordRow,
  object: DescribedObject,
  options: { childRelationships?: string[]; pageSize?: number },
  labels: PicklistLabels,
) {
  const pages: Record<string, RecordCollectionRepresentation> = {};
  const pageSize = options.pageSize ?? DEFAULT_CHILD_PAGE_SIZE;
  for (const request of childRequests(org, principal, object, options.childRelationships ?? [])) {
    pages[request.relationshipName] = await childPage(q, principal, parent.id, request, 0, pageSize, labels);
  }
  return pages;
}

interface ChildRecordsOptions {
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
  const request = {
    childObject,
    fieldName: relationship.fieldName,
    relationshipName: relationship.relationshipName,
    selection,
  };
  return childPage(db, principal, parent.id, request, offset, pageSize, await picklistLabels(db));
}
