/**
 * Quick actions: what one is (info), its form (layout), the values it starts with (defaults: its predefined
 * values and, for an action that creates a related record, the record it is launched from), and running it.
 * Running one writes through the record engine's create and update (createable and updateable fields,
 * field permissions, required fields, field errors, whatever else a direct write checks), so that nothing
 * can be written through an action that the caller could not write directly (docs/product-spec.md §3, §7 Actions).
 */
import { enforceDuplicateRules } from '../duplicates/match.ts';
import type { Clock } from '../../app-options.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { buildLayout, layoutFieldNames } from '../layouts/build.ts';
import { resolveRecordType } from '../layouts/layouts.ts';
import { fieldPermissions, objectPermissions, type Principal } from '../core/principal.ts';
import { defaultFieldValue, defaultsContext, optionalFieldNames } from '../record-ui/defaults.ts';
import type { FieldValueRepresentation } from '../records/representation.ts';
import { displayValueOf, type FieldValue } from '../records/values.ts';
import { updateRecord } from '../records/update.ts';
import { createRecord } from '../records/write.ts';
import { iconUrls, quickActionNamed, type QuickAction } from './definitions.ts';
import { readableObjectOf, recordIdsOf, visibleRecords, type VisibleRecord } from './lists.ts';
import { mayCreate } from './listing.ts';

/** A quick action the caller may see: its objects (the one it is launched from and its target) readable; otherwise 404. */
function quickActionFor(
  org: OrgDescribe,
  principal: Principal,
  actionApiName: string,
): { action: QuickAction; target: DescribedObject } {
  const action = quickActionNamed(actionApiName);
  if (!action) throw notFound();
  if (action.contextObject !== 'Global') readableObjectOf(org, principal, action.contextObject);
  return { action, target: readableObjectOf(org, principal, action.targetObject) };
}

const creates = (action: QuickAction) => action.type !== 'Update';

/** The record an action is launched from (or, for an update, the record it changes), when named: a record the caller may see. */
async function contextRecord(
  db: Queryable,
  org: OrgDescribe,
  principal: Principal,
  parameter: string,
  id: string | undefined,
): Promise<VisibleRecord | undefined> {
  if (id === undefined) return undefined;
  return (await visibleRecords(db, org, principal, recordIdsOf(parameter, [id])))[0];
}

/** GET /actions/quick-action-info/{actionApiName}. */
export async function getQuickActionInfo(
  db: Queryable,
  principal: Principal,
  actionApiName: string,
  query: { parentRecordId?: string },
): Promise<Schemas['QuickActionInfoRepresentation']> {
  const org = await describeOrg(db);
  const { action, target } = quickActionFor(org, principal, actionApiName);
  await contextRecord(db, org, principal, 'parentRecordId', query.parentRecordId);
  const icons = iconUrls(action);
  const body = {
    accessLevelRequired: creates(action) ? null : 'Edit',
    actionApiName: action.apiName,
    canvasApplicationName: null,
    colors: [{ color: action.color, context: 'primary', theme: 'theme4' }],
    contextSobjectType: action.contextObject === 'Global' ? null : action.contextObject,
    flowDevName: null,
    flowRecordIdVar: null,
    height: null,
    iconName: null,
    iconUrl: icons.png,
    icons: [
      { contentType: 'image/svg+xml', height: null, theme: 'theme4', url: icons.svg, width: null },
      { contentType: 'image/png', height: 120, theme: 'theme4', url: icons.png, width: 120 },
    ],
    label: action.label,
    lightningComponentQualifiedName: null,
    lightningWebComponentQualifiedName: null,
    parameters: [],
    showQuickActionLcHeader: true,
    showQuickActionVfHeader: true,
    targetParentField: action.targetParentField ?? null,
    targetRecordTypeId: creates(action) ? resolveRecordType(target, undefined).id : null,
    targetSobjectType: target.apiName,
    type: action.type,
    visualforcePageName: null,
    visualforcePageUrl: null,
    width: null,
  };
  return { eTag: etagOf(body), ...body };
}

