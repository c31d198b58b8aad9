/**
 * The related list a request names, as the caller may see it. A parent object the caller may not read, and
 * a parent record it may not see, answer exactly like ones that do not exist; so does a related list whose
 * child object it may not read. The query target is the child object's records as the caller may read them.
 */
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type DescribedRecordType, type OrgDescribe } from '../core/describe.ts';
import { invalidId, noAccess, notFound } from '../core/errors.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../core/ids.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { queryTarget, type QueryTarget } from '../query/target.ts';
import { canSeeRecord } from '../records/access.ts';
import { fetchRows } from '../records/rows.ts';
import { DEFAULT_RELATED_NAME_FIELD, fieldNamed } from '../records/field-paths.ts';
import { layoutFor, relatedListNamed, type RelatedListDefinition, type RelatedListLayout } from './definitions.ts';
import { loadPreferences, NO_PREFERENCES, type RelatedListPreferences } from './store.ts';

export interface ParentContext {
  org: OrgDescribe;
  principal: Principal;
  parent: DescribedObject;
  /** The parent's record type whose layout applies (the master record type id for objects without). */
  recordTypeId: string;
  /** The record type the request named (18 characters), or null when it named none: what listReference says. */
  askedRecordTypeId: string | null;
  layout: RelatedListLayout | undefined;
  /** The parent record, when the request names one. */
  parentRecordId: string | null;
}

export interface RelatedListContext extends ParentContext {
  definition: RelatedListDefinition;
  child: DescribedObject;
  /** The child object's records as the caller may read them. */
  target: QueryTarget;
  preferences: RelatedListPreferences;
}

function recordTypeOf(
  parent: DescribedObject,
  recordTypeId: string | null | undefined,
): DescribedRecordType | undefined {
  if (recordTypeId === null || recordTypeId === undefined) {
    return (
      parent.recordTypes.find((type) => !type.isMaster && type.isDefault) ??
      parent.recordTypes.find((type) => type.isMaster)
    );
  }
  const id = toId18(recordTypeId);
  const found = id ? parent.recordTypes.find((type) => type.id === id) : undefined;
  if (!found) throw invalidId('recordTypeId', recordTypeId);
  return found;
}

/** A parent object by API name (any case), when the caller may read it, with the layout of a record type. */
export async function parentContext(
  db: Queryable,
  principal: Principal,
  parentObjectApiName: string,
  recordTypeId?: string | null,
): Promise<ParentContext> {
  const org = await describeOrg(db);
  const parent = org.byLowerName.get(parentObjectApiName.toLowerCase());
  if (!parent || !objectPermissions(principal, parent.apiName).read) throw noAccess();
  const recordType = recordTypeOf(parent, recordTypeId);
  return {
    org,
    principal,
    parent,
    recordTypeId: recordType?.id ?? MASTER_RECORD_TYPE_ID,
    askedRecordTypeId: recordTypeId === null || recordTypeId === undefined ? null : (recordType?.id ?? null),
    layout: layoutFor(parent, recordType),
    parentRecordId: null,
  };
}

/** A parent record by id (15 or 18 characters), when the caller may see it, with the layout of its record type. */
export async function parentRecordContext(
  db: Queryable,
  principal: Principal,
  parentRecordId: string,
): Promise<ParentContext> {
  const id = toId18(parentRecordId);
  if (!id) throw invalidId('parentRecordId', parentRecordId);
  const org = await describeOrg(db);
  const row = (await fetchRows(db, [id])).get(id);
  const parent = row ? org.objects.get(row.object_api_name) : undefined;
  if (!row || !parent || !canSeeRecord(principal, parent, row)) throw notFound();
  const recordType =
    parent.recordTypes.find((type) => type.id === (row.record_type_id ?? MASTER_RECORD_TYPE_ID)) ??
    recordTypeOf(parent, null);
  return {
    org,
    principal,
    parent,
    recordTypeId: recordType?.id ?? MASTER_RECORD_TYPE_ID,
    askedRecordTypeId: null,
    layout: layoutFor(parent, recordType),
    parentRecordId: id,
  };
}

/** The child object's name field: the first of its nameFields, else Name when it has one. */
export function nameFieldOf(object: DescribedObject): string | undefined {
  const name = object.definition.nameFields[0] ?? DEFAULT_RELATED_NAME_FIELD;
  return fieldNamed(object, name)?.apiName;
}

/**
 * A related list of the parent by id (any case), when the caller may read its child object; with the caller's
 * preferences for it unless `withPreferences` is false (a count needs none: one query fewer).
 */
export async function relatedListContext(
  db: Queryable,
  context: ParentContext,
  relatedListId: string,
  withPreferences = true,
): Promise<RelatedListContext> {
  const { org, parent, layout, principal } = context;
  const definition = relatedListNamed(parent, layout, relatedListId, (relationship) => {
    const child = org.objects.get(relationship.childObjectApiName);
    return child ? nameFieldOf(child) : undefined;
  });
  const child = definition ? org.objects.get(definition.relationship.childObjectApiName) : undefined;
  if (!definition || !child || !objectPermissions(principal, child.apiName).read) throw notFound();
  const preferences = withPreferences
    ? await loadPreferences(db, principal.userId, parent.apiName, definition.entry.relatedListId)
    : NO_PREFERENCES;
  return { ...context, definition, child, target: queryTarget(org, child, principal), preferences };
}
