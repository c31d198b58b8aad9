/**
 * What a form needs before a record exists: the defaults to create one (Create layout, a record holding the
 * default values, object infos), the lighter create template (no layout, only the fields asked for), the
 * clone template (a copy of an existing record's createable values), and the clone defaults (the create
 * defaults' shape, holding such a copy).
 */
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type DescribedRecordType } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';
import { PlatformError } from '../core/errors.ts';
import { getLayout, layoutFieldPaths, readableObject, resolveRecordType } from '../layouts/layouts.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { fieldPermissions, objectPermissions, type Principal } from '../core/principal.ts';
import { objectInfosOf, objectsInvolved } from './record-ui.ts';
import { parseFieldPath, withinDepth } from '../records/field-paths.ts';
import { readRecord } from '../records/read.ts';
import { recordTypeInfoOf, type FieldValueRepresentation } from '../records/representation.ts';
import { displayValueOf, type FieldValue } from '../records/values.ts';
import { writableBy } from '../records/write-rules.ts';

interface DefaultsQuery {
  optionalFields?: string[];
  recordTypeId?: string;
  formFactor?: string;
}

/** What the default values of a new record depend on besides the field's own definition. */
export interface DefaultsContext {
  userId: string;
  userName: string | null;
  recordTypeId: string;
  /** The default value of each picklist field for the record type. */
  picklistDefaults: ReadonlyMap<string, string>;
}

/** The value a field of a new record starts with: the owner is the caller, picklists their default, checkboxes false. */
export function defaultFieldValue(field: FieldDefinition, context: DefaultsContext): FieldValueRepresentation {
  if (field.apiName === 'OwnerId') return { displayValue: context.userName, value: context.userId };
  if (field.apiName === 'RecordTypeId') return { displayValue: null, value: context.recordTypeId };
  const declared = field.defaultValue;
  let value: FieldValue = null;
  if (field.dataType === 'Picklist' || field.dataType === 'MultiPicklist')
    value = context.picklistDefaults.get(field.apiName) ?? null;
  else if (field.dataType === 'Boolean') value = typeof declared === 'boolean' ? declared : false;
  else if (typeof declared === 'string' || typeof declared === 'number') value = declared;
  return { displayValue: displayValueOf(field, value), value };
}

/**
 * The field names of an object that optional field paths name directly (`Object.Field`), as far as the
 * object has them; other objects' paths, relationship paths and paths too deep are left out.
 */
export function optionalFieldNames(object: DescribedObject, paths: string[]): string[] {
  const names: string[] = [];
  for (const text of paths) {
    const path = parseFieldPath(text);
    if (
      !path ||
      !withinDepth(path) ||
      path.names.length !== 1 ||
      path.objectApiName.toLowerCase() !== object.apiName.toLowerCase()
    )
      continue;
    const field = object.fields.find((candidate) => candidate.apiName.toLowerCase() === path.names[0].toLowerCase());
    if (field && !names.includes(field.apiName)) names.push(field.apiName);
  }
  return names;
}

/** A record not yet created: the RecordCreateDefaultRecordRepresentation shape, with its eTag. */
export function newRecordRepresentation(
  object: DescribedObject,
  recordTypeId: string,
  fields: Record<string, FieldValueRepresentation>,
) {
  const body = {
    apiName: object.apiName,
    childRelationships: {},
    fields,
    id: null,
    lastModifiedById: null,
    lastModifiedDate: null,
    recordTypeId,
    recordTypeInfo: recordTypeInfoOf(object, recordTypeId),
    systemModstamp: null,
    weakEtag: 0,
  };
  return { eTag: etagOf(body), ...body };
}

/** An object the caller may create records of; one it may only read answers 403, one it may not read 404. */
async function creatableObject(db: Queryable, principal: Principal, objectApiName: string): Promise<DescribedObject> {
  const object = await readableObject(db, principal, objectApiName);
  if (!objectPermissions(principal, object.apiName).create || !object.definition.flags?.createable) {
    throw new PlatformError(
      403,
      'INSUFFICIENT_ACCESS',
      `You don't have permission to create ${object.definition.labelPlural}.`,
    );
  }
  return object;
}

