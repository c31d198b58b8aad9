/**
 * The metadata of related lists: the summary collection of a parent object (the related lists its layout
 * shows, those of child objects the caller may not read left out), one related list's info (its columns as
 * the caller may read them, its order - the caller's own, else the layout's - and the caller's column
 * preferences), several in a batch with a result per list, and the change of the caller's order and column
 * preferences. eTags are hashes of the rest, so they change whenever what the caller sees does.
 */
import type { Schemas } from '../../../generated/types.ts';
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import { etagOf } from '../core/etag.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { isSortable } from '../query/fields.ts';
import { invalidField } from '../records/field-paths.ts';
import { orderedByInfo, pathLabel, readablePath } from '../lists/info.ts';
import { batchItem, relatedListNames } from './batch.ts';
import { layoutRelatedLists, type RelatedListOrder } from './definitions.ts';
import { parentContext, relatedListContext, type ParentContext, type RelatedListContext } from './context.ts';
import { changeRelatedListPreferences, type PreferencesChange } from './preferences.ts';

type RelatedListInfo = Schemas['RelatedListInfoRepresentation'];
type RelatedListColumn = Schemas['RelatedListColumnRepresentation'];
type RelatedListReference = Schemas['RelatedListReferenceRepresentation'];

/**
 * The reference of a related list. Its recordTypeId is the record type the request named, null when it named
 * none (a related list of a record names none), as the platform sends it.
 */
export function relatedListReference(
  context: RelatedListContext,
  inContextOfRecordId: string | null = context.parentRecordId,
): RelatedListReference {
  return {
    id: null,
    inContextOfRecordId,
    listViewApiName: context.definition.entry.relatedListId,
    objectApiName: context.child.apiName,
    parentObjectApiName: context.parent.apiName,
    recordTypeId: context.askedRecordTypeId,
    relatedListId: context.definition.entry.relatedListId,
    type: 'relatedList',
  };
}

function relatedListLabel(context: Pick<RelatedListContext, 'definition' | 'child'>): string {
  return context.definition.entry.label ?? context.child.definition.labelPlural;
}

/** A field of the request (`Contact.Name` or `Name`) as a path of the child object (`Name`). */
export function unqualified(objectApiName: string, path: string): string {
  const dot = path.indexOf('.');
  return dot > 0 && path.slice(0, dot).toLowerCase() === objectApiName.toLowerCase() ? path.slice(dot + 1) : path;
}

/** A column the caller may read, or undefined. */
function relatedListColumn(context: RelatedListContext, path: string): RelatedListColumn | undefined {
  const resolved = readablePath(context.target, path);
  if (!resolved) return undefined;
  const { field, scope } = resolved;
  const parentPath = scope.path.join('.');
  const isName = field.nameField === true || scope.object.definition.nameFields[0] === field.apiName;
  return {
    fieldApiName: resolved.path,
    label: pathLabel(context.org, context.child, resolved.path),
    lookupId: isName ? (parentPath ? `${parentPath}.Id` : 'Id') : field.dataType === 'Reference' ? resolved.path : null,
    sortable: isSortable(field),
  };
}

/** The layout's columns the caller may read, in order. */
function layoutColumns(context: RelatedListContext): RelatedListColumn[] {
  return context.definition.entry.displayColumns
    .map((path) => relatedListColumn(context, path))
    .filter((one): one is RelatedListColumn => !!one);
}

/** The order the related records come in when a request names none: the caller's own, else the layout's. */
export function effectiveOrder(context: RelatedListContext): RelatedListOrder[] {
  return context.preferences.orderedBy.length > 0
    ? context.preferences.orderedBy
    : (context.definition.entry.orderedBy ?? []);
}

interface InfoRequest {
  fields?: string[];
  optionalFields?: string[];
  restrictColumnsToLayout?: boolean;
}

/**
 * The columns: the layout's (restrictColumnsToLayout, the default) or every field the caller may read;
 * narrowed to fields and optionalFields when they are given. A field of `fields` that does not exist or may
 * not be read fails (INVALID_FIELD); one of optionalFields is left out.
 */
function columnsFor(context: RelatedListContext, request: InfoRequest): RelatedListColumn[] {
  const restrict = request.restrictColumnsToLayout ?? true;
  const base = restrict
    ? layoutColumns(context)
    : context.child.fields
        .map((field) => relatedListColumn(context, field.apiName))
        .filter((one): one is RelatedListColumn => !!one);
  const required = (request.fields ?? []).map((path) => unqualified(context.child.apiName, path));
  const optional = (request.optionalFields ?? []).map((path) => unqualified(context.child.apiName, path));
  if (required.length + optional.length === 0) return base;
  const wanted: RelatedListColumn[] = [];
  const add = (column: RelatedListColumn) => {
    if (!wanted.some((one) => one.fieldApiName === column.fieldApiName)) wanted.push(column);
  };
  for (const path of required) {
    const column = relatedListColumn(context, path);
    if (!column) throw invalidField(context.child.apiName, path);
    if (!restrict || base.some((one) => one.fieldApiName === column.fieldApiName)) add(column);
  }
  for (const path of optional) {
    const column = relatedListColumn(context, path);
    if (column && (!restrict || base.some((one) => one.fieldApiName === column.fieldApiName))) add(column);
  }
  return wanted;
}

