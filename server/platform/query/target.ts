/**
 * What a query runs against: the org's metadata, the object whose records are queried, and what the
 * caller may read. The list engine, related lists, lookups and search all build one of these and hand it
 * to where/sort/search-term/select.
 */
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { seesOwnRecordsOnly } from '../records/access.ts';
import { canReadField } from '../records/field-paths.ts';
import type { RowCondition } from './sql.ts';

export interface RecordAccess {
  canReadObject(object: DescribedObject): boolean;
  /** A field the caller may not read does not exist for it: naming it fails exactly like an unknown field. */
  canReadField(object: DescribedObject, field: FieldDefinition): boolean;
  /**
   * The rows of an object the caller may see, as a condition; null when it sees every row. Applies to the
   * queried object and to every parent a filter, a sort or a search reaches through a relationship, so that
   * a hidden parent behaves like no parent at all and its values cannot be probed.
   */
  visibleRows(object: DescribedObject): RowCondition | null;
}

export interface QueryTarget {
  org: OrgDescribe;
  object: DescribedObject;
  access: RecordAccess;
}

/** A record the user owns, or (on objects without an owner) created: the rule of records/access.ts owns(). */
export function ownedBy(userId: string): RowCondition {
  return (alias, parameters) => {
    const user = parameters.add(userId, 'text');
    return `(${alias}.fields ->> 'OwnerId' = ${user} OR ${alias}.created_by_id = ${user})`;
  };
}

/** What a principal's profile and the objects' sharing let it read. */
export function principalAccess(principal: Principal): RecordAccess {
  return {
    canReadObject: (object) => objectPermissions(principal, object.apiName).read,
    canReadField: (object, field) => canReadField(principal, object, field),
    visibleRows: (object) => (seesOwnRecordsOnly(principal, object) ? ownedBy(principal.userId) : null),
  };
}

export function queryTarget(org: OrgDescribe, object: DescribedObject, principal: Principal): QueryTarget {
  return { org, object, access: principalAccess(principal) };
}