export async function defaultsContext(
  db: Queryable,
  principal: Principal,
  object: DescribedObject,
  recordType: DescribedRecordType,
): Promise<DefaultsContext> {
  const { rows } = await db.query<{ field_api_name: string; value: string }>(
    'SELECT field_api_name, value FROM picklist_value WHERE object_api_name = $1 AND record_type_id = $2 AND is_default ORDER BY position',
    [object.apiName, recordType.id],
  );
  const user = await db.query<{ name: string | null }>(`SELECT fields ->> 'Name' AS name FROM record WHERE id = $1`, [
    principal.userId,
  ]);
  const picklistDefaults = new Map<string, string>();
  for (const row of rows)
    if (!picklistDefaults.has(row.field_api_name)) picklistDefaults.set(row.field_api_name, row.value);
  return {
    userId: principal.userId,
    userName: user.rows[0]?.name ?? null,
    recordTypeId: recordType.id,
    picklistDefaults,
  };
}

const readable = (principal: Principal, object: DescribedObject) => (name: string) =>
  fieldPermissions(principal, object.apiName, name).read;

function defaultFields(
  object: DescribedObject,
  names: string[],
  context: DefaultsContext,
): Record<string, FieldValueRepresentation> {
  return Object.fromEntries(names.map((name) => [name, defaultFieldValue(object.fieldsByName.get(name)!, context)]));
}

async function objectInfosFor(db: Queryable, principal: Principal, object: DescribedObject, fieldNames: string[]) {
  const org = await describeOrg(db);
  return objectInfosOf(
    org,
    principal,
    objectsInvolved(org, principal, [object], () => fieldNames),
  );
}

/** GET /record-defaults/create/{objectApiName}: the Create layout, the new record's defaults and the object infos. */
export async function getRecordCreateDefaults(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: DefaultsQuery = {},
) {
  const object = await creatableObject(db, principal, objectApiName);
  const recordType = resolveRecordType(object, query.recordTypeId);
  const layout = await getLayout(db, principal, object.apiName, {
    layoutType: 'Full',
    mode: 'Create',
    recordTypeId: recordType.id,
  });
  const layoutNames = (await layoutFieldPaths(db, object.apiName, recordType.id, 'Full', 'Create')).map((path) =>
    path.slice(object.apiName.length + 1),
  );
  const names = [...new Set([...layoutNames, ...optionalFieldNames(object, query.optionalFields ?? [])])].filter(
    readable(principal, object),
  );
  const context = await defaultsContext(db, principal, object, recordType);
  return {
    layout,
    objectInfos: await objectInfosFor(db, principal, object, names),
    record: newRecordRepresentation(object, recordType.id, defaultFields(object, names, context)),
  };
}

/** GET /record-defaults/template/create/{objectApiName}: the defaults of the optional fields asked for, without layout. */
export async function getRecordTemplateCreate(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: DefaultsQuery = {},
) {
  const object = await creatableObject(db, principal, objectApiName);
  const recordType = resolveRecordType(object, query.recordTypeId);
  const names = optionalFieldNames(object, query.optionalFields ?? []).filter(readable(principal, object));
  const context = await defaultsContext(db, principal, object, recordType);
  return {
    objectInfos: await objectInfosFor(db, principal, object, names),
    record: { apiName: object.apiName, fields: defaultFields(object, names, context), recordTypeId: recordType.id },
  };
}

/** The record to clone, which the caller may see, of an object whose records the caller may create. */
async function cloneSource(db: Queryable, principal: Principal, recordId: string) {
  const source = await readRecord(db, principal, recordId, { optionalFields: [] });
  const org = await describeOrg(db);
  const object = org.objects.get(source.apiName)!;
  if (!objectPermissions(principal, object.apiName).create || !object.definition.flags?.createable) {
    throw new PlatformError(
      403,
      'INSUFFICIENT_ACCESS',
      `You don't have permission to create ${object.definition.labelPlural}.`,
    );
  }
  return { source, object };
}

/** The fields among names the caller may read and set on a new record. */
const clonableBy = (principal: Principal, object: DescribedObject) => (name: string) =>
  readable(principal, object)(name) && writableBy(principal, object, object.fieldsByName.get(name)!, 'create');

