/**
 * Which fields a create or an update may set, and the record-error output of a write that fails
 * ({enhancedErrorType: 'RecordError', message, output: {errors, fieldErrors}}). Pure functions.
 */
import type { Queryable } from '../../db/connection.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { DescribedObject } from '../core/describe.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../core/ids.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { fieldPermissions, type Principal } from '../core/principal.ts';
import { fieldNamed } from './field-paths.ts';
import { dependencyError, normaliseValue, type FieldValue, type ValueContext, type ValueError } from './values.ts';

export type WriteKind = 'create' | 'update';

/**
 * A check of a record about to be created or updated, beyond its fields' own rules: the org's duplicate rules
 * (duplicates/match.ts's enforceDuplicateRules), which records/ does not know of. Whoever writes records gives
 * it (a route, a quick action); it throws to refuse the write.
 */
type BeforeWrite = (
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  kind: WriteKind,
  values: Record<string, FieldValue>,
  options: { allowSaveOnDuplicate?: boolean; excludeId?: string; changedFields?: string[] },
) => Promise<void>;

/** The check a write passes before it is made, and whether it may save a record the duplicate rules only alert on. */
export interface WriteCheck {
  beforeWrite: BeforeWrite;
  allowSaveOnDuplicate?: boolean;
}

export interface RecordExceptionError {
  constituentField: string | null;
  /** The duplicates found, on a DUPLICATES_DETECTED error (server/platform/duplicates). */
  duplicateRecordError: Schemas['DuplicateRecordErrorRepresentation'] | null;
  errorCode: string;
  field: string | null;
  fieldLabel: string | null;
  message: string;
}

interface RecordErrorBody {
  enhancedErrorType: 'RecordError';
  message: string;
  output: { errors: RecordExceptionError[]; fieldErrors: Record<string, RecordExceptionError[]> };
}

export const WRITE_FAILED_MESSAGE = 'An error occurred while trying to update the record. Please try again.';

/** A write that failed on the record or its fields: 400 with the record-error output. */
export class RecordWriteError extends Error {
  readonly status = 400;
  constructor(readonly body: RecordErrorBody) {
    super(body.output.errors[0]?.message ?? Object.values(body.output.fieldErrors)[0]?.[0]?.message ?? body.message);
  }

  /** The errors as the platform's error list (a batch item's result). */
  toErrorList(): { errorCode: string; message: string; fields?: string[] }[] {
    const list: { errorCode: string; message: string; fields?: string[] }[] = this.body.output.errors.map((error) =>
      error.field
        ? { errorCode: error.errorCode, message: error.message, fields: [error.field] }
        : { errorCode: error.errorCode, message: error.message },
    );
    for (const [field, errors] of Object.entries(this.body.output.fieldErrors)) {
      for (const error of errors) list.push({ errorCode: error.errorCode, message: error.message, fields: [field] });
    }
    return list;
  }
}

export const recordError = (
  errorCode: string,
  message: string,
  field: FieldDefinition | null = null,
): RecordExceptionError => ({
  constituentField: null,
  duplicateRecordError: null,
  errorCode,
  field: field?.apiName ?? null,
  fieldLabel: field?.label ?? null,
  message,
});

/** A write failure about the record as a whole. */
export const recordWriteError = (errorCode: string, message: string) =>
  new RecordWriteError({
    enhancedErrorType: 'RecordError',
    message: WRITE_FAILED_MESSAGE,
    output: { errors: [recordError(errorCode, message)], fieldErrors: {} },
  });

/** Whether the field may be given a value by this kind of write, by its definition alone. */
export function writableByDefinition(field: FieldDefinition, kind: WriteKind): boolean {
  if (field.calculated || field.autoNumber || field.formula || field.compoundOf) return false;
  return kind === 'create' ? field.createable !== false : field.updateable !== false;
}

/** Whether the caller may set the field in this kind of write: its definition and the caller's field permission. */
export function writableBy(
  principal: Principal,
  object: DescribedObject,
  field: FieldDefinition,
  kind: WriteKind,
): boolean {
  return writableByDefinition(field, kind) && fieldPermissions(principal, object.apiName, field.apiName).edit;
}

interface CheckedWrite {
  /** The values to store, by canonical API name, normalised. */
  values: Record<string, FieldValue>;
}

const isBlank = (value: FieldValue | undefined) => value === undefined || value === null || value === '';

/**
 * Checks the fields of a create or update body against the object, the caller's rights and the data types.
 * `existing` holds the record's stored values (update) so that required fields and dependent picklists are
 * checked on the result. Throws RecordWriteError listing every problem; returns the values to write.
 * An `Id` entry is left to the caller (an update compares it with the path).
 */
