/**
 * Writing records: create and delete, each in a transaction, and what updates (update.ts) share with them. A write
 * answers with the record as saved.
 */
import type { Clock } from '../../app-options.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import { oncePerDatabase } from '../../cache/per-database.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { makeId, toId18 } from '../core/ids.ts';
import { noteRecordUsed } from './mru.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { canDeleteRecord, canSeeRecord } from './access.ts';
import { fieldNamed } from './field-paths.ts';
import { readRecord } from './read.ts';
import type { RecordRepresentation, RecordRow } from './representation.ts';
import { millisOf, RECORD_COLUMNS } from './representation.ts';
import { autoNumberText, derivedValues, type FieldValue, type PicklistRule, type ValueContext } from './values.ts';
import {
  checkWrite,
  recordError,
  recordTypeForCreate,
  recordWriteError,
  RecordWriteError,
  WRITE_FAILED_MESSAGE,
  writableByDefinition,
  type RecordExceptionError,
  type WriteCheck,
} from './write-rules.ts';

export interface RecordInput {
  apiName?: string | null;
  fields: Record<string, FieldValue>;
  allowSaveOnDuplicate?: boolean;
}

export interface WriteOptions {
  clock?: Clock;
  /** Whether the answer also holds the fields sent (besides the Full layout's). */
  includeFieldsInBody?: boolean;
}

export const insufficientAccess = (what: string) =>
  new PlatformError(403, 'INSUFFICIENT_ACCESS_OR_READONLY', `You don't have permission to ${what}.`);

/** Every record type's picklist rules, by `object/recordTypeId`, then by field: read once per database handle. */
const picklistRules = oncePerDatabase(async (db) => {
  const { rows } = await db.query<{
    object_api_name: string;
    record_type_id: string;
    field_api_name: string;
    value: string;
    valid_for: string[] | null;
    is_default: boolean;
  }>('SELECT object_api_name, record_type_id, field_api_name, value, valid_for, is_default FROM picklist_value');
  const byRecordType = new Map<string, Map<string, PicklistRule>>();
  for (const row of rows) {
    const key = `${row.object_api_name}/${row.record_type_id}`;
    let picklists = byRecordType.get(key);
    if (!picklists) byRecordType.set(key, (picklists = new Map()));
    let rule = picklists.get(row.field_api_name);
    if (!rule)
      picklists.set(row.field_api_name, (rule = { values: new Set<string>(), validFor: new Map<string, string[]>() }));
    rule.values.add(row.value);
    rule.validFor.set(row.value, row.valid_for ?? []);
    if (row.is_default) rule.defaultValue = row.value;
  }
  return byRecordType;
});

/** The value context of each object and record type, as everyContext gives it. */
export type ValueContextOf = (object: DescribedObject, recordTypeId: string) => ValueContext;

/**
 * The picklist values and key prefixes writes of each object and record type are checked against, from the
 * picklist rules kept per database (no query once they are read).
 */
export async function everyContext(db: Queryable, org: OrgDescribe): Promise<ValueContextOf> {
  const rules = await picklistRules(db);
  return (object, recordTypeId) => ({
    picklists: rules.get(`${object.apiName}/${recordTypeId}`) ?? new Map<string, PicklistRule>(),
    keyPrefixes: org.keyPrefixes,
  });
}

/** The value context of one object and record type. */
export async function valueContext(
  db: Queryable,
  org: OrgDescribe,
  object: DescribedObject,
  recordTypeId: string,
): Promise<ValueContext> {
  return (await everyContext(db, org))(object, recordTypeId);
}

/** The ids a record's reference fields name. */
export function referencedIds(object: DescribedObject, values: Record<string, FieldValue>): string[] {
  return Object.entries(values).flatMap(([name, value]) =>
    object.fieldsByName.get(name)?.dataType === 'Reference' && typeof value === 'string' ? [value] : [],
  );
}

/**
 * The errors of the reference fields that do not name a record of the right object that the caller may see,
 * by field; `targets` holds the records named that exist, by id.
 */
export function referenceErrors(
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  values: Record<string, FieldValue>,
  targets: Map<string, RecordRow>,
): Record<string, RecordExceptionError[]> {
  const fieldErrors: Record<string, RecordExceptionError[]> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = object.fieldsByName.get(name);
    if (field?.dataType !== 'Reference' || typeof value !== 'string') continue;
    const row = targets.get(value);
    const target = row ? org.objects.get(row.object_api_name) : undefined;
    if (
      !row ||
      !target ||
      !(field.referenceTo ?? []).includes(target.apiName) ||
      !canSeeRecord(principal, target, row)
    ) {
      fieldErrors[name] = [
        recordError('INVALID_CROSS_REFERENCE_KEY', `${field.label}: id value of incorrect type: ${value}`, field),
      ];
    }
  }
  return fieldErrors;
}