/**
 * The source record's values of the named fields for its copy: the owner is the caller, the record type the
 * one asked for, a relationship's nested record left out (its id stays in the lookup field).
 */
async function cloneFieldValues(
  db: Queryable,
  principal: Principal,
  object: DescribedObject,
  sourceId: string,
  names: string[],
  recordTypeId: string,
) {
  const record = await readRecord(db, principal, sourceId, {
    optionalFields: names.map((name) => `${object.apiName}.${name}`),
  });
  const fields: Record<string, FieldValueRepresentation> = {};
  for (const name of names) {
    if (name === 'OwnerId') {
      const user = await db.query<{ name: string | null }>(
        `SELECT fields ->> 'Name' AS name FROM record WHERE id = $1`,
        [principal.userId],
      );
      fields[name] = { displayValue: user.rows[0]?.name ?? null, value: principal.userId };
    } else if (name === 'RecordTypeId') {
      fields[name] = { displayValue: null, value: recordTypeId };
    } else {
      const value = record.fields[name];
      fields[name] = value
        ? {
            displayValue: value.displayValue,
            value: typeof value.value === 'object' && value.value !== null ? null : value.value,
          }
        : { displayValue: null, value: null };
    }
  }
  return fields;
}

/**
 * GET /record-defaults/template/clone/{recordId}: the source record's values of the fields a new record may
 * be given (the optional fields asked for, or every such field), owned by the caller, and CloneSourceId, the
 * source's id. Formulas, auto-numbers and system fields are left out: a copy gets its own.
 */
export async function getRecordTemplateClone(
  db: Queryable,
  principal: Principal,
  recordId: string,
  query: DefaultsQuery = {},
) {
  const { source, object } = await cloneSource(db, principal, recordId);
  const recordType = resolveRecordType(object, query.recordTypeId ?? source.recordTypeId ?? undefined);
  const asked = query.optionalFields?.length
    ? optionalFieldNames(object, query.optionalFields)
    : object.fields.map((field) => field.apiName);
  const names = asked.filter(clonableBy(principal, object));
  return {
    objectInfos: await objectInfosFor(db, principal, object, names),
    record: {
      apiName: object.apiName,
      cloneSourceId: source.id,
      fields: {
        ...(await cloneFieldValues(db, principal, object, source.id, names, recordType.id)),
        // As every answer of the platform has it: the record the copy is made from.
        CloneSourceId: { displayValue: null, value: source.id },
      },
      recordTypeId: recordType.id,
    },
  };
}

/**
 * GET /record-defaults/clone/{recordId}: what a form needs to clone a record, shaped as the create defaults —
 * the create layout in Clone mode, a record not yet created holding the source's values of the layout's
 * fields and of the optional fields asked for (those a new record may be given, owned by the caller), and the
 * object infos.
 */
export async function getRecordCloneDefaults(
  db: Queryable,
  principal: Principal,
  recordId: string,
  query: DefaultsQuery = {},
) {
  const { source, object } = await cloneSource(db, principal, recordId);
  const recordType = resolveRecordType(object, query.recordTypeId ?? source.recordTypeId ?? undefined);
  // The form of a copy is the create form: the same layout, reported in the mode the platform names Clone.
  const { eTag: _createETag, ...createLayout } = await getLayout(db, principal, object.apiName, {
    layoutType: 'Full',
    mode: 'Create',
    recordTypeId: recordType.id,
  });
  const cloneLayout = { ...createLayout, mode: 'Clone' as const };
  const layoutNames = (await layoutFieldPaths(db, object.apiName, recordType.id, 'Full', 'Create')).map((path) =>
    path.slice(object.apiName.length + 1),
  );
  const names = [...new Set([...layoutNames, ...optionalFieldNames(object, query.optionalFields ?? [])])].filter(
    clonableBy(principal, object),
  );
  return {
    layout: { eTag: etagOf(cloneLayout), ...cloneLayout },
    objectInfos: await objectInfosFor(db, principal, object, names),
    record: newRecordRepresentation(
      object,
      recordType.id,
      await cloneFieldValues(db, principal, object, source.id, names, recordType.id),
    ),
  };
}