export function checkWrite(
  principal: Principal,
  object: DescribedObject,
  kind: WriteKind,
  input: Record<string, FieldValue>,
  context: ValueContext,
  existing: Record<string, FieldValue> = {},
): CheckedWrite {
  const errors: RecordExceptionError[] = [];
  const fieldErrors: Record<string, RecordExceptionError[]> = {};
  const addFieldError = (field: FieldDefinition, error: ValueError) => {
    (fieldErrors[field.apiName] ??= []).push(recordError(error.errorCode, error.message, field));
  };
  const values: Record<string, FieldValue> = {};
  for (const [name, raw] of Object.entries(input)) {
    if (name === 'Id' && kind === 'update') continue;
    const field = fieldNamed(object, name);
    if (!field || !fieldPermissions(principal, object.apiName, field.apiName).read) {
      errors.push(recordError('INVALID_FIELD', `No such column '${name}' on sobject of type ${object.apiName}`));
      continue;
    }
    if (!writableBy(principal, object, field, kind)) {
      const verb = kind === 'create' ? 'create' : 'update';
      addFieldError(field, {
        errorCode: 'INVALID_FIELD_FOR_INSERT_UPDATE',
        message: `Unable to ${verb} fields: ${field.apiName}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`,
      });
      continue;
    }
    const checked = normaliseValue(field, raw, context);
    if ('error' in checked) addFieldError(field, checked.error);
    else values[field.apiName] = checked.value;
  }
  const after = { ...existing, ...values };
  for (const field of object.fields) {
    if (fieldErrors[field.apiName]) continue;
    const touched = field.apiName in values;
    // A record always has an owner: a new one gets the caller when none is given (write.ts), and an update may
    // give it another, never none, though the field is not `required` (it has that default).
    const mustHaveValue = field.required || (field.apiName === 'OwnerId' && kind === 'update');
    if (
      mustHaveValue &&
      writableByDefinition(field, kind) &&
      (kind === 'create' || touched) &&
      isBlank(after[field.apiName])
    ) {
      addFieldError(field, {
        errorCode: 'REQUIRED_FIELD_MISSING',
        message: `Required fields are missing: [${field.label}]`,
      });
      continue;
    }
    const dependentTouched = touched || (field.controllerName !== undefined && field.controllerName in values);
    const dependency = dependentTouched ? dependencyError(field, after, context) : null;
    if (dependency) addFieldError(field, dependency);
  }
  if (errors.length > 0 || Object.keys(fieldErrors).length > 0) {
    throw new RecordWriteError({
      enhancedErrorType: 'RecordError',
      message: WRITE_FAILED_MESSAGE,
      output: { errors, fieldErrors },
    });
  }
  return { values };
}

const RECORD_TYPE_FIELD = 'RecordTypeId';

/** Whether records of the object choose among record types of their own (not only the master record type). */
const hasRecordTypes = (object: DescribedObject) => object.recordTypes.some((type) => !type.isMaster);

/** The record type a new record gets when it names none: the object's default one, or the master record type. */
function defaultRecordTypeId(object: DescribedObject): string {
  return (
    (
      object.recordTypes.find((type) => type.isDefault) ??
      object.recordTypes.find((type) => type.isMaster) ??
      object.recordTypes[0]
    )?.id ?? MASTER_RECORD_TYPE_ID
  );
}

const recordTypeError = (errorCode: string, message: string) =>
  new RecordWriteError({
    enhancedErrorType: 'RecordError',
    message: WRITE_FAILED_MESSAGE,
    output: {
      errors: [],
      fieldErrors: {
        [RECORD_TYPE_FIELD]: [
          { ...recordError(errorCode, message), field: RECORD_TYPE_FIELD, fieldLabel: 'Record Type ID' },
        ],
      },
    },
  });

/**
 * The record type of a record being created and the other fields of its body. On an object with record types
 * the body may name one of its available record types in RecordTypeId (15 or 18 characters); without it the
 * record gets the default record type. On an object with none, RecordTypeId is left in the fields, where it is
 * the unknown field it is on the platform.
 */
export function recordTypeForCreate(
  object: DescribedObject,
  fields: Record<string, FieldValue>,
): { recordTypeId: string; fields: Record<string, FieldValue> } {
  const key = hasRecordTypes(object)
    ? Object.keys(fields).find((name) => name.toLowerCase() === RECORD_TYPE_FIELD.toLowerCase())
    : undefined;
  if (key === undefined) return { recordTypeId: defaultRecordTypeId(object), fields };
  const { [key]: raw, ...rest } = fields;
  if (raw === null || raw === '') return { recordTypeId: defaultRecordTypeId(object), fields: rest };
  const id = typeof raw === 'string' ? toId18(raw) : null;
  const type = id ? object.recordTypes.find((candidate) => candidate.id === id) : undefined;
  if (!type?.available || type.isMaster) {
    throw recordTypeError(
      'INVALID_CROSS_REFERENCE_KEY',
      `Record Type ID: this ID value isn't valid for the user: ${String(raw)}`,
    );
  }
  return { recordTypeId: type.id, fields: rest };
}

/**
 * The fields of an update body without RecordTypeId, which may only repeat the record's record type: changing
 * the record type of an existing record is not supported.
 */
export function withoutRecordType(
  object: DescribedObject,
  fields: Record<string, FieldValue>,
  current: string,
): Record<string, FieldValue> {
  const key = hasRecordTypes(object)
    ? Object.keys(fields).find((name) => name.toLowerCase() === RECORD_TYPE_FIELD.toLowerCase())
    : undefined;
  if (key === undefined) return fields;
  const { [key]: raw, ...rest } = fields;
  if (typeof raw === 'string' && toId18(raw) === current) return rest;
  throw recordTypeError(
    'INVALID_FIELD_FOR_INSERT_UPDATE',
    `Unable to update fields: ${RECORD_TYPE_FIELD}. The record type of an existing record cannot be changed.`,
  );
}