export function buildRelatedListInfo(context: RelatedListContext, request: InfoRequest = {}): RelatedListInfo {
  const rights = objectPermissions(context.principal, context.child.apiName);
  const info: Omit<RelatedListInfo, 'eTag'> = {
    cloneable: false,
    createable: rights.create && context.child.definition.flags?.createable !== false,
    deletable: false,
    displayColumns: columnsFor(context, request),
    fieldApiName: context.definition.relationship.fieldName,
    fields: request.fields ?? [],
    filterable: true,
    filterLogicString: '',
    filteredByInfo: [],
    label: relatedListLabel(context),
    listReference: relatedListReference(context, null),
    objectApiNames: [context.child.apiName],
    optionalFields: request.optionalFields ?? [],
    orderedByInfo: orderedByInfo(
      { org: context.org, object: context.child, target: context.target },
      effectiveOrder(context),
    ),
    restrictColumnsToLayout: request.restrictColumnsToLayout ?? true,
    updateable: true,
    userPreferences: { columnWidths: context.preferences.columnWidths, columnWrap: context.preferences.columnWrap },
    visibility: 'Public',
    visibilityEditable: false,
  };
  return { ...info, eTag: etagOf(info) };
}

/** GET related-list-info/{parentObjectApiName}: the related lists the layout shows, of child objects the caller may read. */
export async function getRelatedListsInfo(
  db: Queryable,
  principal: Principal,
  parentObjectApiName: string,
  recordTypeId?: string,
): Promise<Schemas['RelatedListSummaryInfoCollectionRepresentation']> {
  const context = await parentContext(db, principal, parentObjectApiName, recordTypeId);
  const relatedLists = layoutRelatedLists(context.parent, context.layout).flatMap(({ entry, relationship }) => {
    const child = context.org.objects.get(relationship.childObjectApiName);
    if (!child || !objectPermissions(principal, child.apiName).read) return [];
    const summary: Schemas['RelatedListSummaryInfoRepresentation'] = {
      entityLabel: child.definition.label,
      entityPluralLabel: child.definition.labelPlural,
      fieldApiName: relationship.fieldName,
      keyPrefix: child.definition.keyPrefix ?? null,
      label: entry.label ?? child.definition.labelPlural,
      objectApiName: child.apiName,
      parentFieldApiName: 'Id',
      relatedListId: entry.relatedListId,
      relatedListInfoUrl: `${UI_API_PATH}/related-list-info/${context.parent.apiName}/${entry.relatedListId}`,
      themeInfo: child.definition.themeInfo ?? null,
      uiApiEnabledLayout: true,
    };
    return [summary];
  });
  const collection = {
    parentObjectApiName: context.parent.apiName,
    parentRecordTypeId: context.recordTypeId,
    relatedLists,
  };
  return { eTag: etagOf(collection), ...collection };
}

export async function getRelatedListInfo(
  db: Queryable,
  principal: Principal,
  parentObjectApiName: string,
  relatedListId: string,
  request: InfoRequest & { recordTypeId?: string },
): Promise<RelatedListInfo> {
  const parent = await parentContext(db, principal, parentObjectApiName, request.recordTypeId);
  return buildRelatedListInfo(await relatedListContext(db, parent, relatedListId), request);
}

export async function getRelatedListInfoBatch(
  db: Queryable,
  principal: Principal,
  parentObjectApiName: string,
  names: string,
  recordTypeId?: string,
): Promise<Schemas['RelatedListInfoBatchRepresentation']> {
  const relatedListIds = relatedListNames(names);
  const parent = await parentContext(db, principal, parentObjectApiName, recordTypeId);
  const results = [];
  for (const relatedListId of relatedListIds) {
    results.push(
      await batchItem(async () => buildRelatedListInfo(await relatedListContext(db, parent, relatedListId))),
    );
  }
  return { results } as Schemas['RelatedListInfoBatchRepresentation'];
}

/** PATCH related-list-info: orderedByInfo replaces the caller's order; userPreferences are merged into its own. */
export async function updateRelatedListInfo(
  db: Database,
  principal: Principal,
  parentObjectApiName: string,
  relatedListId: string,
  recordTypeId: string | undefined,
  input: Schemas['ListInfoInputRepresentation'],
): Promise<RelatedListInfo> {
  const parent = await parentContext(db, principal, parentObjectApiName, recordTypeId);
  // Without the caller's preferences: the change reads them under the lock.
  const context = await relatedListContext(db, parent, relatedListId, false);
  const change: PreferencesChange = {
    columnWidths: input.userPreferences?.columnWidths,
    columnWrap: input.userPreferences?.columnWrap,
    orderedBy: input.orderedByInfo,
  };
  const preferences = await changeRelatedListPreferences(db, context, change);
  return buildRelatedListInfo({ ...context, preferences });
}

export type { ParentContext };