function actionLayout(principal: Principal, action: QuickAction, target: DescribedObject, recordTypeId: string) {
  const layout = buildLayout(
    { id: '', layoutType: 'Full', sections: action.layout },
    {
      objectApiName: target.apiName,
      recordTypeId,
      mode: creates(action) ? 'Create' : 'Edit',
      fieldsByName: target.fieldsByName,
      access: (field) => fieldPermissions(principal, target.apiName, field.apiName),
      canCreate: objectPermissions(principal, target.apiName).create,
    },
  );
  return { ...layout, id: null };
}

/** GET /actions/layout/{actionApiName}: the action's form as a record layout of its target object. */
export async function getQuickActionLayout(
  db: Queryable,
  principal: Principal,
  actionApiName: string,
  query: { objectApiName?: string; recordTypeId?: string },
): Promise<Schemas['RecordLayoutRepresentation']> {
  const org = await describeOrg(db);
  const { action, target } = quickActionFor(org, principal, actionApiName);
  if (query.objectApiName !== undefined) {
    const launchedFrom = readableObjectOf(org, principal, query.objectApiName);
    // An object's action is launched from that object only; a global one from anywhere.
    if (action.contextObject !== 'Global' && launchedFrom.apiName !== action.contextObject) throw notFound();
  }
  const recordType = resolveRecordType(target, query.recordTypeId);
  const layout = actionLayout(principal, action, target, recordType.id);
  return { eTag: etagOf(layout), ...layout };
}

const nameOf = (record: VisibleRecord): string | null => {
  const value = record.row.fields[record.object.definition.nameFields[0] ?? 'Name'];
  return value === null || value === undefined ? null : String(value);
};

/** GET /actions/record-defaults/{actionApiName}: the values the action's form starts with, by field. */
export async function getQuickActionDefaults(
  db: Queryable,
  principal: Principal,
  actionApiName: string,
  query: { optionalFields?: string[]; parentRecordId?: string },
): Promise<Schemas['QuickActionDefaultsRepresentation']> {
  const org = await describeOrg(db);
  const { action, target } = quickActionFor(org, principal, actionApiName);
  if (creates(action) && !mayCreate(principal, target)) {
    throw new PlatformError(
      403,
      'INSUFFICIENT_ACCESS',
      `You don't have permission to create ${target.definition.labelPlural}.`,
    );
  }
  if (
    !creates(action) &&
    (!objectPermissions(principal, target.apiName).edit || !target.definition.flags?.updateable)
  ) {
    throw new PlatformError(
      403,
      'INSUFFICIENT_ACCESS',
      `You don't have permission to edit ${target.definition.labelPlural}.`,
    );
  }
  const parent = await contextRecord(db, org, principal, 'parentRecordId', query.parentRecordId);
  // An update action's record is the one it changes: of the action's object.
  if (parent && !creates(action) && parent.object.apiName !== target.apiName) throw notFound();
  const recordType =
    !creates(action) && parent
      ? resolveRecordType(target, parent.row.record_type_id ?? undefined)
      : resolveRecordType(target, undefined);
  const layoutNames = layoutFieldNames(actionLayout(principal, action, target, recordType.id));
  const predefined = action.predefinedValues ?? {};
  const names = [
    ...new Set([...layoutNames, ...Object.keys(predefined), ...optionalFieldNames(target, query.optionalFields ?? [])]),
  ].filter((name) => target.fieldsByName.has(name) && fieldPermissions(principal, target.apiName, name).read);
  const context = await defaultsContext(db, principal, target, recordType);
  const fields: Record<string, FieldValueRepresentation> = {};
  for (const name of names) {
    const field = target.fieldsByName.get(name)!;
    if (!creates(action) && parent) {
      const value = (parent.row.fields[name] ?? null) as FieldValue;
      fields[name] = { displayValue: displayValueOf(field, value), value };
    } else fields[name] = defaultFieldValue(field, context);
    if (name in predefined)
      fields[name] = { displayValue: displayValueOf(field, predefined[name]), value: predefined[name] };
  }
  // A related record created from its parent points at it: a new Contact from an Account gets its AccountId.
  const parentField = action.targetParentField ? target.fieldsByName.get(action.targetParentField) : undefined;
  if (
    creates(action) &&
    parent &&
    parentField &&
    (parentField.referenceTo ?? []).includes(parent.object.apiName) &&
    fields[parentField.apiName]
  ) {
    fields[parentField.apiName] = { displayValue: nameOf(parent), value: parent.row.id };
  }
  const body = { actionApiName: action.apiName, fields, objectApiName: target.apiName };
  return { eTag: etagOf(body), ...body };
}

