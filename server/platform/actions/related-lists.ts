/**
 * The actions of related lists: a record's related list (New of the child object, and the parent's quick actions
 * that create such a child), alone or in a batch, and the rows of a related list (Edit, Delete). An action is
 * listed only when the caller may do what it does (docs/product-spec.md §7 Actions).
 */
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type OrgDescribe } from '../core/describe.ts';
import { notFound } from '../core/errors.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { batchItem } from '../related-lists/batch.ts';
import { loadActions, quickActionNamed, standardActionNamed } from './definitions.ts';
import {
  actionFor,
  filtered,
  mayCreate,
  mayRunQuickAction,
  quickRepresentation,
  representation,
  standardRepresentation,
  type ActionListQuery,
  type ActionRepresentation,
  type PlatformAction,
  type Source,
} from './listing.ts';
import { recordIdsOf, visibleRecords, type VisibleRecord } from './lists.ts';

/** A related list of a record: one of its object's child relationships, by name in any case; otherwise 404. */
function relatedListOf(record: VisibleRecord, relatedListId: string) {
  const relationship = record.object.childRelationships.find(
    (candidate) => candidate.relationshipName.toLowerCase() === relatedListId.toLowerCase(),
  );
  if (!relationship) throw notFound();
  return relationship;
}

/** The actions of a record's related list: New of the child object, and the parent's quick actions that create such a child. */
function relatedListActions(
  principal: Principal,
  org: OrgDescribe,
  record: VisibleRecord,
  relatedListId: string,
  query: ActionListQuery,
): [string, PlatformAction[]] {
  const relationship = relatedListOf(record, relatedListId);
  const child = org.objects.get(relationship.childObjectApiName);
  if (!child || !objectPermissions(principal, child.apiName).read) throw notFound();
  const source: Source = {
    context: 'RelatedList',
    sourceObject: record.row.id,
    relatedSourceObject: relationship.relationshipName,
  };
  const actions: PlatformAction[] = [];
  const newAction = standardActionNamed('New');
  if (newAction && mayCreate(principal, child))
    actions.push(
      standardRepresentation(newAction, source, 'Page', child.apiName, `New${child.apiName}`, newAction.label),
    );
  const file = loadActions().objects.get(record.object.apiName);
  for (const definition of file?.quickActions ?? []) {
    if (definition.targetObject !== child.apiName || definition.targetParentField !== relationship.fieldName) continue;
    const action = quickActionNamed(`${record.object.apiName}.${definition.name}`)!;
    if (mayRunQuickAction(principal, org, action, record)) actions.push(quickRepresentation(action, source, 'Page'));
  }
  return [relationship.relationshipName, filtered(actions, query)];
}

/** The answer of one related list: keyed by the related list's id, the first record's actions. */
function relatedListAnswer(
  principal: Principal,
  org: OrgDescribe,
  records: VisibleRecord[],
  recordIds: string[],
  relatedListId: string,
  query: ActionListQuery,
): ActionRepresentation {
  const lists = records.map((record) => relatedListActions(principal, org, record, relatedListId, query));
  const url = `${UI_API_PATH}/actions/record/${recordIds.join(',')}/related-list/${lists[0][0]}`;
  return representation(url, [[lists[0][0], lists[0][1], url]]);
}

/** POST /actions/record/{recordIds}/related-list/{relatedListId}: keyed by the related list's id; the first record's actions. */
export async function getRelatedListActions(
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  relatedListId: string,
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const records = await visibleRecords(db, org, principal, recordIdsOf('recordIds', recordIds));
  return relatedListAnswer(principal, org, records, recordIds, relatedListId, query);
}

type ActionBatch = Schemas['ActionBatchRepresentation'];

/** POST /actions/record/{recordIds}/related-list/batch: one result per related list; a failed one fails only its item. */
export async function getRelatedListsActions(
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  items: (ActionListQuery & { relatedListId: string })[],
): Promise<ActionBatch> {
  const org = await describeOrg(db);
  // The records themselves must exist for the caller: that fails the whole request, as for a single related list.
  const records = await visibleRecords(db, org, principal, recordIdsOf('recordIds', recordIds));
  const results: ActionBatch['results'] = [];
  for (const item of items)
    results.push(
      await batchItem(async () => relatedListAnswer(principal, org, records, recordIds, item.relatedListId, item)),
    );
  return { results };
}

/**
 * GET /actions/record/{recordIds}/related-list-record/{relatedListRecordIds}: the actions of records as
 * rows of a related list of the parent record (Edit, Delete), keyed by related record id. A related record
 * must be a child of the (first) parent record by one of its object's relationships.
 */
export async function getRelatedListRecordActions(
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  relatedListRecordIds: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const parents = await visibleRecords(db, org, principal, recordIdsOf('recordIds', recordIds));
  const children = await visibleRecords(db, org, principal, recordIdsOf('relatedListRecordIds', relatedListRecordIds));
  const parent = parents[0];
  const standard = loadActions().standard.filter((action) => action.contexts.includes('RelatedListRecord'));
  return representation(
    `${UI_API_PATH}/actions/record/${recordIds.join(',')}/related-list-record/${relatedListRecordIds.join(',')}`,
    children.map((child) => {
      const relationship = parent.object.childRelationships.find(
        (candidate) =>
          candidate.childObjectApiName === child.object.apiName &&
          child.row.fields[candidate.fieldName] === parent.row.id,
      );
      if (!relationship) throw notFound();
      const source: Source = {
        context: 'RelatedListRecord',
        sourceObject: child.row.id,
        relatedSourceObject: relationship.relationshipName,
        relatedListRecordId: child.row.id,
      };
      const actions = standard.flatMap((action) => {
        const listed = actionFor(principal, org, action.apiName, source, 'Page', child.object, child);
        return listed ? [listed] : [];
      });
      return [
        child.row.id,
        filtered(actions, query),
        `${UI_API_PATH}/actions/record/${parent.row.id}/related-list-record/${child.row.id}`,
      ];
    }),
  );
}
