/**
 * Who sees a list view and what they may do with it. A Public list view is seen by everyone who may read its
 * object, a Private one by its creator alone, a Shared one by its creator and the members of the roles and
 * groups it is shared with (metadata/list-view-shares.json). Everyone signed in who reads an object may create
 * Private list views of it and change or delete their own; making a list view Public or Shared, and changing or
 * deleting the org's list views and other users', needs the platform's "Manage Public List Views", which here
 * goes with modifyAll on the object (the System Administrator). The most-recently-used list is nobody's to
 * change. Pure functions.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Schemas } from '../../../generated/types.ts';
import type { DescribedObject } from '../core/describe.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { isMruList, type ListView } from './definitions.ts';

type ShareType = Schemas['ListInfoShareCategoryRepresentation']['shareType'];

interface ShareTarget {
  shareType: ShareType;
  apiName: string;
  label: string;
  /** User ids. */
  members: string[];
}

interface SharesFile {
  roles: { apiName: string; label: string; members: string[] }[];
  groups: { type: Exclude<ShareType, 'Role'>; apiName: string; label: string; members: string[] }[];
}

const SHARES_FILE = resolve(import.meta.dirname, '../metadata/list-view-shares.json');

let targets: Map<string, ShareTarget> | undefined;

/** The roles and groups of the org, by `Type.ApiName` lower-cased. */
function shareTargets(): Map<string, ShareTarget> {
  if (!targets) {
    const file = JSON.parse(readFileSync(SHARES_FILE, 'utf8')) as SharesFile;
    const all: ShareTarget[] = [
      ...file.roles.map((role) => ({
        shareType: 'Role' as const,
        apiName: role.apiName,
        label: role.label,
        members: role.members,
      })),
      ...file.groups.map((group) => ({
        shareType: group.type,
        apiName: group.apiName,
        label: group.label,
        members: group.members,
      })),
    ];
    targets = new Map(all.map((target) => [`${target.shareType}.${target.apiName}`.toLowerCase(), target]));
  }
  return targets;
}

/** The role or group a share names (`Role.SalesManager`, `Regular.ContactUsReviewers`), any case; undefined when unknown. */
export const shareTarget = (share: string): ShareTarget | undefined => shareTargets().get(share.toLowerCase());

/** The shares as the platform lists them: grouped by kind, each with its label and API name. */
export function listSharesRepresentation(shares: string[]): Schemas['ListInfoShareCategoryRepresentation'][] {
  const byType = new Map<ShareType, Schemas['ListInfoShareRepresentation'][]>();
  for (const target of shares.map(shareTarget)) {
    if (!target) continue;
    byType.set(target.shareType, [
      ...(byType.get(target.shareType) ?? []),
      { label: target.label, shareApiName: target.apiName },
    ]);
  }
  return [...byType].map(([shareType, entries]) => ({ shareType, shares: entries }));
}

/** Whether the principal may make list views of the object Public or Shared, and manage everyone's. */
export const managesListViews = (principal: Principal, object: DescribedObject) =>
  !principal.isGuest && objectPermissions(principal, object.apiName).modifyAll;

/** Whether the principal may create list views of the object (Private ones at least). */
export const createsListViews = (principal: Principal, object: DescribedObject) =>
  !principal.isGuest && objectPermissions(principal, object.apiName).read;

export function canSeeListView(principal: Principal, object: DescribedObject, view: ListView): boolean {
  if (!objectPermissions(principal, object.apiName).read) return false;
  if (isMruList(view) || view.ownerId === principal.userId) return true;
  switch (view.definition.visibility) {
    case 'Public':
      return true;
    case 'Shared':
      return (
        managesListViews(principal, object) ||
        view.definition.listShares.some((share) => shareTarget(share)?.members.includes(principal.userId) ?? false)
      );
    default:
      // The org's own views have no creator: a Private one is for those who manage list views.
      return view.ownerId === null && managesListViews(principal, object);
  }
}

type ListViewRights = Pick<
  Schemas['ListInfoRepresentation'],
  'cloneable' | 'createable' | 'deletable' | 'updateable' | 'visibilityEditable'
>;

export function listViewRights(principal: Principal, object: DescribedObject, view: ListView): ListViewRights {
  const createable = createsListViews(principal, object);
  if (isMruList(view))
    return { cloneable: false, createable, deletable: false, updateable: false, visibilityEditable: false };
  const manages = managesListViews(principal, object);
  const changeable = manages || (createable && view.ownerId === principal.userId);
  return {
    cloneable: createable,
    createable,
    deletable: changeable,
    updateable: changeable,
    visibilityEditable: changeable && manages,
  };
}