type PerformQuickActionInput = Schemas['PerformQuickActionInputRepresentation'];
type QuickActionExecution = Schemas['QuickActionExecutionRepresentation'];

function checkApiName(target: DescribedObject, input: PerformQuickActionInput): void {
  if (input.apiName !== undefined && input.apiName.toLowerCase() !== target.apiName.toLowerCase()) {
    throw new PlatformError(400, 'INVALID_INPUT', `The action writes ${target.apiName} records, not ${input.apiName}`);
  }
}

const nameIn = (
  target: DescribedObject,
  record: { id: string; fields: Record<string, { value?: unknown }> },
): string => {
  const value = record.fields[target.definition.nameFields[0] ?? 'Name']?.value;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : record.id;
};

/** POST /actions/perform-quick-action/{actionApiName}: runs an action that creates a record. */
export async function performQuickAction(
  db: Database,
  principal: Principal,
  actionApiName: string,
  input: PerformQuickActionInput,
  options: { clock?: Clock } = {},
): Promise<QuickActionExecution> {
  const org = await describeOrg(db);
  const { action, target } = quickActionFor(org, principal, actionApiName);
  if (!creates(action))
    throw new PlatformError(400, 'INVALID_INPUT', `${action.apiName} updates a record: run it with PATCH`);
  checkApiName(target, input);
  const context = await contextRecord(db, org, principal, 'contextId', input.contextId);
  if (context && action.contextObject !== 'Global' && context.object.apiName !== action.contextObject) throw notFound();
  const fields: Record<string, FieldValue> = { ...(action.predefinedValues ?? {}) };
  const parentField = action.targetParentField ? target.fieldsByName.get(action.targetParentField) : undefined;
  if (context && parentField && (parentField.referenceTo ?? []).includes(context.object.apiName))
    fields[parentField.apiName] = context.row.id;
  Object.assign(fields, input.fields);
  const record = await createRecord(
    db,
    principal,
    { apiName: target.apiName, fields, allowSaveOnDuplicate: input.allowSaveOnDuplicate },
    { clock: options.clock, beforeWrite: enforceDuplicateRules },
  );
  return {
    contextId: context?.row.id ?? null,
    feedItemId: null,
    id: record.id,
    isCreated: true,
    isSuccess: true,
    successMessage: action.successMessage ?? `${target.definition.label} "${nameIn(target, record)}" was created.`,
  };
}

/** PATCH /actions/perform-quick-action/{actionApiName}: runs an action that updates its context record. */
export async function performUpdateRecordQuickAction(
  db: Database,
  principal: Principal,
  actionApiName: string,
  input: PerformQuickActionInput,
  options: { clock?: Clock } = {},
): Promise<QuickActionExecution> {
  const org = await describeOrg(db);
  const { action, target } = quickActionFor(org, principal, actionApiName);
  if (creates(action))
    throw new PlatformError(400, 'INVALID_INPUT', `${action.apiName} creates a record: run it with POST`);
  checkApiName(target, input);
  if (input.contextId === undefined)
    throw new PlatformError(400, 'MISSING_ARGUMENT', 'contextId is required: the id of the record the action updates');
  const context = (await contextRecord(db, org, principal, 'contextId', input.contextId))!;
  if (context.object.apiName !== target.apiName) throw notFound();
  const fields: Record<string, FieldValue> = { ...(action.predefinedValues ?? {}), ...input.fields };
  const record = await updateRecord(
    db,
    principal,
    context.row.id,
    { fields, allowSaveOnDuplicate: input.allowSaveOnDuplicate },
    { clock: options.clock, beforeWrite: enforceDuplicateRules },
  );
  return {
    contextId: context.row.id,
    feedItemId: null,
    id: record.id,
    isCreated: false,
    isSuccess: true,
    successMessage: action.successMessage ?? `${target.definition.label} "${nameIn(target, record)}" was saved.`,
  };
}