/** References must name records that exist, of the right object, that the caller may see. */
export async function checkReferences(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  values: Record<string, FieldValue>,
): Promise<void> {
  const targets = new Map<string, RecordRow>();
  for (const id of referencedIds(object, values)) {
    const { rows } = await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM record WHERE id = $1`, [id]);
    if (rows[0]) targets.set(id, rows[0]);
  }
  const fieldErrors = referenceErrors(org, principal, object, values, targets);
  if (Object.keys(fieldErrors).length > 0)
    throw new RecordWriteError({
      enhancedErrorType: 'RecordError',
      message: WRITE_FAILED_MESSAGE,
      output: { errors: [], fieldErrors },
    });
}

/** The readable object named by a create, or the error a create of an unknown object answers with. */
export function objectToCreate(
  org: OrgDescribe,
  principal: Principal,
  apiName: string | null | undefined,
): DescribedObject {
  const object = apiName ? org.byLowerName.get(apiName.toLowerCase()) : undefined;
  if (!object || !objectPermissions(principal, object.apiName).read) {
    throw recordWriteError(
      'INVALID_TYPE',
      apiName
        ? `Cannot create a record of type '${apiName}': no such object`
        : 'apiName is required to create a record',
    );
  }
  if (!objectPermissions(principal, object.apiName).create || !object.definition.flags?.createable)
    throw insufficientAccess(`create ${object.definition.labelPlural}`);
  return object;
}

/**
 * The values a create stores, its fields checked (checkWrite) with the record type's picklist defaults, a
 * checkbox not given false and the caller as the owner when none is given; throws RecordWriteError. Pure: the
 * references and the duplicate rules are checked apart (insertRecord; an import's dry run, in bulk).
 */
export function createValues(
  principal: Principal,
  object: DescribedObject,
  fields: Record<string, FieldValue>,
  context: ValueContext,
): Record<string, FieldValue> {
  const defaults = picklistDefaults(object, fields, context);
  // The defaults count as the record's values for the required-field and dependency checks.
  const { values } = checkWrite(principal, object, 'create', fields, context, defaults);
  for (const [name, value] of Object.entries(defaults)) if (!(name in values)) values[name] = value;
  for (const field of object.fields) {
    if (field.dataType === 'Boolean' && !(field.apiName in values) && !field.calculated && !field.formula)
      values[field.apiName] = false;
  }
  if (object.fieldsByName.has('OwnerId') && !values.OwnerId) values.OwnerId = principal.userId;
  return values;
}

/**
 * Creates a record of a record type inside a transaction; returns its id. The caller checked the object
 * (objectToCreate), chose the record type and took RecordTypeId out of the fields (recordTypeForCreate), and
 * read the record type's value context.
 */
export async function insertRecord(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  recordTypeId: string,
  fields: Record<string, FieldValue>,
  context: ValueContext,
  now: Date,
  check: WriteCheck,
): Promise<string> {
  if ('Id' in fields)
    throw recordWriteError('INVALID_FIELD_FOR_INSERT_UPDATE', 'A record to create must not have an Id');
  const values = createValues(principal, object, fields, context);
  await checkReferences(q, org, principal, object, values);
  await check.beforeWrite(q, principal, object, 'create', values, check);
  const { rows } = await q.query<{ last_value: string | number }>(
    `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, 1)
     ON CONFLICT (key_prefix) DO UPDATE SET last_value = id_sequence.last_value + 1 RETURNING last_value`,
    [object.definition.keyPrefix],
  );
  const sequence = Number(rows[0].last_value);
  for (const field of object.fields) {
    if (typeof field.autoNumber === 'string') values[field.apiName] = autoNumberText(field.autoNumber, sequence);
  }
  Object.assign(values, derivedValues(object.fields, values));
  const id = makeId(object.definition.keyPrefix, sequence);
  await q.query(
    `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $5, $6, $5)`,
    [id, object.apiName, recordTypeId, JSON.stringify(values), now.toISOString(), principal.userId],
  );
  await noteRecordUsed(q, principal, id, object.apiName);
  return id;
}

/**
 * The default values of the picklists a new record does not name, for its record type, as the platform
 * applies them on insert (whatever the caller's field permissions, as with any default). A dependent
 * picklist's default applies only when it is valid for its controlling field's value.
 */
export function picklistDefaults(
  object: DescribedObject,
  input: Record<string, FieldValue>,
  context: ValueContext,
): Record<string, FieldValue> {
  const given = new Map(
    Object.entries(input).map(([name, value]) => [fieldNamed(object, name)?.apiName ?? name, value]),
  );
  const defaults: Record<string, FieldValue> = {};
  const candidates = object.fields.filter(
    (field) =>
      (field.dataType === 'Picklist' || field.dataType === 'MultiPicklist') &&
      writableByDefinition(field, 'create') &&
      !given.has(field.apiName),
  );
  // Controlling fields first, so that a dependent default is checked against the controller's value, given or defaulted.
  for (const field of [
    ...candidates.filter((candidate) => !candidate.controllerName),
    ...candidates.filter((candidate) => candidate.controllerName),
  ]) {
    const value = context.picklists.get(field.apiName)?.defaultValue;
    if (value === undefined) continue;
    const validFor = context.picklists.get(field.apiName)?.validFor.get(value) ?? [];
    if (field.controllerName && validFor.length > 0) {
      const controlling = defaults[field.controllerName] ?? given.get(field.controllerName);
      if (typeof controlling !== 'string' || !validFor.includes(controlling)) continue;
    }
    defaults[field.apiName] = value;
  }
  return defaults;
}

/** A record the caller may see, with its object; throws 404 for one that does not exist or that the caller may not see. */
export function visibleRecord(
  org: OrgDescribe,
  principal: Principal,
  row: RecordRow | undefined,
): { row: RecordRow; object: DescribedObject } {
  const object = row ? org.objects.get(row.object_api_name) : undefined;
  if (!row || !object || !canSeeRecord(principal, object, row)) throw notFound();
  return { row, object };
}

/** Locks a record for a change and checks the caller may see it; throws 404 otherwise. */
export async function lockVisible(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  id: string,
): Promise<{ row: RecordRow; object: DescribedObject }> {
  const { rows } = await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM record WHERE id = $1 FOR UPDATE`, [id], {
    prepareAs: 'record_lock_by_id',
  });
  return visibleRecord(org, principal, rows[0]);
}

