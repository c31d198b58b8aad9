/**
 * Record-level access. Objects are shared with everyone who may read them unless their definition says
 * `"sharingModel": "Private"`: then a record is seen and edited only by its owner (OwnerId, or CreatedById
 * on objects without an owner) and by profiles with viewAll / modifyAll on the object. Deleting needs
 * ownership or modifyAll on every object. Pure functions.
 */
import type { DescribedObject } from '../core/describe.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import type { RecordRow } from './representation.ts';

const isPrivate = (object: DescribedObject) =>
  (object.definition as { sharingModel?: string }).sharingModel === 'Private';

/** Whether the caller owns the record: its owner, or its creator. */
export function owns(principal: Principal, row: Pick<RecordRow, 'fields' | 'created_by_id'>): boolean {
  return row.fields.OwnerId === principal.userId || row.created_by_id === principal.userId;
}

export function canSeeRecord(
  principal: Principal,
  object: DescribedObject,
  row: Pick<RecordRow, 'fields' | 'created_by_id'>,
): boolean {
  const rights = objectPermissions(principal, object.apiName);
  if (!rights.read) return false;
  return !isPrivate(object) || rights.viewAll || rights.modifyAll || owns(principal, row);
}

/**
 * Whether, of an object it may read, the caller sees only the records it owns (or created): canSeeRecord's
 * rule, for queries that filter in the database.
 */
export function seesOwnRecordsOnly(principal: Principal, object: DescribedObject): boolean {
  const rights = objectPermissions(principal, object.apiName);
  return isPrivate(object) && !rights.viewAll && !rights.modifyAll;
}

export function canEditRecord(
  principal: Principal,
  object: DescribedObject,
  row: Pick<RecordRow, 'fields' | 'created_by_id'>,
): boolean {
  const rights = objectPermissions(principal, object.apiName);
  if (!rights.edit) return false;
  return !isPrivate(object) || rights.modifyAll || owns(principal, row);
}

export function canDeleteRecord(
  principal: Principal,
  object: DescribedObject,
  row: Pick<RecordRow, 'fields' | 'created_by_id'>,
): boolean {
  const rights = objectPermissions(principal, object.apiName);
  return rights.delete && (rights.modifyAll || owns(principal, row));
}
