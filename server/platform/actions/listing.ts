/**
 * An action as a list shows it: its representation for a source (what it is shown for), whether the caller may
 * do it, and the filters and envelope every list of actions takes (docs/product-spec.md §7 Actions).
 */
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';
import { derivedId } from '../layouts/build.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { canDeleteRecord, canEditRecord, canSeeRecord } from '../records/access.ts';
import type { RecordRow } from '../records/representation.ts';
import { writableBy } from '../records/write-rules.ts';
import {
  iconUrls,
  quickActionNamed,
  standardActionNamed,
  type ActionListContext,
  type QuickAction,
  type Section,
  type StandardActionDefinition,
} from './definitions.ts';

export type ActionRepresentation = Schemas['ActionRepresentation'];
export type PlatformAction = Schemas['PlatformActionRepresentation'];
type EntityActions = Schemas['EntityActionRepresentation'];

export interface ActionListQuery {
  actionTypes?: string[];
  apiNames?: string[];
  formFactor?: string;
  retrievalMode?: 'All' | 'PageLayout';
  sections?: string[];
}

/** What an action is shown for, as its representation says it. */
export interface Source {
  context: ActionListContext;
  sourceObject: string;
  relatedSourceObject?: string | null;
  relatedListRecordId?: string | null;
}

export function standardRepresentation(
  action: StandardActionDefinition,
  source: Source,
  section: Section,
  targetObject: string,
  apiName = action.apiName,
  label = action.label,
): PlatformAction {
  return {
    actionListContext: source.context,
    actionTarget: null,
    actionTargetType: 'Invoke',
    apiName,
    externalId: apiName,
    iconUrl: null,
    id: derivedId('0JV', source.context, source.sourceObject, source.relatedSourceObject ?? '', apiName),
    isMassAction: 'false',
    label,
    primaryColor: null,
    relatedListRecordId: source.relatedListRecordId ?? null,
    relatedSourceObject: source.relatedSourceObject ?? null,
    section,
    sourceObject: source.sourceObject,
    subtype: null,
    targetObject,
    targetUrl: null,
    type: 'StandardButton',
  };
}

export function quickRepresentation(action: QuickAction, source: Source, section: Section): PlatformAction {
  return {
    actionListContext: source.context,
    actionTarget: `${UI_API_PATH}/actions/quick-action-info/${action.apiName}`,
    actionTargetType: 'Describe',
    apiName: action.apiName,
    externalId: action.externalId,
    iconUrl: iconUrls(action).png,
    id: derivedId('0JV', source.context, source.sourceObject, source.relatedSourceObject ?? '', action.apiName),
    isMassAction: 'false',
    label: action.label,
    primaryColor: action.color,
    relatedListRecordId: source.relatedListRecordId ?? null,
    relatedSourceObject: source.relatedSourceObject ?? null,
    section,
    sourceObject: source.sourceObject,
    subtype: action.type,
    targetObject: action.targetObject,
    targetUrl: null,
    type: 'QuickAction',
  };
}

/** Whether the caller may create records of an object. */
export function mayCreate(principal: Principal, object: DescribedObject | undefined): boolean {
  return !!object && objectPermissions(principal, object.apiName).create && !!object.definition.flags?.createable;
}

/** Whether the caller may run a quick action: create its records, or change the record it is run on. */
export function mayRunQuickAction(
  principal: Principal,
  org: OrgDescribe,
  action: QuickAction,
  record?: { row: RecordRow; object: DescribedObject },
): boolean {
  const target = org.objects.get(action.targetObject);
  if (!target || !objectPermissions(principal, target.apiName).read) return false;
  if (action.type === 'Update') {
    if (!record) return false;
    return (
      record.object.apiName === target.apiName &&
      !!target.definition.flags?.updateable &&
      canEditRecord(principal, target, record.row)
    );
  }
  if (!mayCreate(principal, target)) return false;
  const parentField = action.targetParentField ? target.fieldsByName.get(action.targetParentField) : undefined;
  return !action.targetParentField || (!!parentField && writableBy(principal, target, parentField, 'create'));
}

/** A record an action is listed for: its row, its object, and whether it has a photo (for the photo's actions). */
interface ActionRecord {
  row: RecordRow;
  object: DescribedObject;
  hasPhoto?: boolean;
}

/** Whether the caller may do a standard action on an object, or on one of its records. */
function mayDoStandard(
  principal: Principal,
  action: StandardActionDefinition,
  object: DescribedObject,
  record?: ActionRecord,
): boolean {
  if (action.needsPhoto && !record?.hasPhoto) return false;
  const row = record?.row;
  switch (action.requires) {
    case 'read':
      return row ? canSeeRecord(principal, object, row) : objectPermissions(principal, object.apiName).read;
    case 'create':
      return mayCreate(principal, object);
    case 'edit':
      return !!row && !!object.definition.flags?.updateable && canEditRecord(principal, object, row);
    case 'delete':
      return !!row && !!object.definition.flags?.deletable && canDeleteRecord(principal, object, row);
    case 'changeOwner': {
      const owner = object.fieldsByName.get('OwnerId');
      return (
        !!row &&
        !!owner &&
        !!object.definition.flags?.updateable &&
        canEditRecord(principal, object, row) &&
        writableBy(principal, object, owner, 'update')
      );
    }
  }
}

/** An action named in the metadata, as listed for a source, or null when it does not apply or the caller may not do it. */
export function actionFor(
  principal: Principal,
  org: OrgDescribe,
  apiName: string,
  source: Source,
  section: Section,
  object: DescribedObject | undefined,
  record?: ActionRecord,
): PlatformAction | null {
  const quick = quickActionNamed(apiName);
  if (quick)
    return mayRunQuickAction(principal, org, quick, record) ? quickRepresentation(quick, source, section) : null;
  const standard = standardActionNamed(apiName);
  if (!standard || !object || !standard.contexts.includes(source.context)) return null;
  return mayDoStandard(principal, standard, object, record)
    ? standardRepresentation(standard, source, section, object.apiName)
    : null;
}

/** The filters every list takes: kinds of action, API names, sections. */
export function filtered(actions: PlatformAction[], query: ActionListQuery): PlatformAction[] {
  const names = query.apiNames?.map((name) => name.toLowerCase());
  const seen = new Set<string>();
  return actions.filter((action) => {
    if (query.actionTypes && !query.actionTypes.includes(action.type)) return false;
    if (names && !names.includes(action.apiName.toLowerCase())) return false;
    if (query.sections && !query.sections.includes(action.section ?? '')) return false;
    // An action placed in two sections is listed once per section; never twice in one.
    const key = `${action.section}/${action.apiName}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function representation(url: string, entries: [string, PlatformAction[], string][]): ActionRepresentation {
  const actions: Record<string, EntityActions> = {};
  for (const [key, list, entryUrl] of entries) actions[key] = { actions: list, links: [], url: entryUrl };
  return { actions, eTag: etagOf({ actions, url }), url };
}