export const noRightsOnRecord = () =>
  recordWriteError('INSUFFICIENT_ACCESS_OR_READONLY', 'insufficient access rights on object id');

/** Whether a record changed after an HTTP date (which has whole seconds). */
export function changedSince(lastModified: Date | string, ifUnmodifiedSince: Date): boolean {
  return Math.floor(millisOf(lastModified) / 1000) * 1000 > ifUnmodifiedSince.getTime();
}

/** Deletes a record inside a transaction; lookups that pointed at it are cleared. */
export async function deleteRow(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  id: string,
  now: Date,
): Promise<void> {
  const { row, object } = await lockVisible(q, org, principal, id);
  if (!objectPermissions(principal, object.apiName).delete || !object.definition.flags?.deletable)
    throw insufficientAccess(`delete ${object.definition.labelPlural}`);
  if (!canDeleteRecord(principal, object, row)) throw noRightsOnRecord();
  for (const child of org.objects.values()) {
    for (const field of child.fields) {
      if (
        field.dataType !== 'Reference' ||
        !(field.referenceTo ?? []).includes(object.apiName) ||
        !(field.createable !== false || field.updateable !== false)
      )
        continue;
      await q.query(
        `UPDATE record SET fields = fields || jsonb_build_object($2::text, null),
           system_modstamp = GREATEST($4::timestamptz, system_modstamp + interval '1 millisecond')
         WHERE object_api_name = $1 AND fields ->> $2 = $3`,
        [child.apiName, field.apiName, id, now.toISOString()],
      );
    }
  }
  // Who deleted it and when, for its "deleted" history row (migration 027), since a deleted row names neither: set
  // for the transaction by the statement itself, before its row goes (the condition is evaluated for the row).
  await q.query(
    `DELETE FROM record WHERE id = $1
       AND (SELECT set_config('app.user_id', $2, true) || set_config('app.changed_at', $3, true)) IS NOT NULL`,
    [id, principal.userId, now.toISOString()],
  );
}

export const nowOf = (options: WriteOptions) => new Date(options.clock?.now() ?? Date.now());

/** The record as a write answers with it: the Full layout's fields in View mode, and the fields sent if asked. */
export function readWritten(
  db: Database,
  principal: Principal,
  id: string,
  object: DescribedObject,
  sent: string[],
  options: WriteOptions,
  saved?: RecordRow,
): Promise<RecordRepresentation> {
  const optionalFields = options.includeFieldsInBody
    ? sent.filter((name) => name !== 'Id').map((name) => `${object.apiName}.${name}`)
    : [];
  return readRecord(db, principal, id, { layoutTypes: ['Full'], modes: ['View'], optionalFields }, saved);
}

/** POST /records: creates a record and returns it as saved, once beforeWrite has let it. */
export async function createRecord(
  db: Database,
  principal: Principal,
  input: RecordInput,
  options: WriteOptions & Pick<WriteCheck, 'beforeWrite'>,
): Promise<RecordRepresentation> {
  const org = await describeOrg(db);
  const object = objectToCreate(org, principal, input.apiName);
  const { recordTypeId, fields } = recordTypeForCreate(object, input.fields);
  const context = await valueContext(db, org, object, recordTypeId);
  const id = await db.transaction((tx) =>
    insertRecord(tx, org, principal, object, recordTypeId, fields, context, nowOf(options), {
      beforeWrite: options.beforeWrite,
      allowSaveOnDuplicate: input.allowSaveOnDuplicate,
    }),
  );
  return readWritten(db, principal, id, object, Object.keys(input.fields), options);
}

export function recordIdOf(id: string): string {
  const id18 = toId18(id);
  if (!id18) throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${id} is not a valid record ID.`);
  return id18;
}

/** DELETE /records/{recordId}. */
export async function deleteRecord(
  db: Database,
  principal: Principal,
  recordId: string,
  options: WriteOptions = {},
): Promise<void> {
  const id = recordIdOf(recordId);
  const org = await describeOrg(db);
  await db.transaction((tx) => deleteRow(tx, org, principal, id, nowOf(options)));
}
