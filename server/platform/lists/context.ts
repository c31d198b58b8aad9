/**
 * The list a request names, as the caller may see it: the object (one the caller may not read answers like
 * one that does not exist), the list view by API name or id (one the caller may not see answers like one
 * that does not exist), the caller's preferences for it, and the query target of its records.
 */
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { invalidId, noAccess, notFound } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { queryTarget, type QueryTarget } from '../query/target.ts';
import { canSeeListView } from './access.ts';
import type { ListView } from './definitions.ts';
import { listViewById, listViewNamed, type ListPreferences } from './store.ts';

export interface ObjectContext {
  org: OrgDescribe;
  object: DescribedObject;
  principal: Principal;
  /** The object's records as the caller may read them. */
  target: QueryTarget;
}

export interface ListContext extends ObjectContext {
  view: ListView;
  preferences: ListPreferences;
}

/** The object a request names (any case), when the caller may read it. */
export async function objectContext(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
): Promise<ObjectContext> {
  const org = await describeOrg(db);
  const object = org.byLowerName.get(objectApiName.toLowerCase());
  if (!object || !objectPermissions(principal, object.apiName).read) throw noAccess();
  return { org, object, principal, target: queryTarget(org, object, principal) };
}

/** A list view of an object by API name (any case), when the caller may see it. */
export async function listContext(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
): Promise<ListContext> {
  const context = await objectContext(db, principal, objectApiName);
  const found = await listViewNamed(db, principal.userId, context.object.apiName, listViewApiName);
  if (!found || !canSeeListView(principal, context.object, found.view)) throw notFound();
  return { ...context, ...found };
}

/** A list view by id (15 or 18 characters), when the caller may see it and its object. */
export async function listContextById(
  db: Queryable,
  principal: Principal,
  listViewId: string,
  parameter = 'listViewId',
): Promise<ListContext> {
  const id = toId18(listViewId);
  if (!id) throw invalidId(parameter, listViewId);
  const found = await listViewById(db, principal.userId, id);
  if (!found) throw notFound();
  const org = await describeOrg(db);
  const object = org.objects.get(found.view.objectApiName);
  if (!object || !canSeeListView(principal, object, found.view)) throw notFound();
  return { org, object, principal, target: queryTarget(org, object, principal), ...found };
}
