/**
 * Fields as SQL values. Every object's records share one table: field values live in `fields jsonb`, the
 * system fields in columns. A field's value is read with the type its metadata gives it (numbers as
 * numeric, dates as date, date-times as timestamptz ...), so that comparisons and ordering follow the
 * field's type rather than its text. A parent's fields (Account.Name from a Contact) are read by a scalar
 * subquery: no parent, or one the caller may not see, reads as null.
 */
import { PlatformError } from '../core/errors.ts';
import type { DescribedObject } from '../core/describe.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { fieldRepresentation } from '../object-info/object-info.ts';
import { fieldNamed, invalidField, MAX_INTERMEDIATE_LEVELS, relationshipNamed } from '../records/field-paths.ts';
import { cut } from './errors.ts';
import { jsonKey, type RowCondition, type SqlParameters } from './sql.ts';
import type { QueryTarget } from './target.ts';

/** How a field's values compare. Types not listed (Base64, Address, Location ...) cannot be compared at all. */
export type ValueKind = 'text' | 'id' | 'number' | 'boolean' | 'date' | 'datetime' | 'multipicklist';

const KIND_BY_DATA_TYPE: Record<string, ValueKind> = {
  String: 'text',
  TextArea: 'text',
  LongTextArea: 'text',
  Phone: 'text',
  Email: 'text',
  Url: 'text',
  Picklist: 'text',
  ComboBox: 'text',
  Reference: 'id',
  Int: 'number',
  Long: 'number',
  Double: 'number',
  Currency: 'number',
  Percent: 'number',
  Boolean: 'boolean',
  Date: 'date',
  DateTime: 'datetime',
  MultiPicklist: 'multipicklist',
};

export function valueKindOf(field: FieldDefinition): ValueKind | null {
  // The Id field is described as a String, but ids compare exactly (15 or 18 characters), never as text.
  if (field.apiName === 'Id') return 'id';
  return KIND_BY_DATA_TYPE[field.dataType] ?? null;
}

/** The system fields kept in the record table's own columns rather than in `fields`. */
export const SYSTEM_COLUMNS: Readonly<Record<string, string>> = {
  Id: 'id',
  RecordTypeId: 'record_type_id',
  CreatedDate: 'created_date',
  CreatedById: 'created_by_id',
  LastModifiedDate: 'last_modified_date',
  LastModifiedById: 'last_modified_by_id',
  SystemModstamp: 'system_modstamp',
};

// The flags the object info publishes, so that a query refuses exactly what the describe says it would.
export const isFilterable = (field: FieldDefinition) =>
  valueKindOf(field) !== null && fieldRepresentation(field, []).filterable;
export const isSortable = (field: FieldDefinition) =>
  valueKindOf(field) !== null && fieldRepresentation(field, []).sortable;

/** A field's value in the row named alias, typed by its kind. Stored values are typed by the writes (records/values.ts). */
export function valueExpression(field: FieldDefinition, alias: string): string {
  const column = SYSTEM_COLUMNS[field.apiName];
  if (column) return `${alias}.${column}`;
  const key = jsonKey(field.apiName);
  switch (valueKindOf(field)) {
    case 'number':
      // A value that is not a JSON number reads as null rather than failing the whole query on a cast.
      return `(CASE WHEN jsonb_typeof(${alias}.fields -> ${key}) = 'number' THEN (${alias}.fields ->> ${key})::numeric END)`;
    case 'boolean':
      // A checkbox is never null on the platform: a missing value is false.
      return `coalesce(${alias}.fields ->> ${key} = 'true', false)`;
    case 'date':
      return `(${alias}.fields ->> ${key})::date`;
    case 'datetime':
      return `(${alias}.fields ->> ${key})::timestamptz`;
    default:
      return `(${alias}.fields ->> ${key})`;
  }
}

/** The records a query's fields are read from: the queried object's row, or a parent reached from it. */
export interface RowScope {
  object: DescribedObject;
  /** The relationship names followed to get here (['Account', 'Owner']), empty for the queried object. */
  path: string[];
  /** A field of this scope's object as an SQL value of its kind. */
  value(field: FieldDefinition): string;
}

export function rootScope(object: DescribedObject, alias: string): RowScope {
  return { object, path: [], value: (field) => valueExpression(field, alias) };
}

function parentScope(
  child: RowScope,
  reference: FieldDefinition,
  parent: DescribedObject,
  visibility: RowCondition | null,
  parameters: SqlParameters,
): RowScope {
  const alias = `p${child.path.length + 1}`;
  // Placeholders are handed out on first use only: a parameter that the text never names is an error.
  let restriction: string | undefined;
  const restrict = () => {
    restriction ??= `${alias}.object_api_name = ${parameters.add(parent.apiName, 'text')}${visibility ? ` AND ${visibility(alias, parameters)}` : ''}`;
    return restriction;
  };
  return {
    object: parent,
    path: [...child.path, reference.relationshipName as string],
    value: (field) =>
      `(SELECT ${valueExpression(field, alias)} FROM record ${alias} WHERE ${alias}.id = ${child.value(reference)} AND ${restrict()})`,
  };
}

/** The readable field of a scope's object named (any case); undefined when unknown or unreadable. */
export function readableField(target: QueryTarget, scope: RowScope, name: string): FieldDefinition | undefined {
  const field = fieldNamed(scope.object, name);
  return field && target.access.canReadField(scope.object, field) ? field : undefined;
}

/**
 * The parent scope of a relationship (Account for AccountId) when the caller may read both the reference
 * field and the parent object; undefined otherwise. A polymorphic reference is followed to its first
 * object, as field paths are.
 */
export function followRelationship(
  target: QueryTarget,
  scope: RowScope,
  name: string,
  parameters: SqlParameters,
): RowScope | undefined {
  const reference = relationshipNamed(scope.object, name);
  if (!reference || !target.access.canReadField(scope.object, reference)) return undefined;
  const parent = target.org.objects.get(reference.referenceTo?.[0] ?? '');
  if (!parent || !target.access.canReadObject(parent)) return undefined;
  if (scope.path.length >= MAX_INTERMEDIATE_LEVELS) {
    throw new PlatformError(
      400,
      'ILLEGAL_QUERY_PARAMETER_VALUE',
      `${[...scope.path, name].join('.')} follows more than ${MAX_INTERMEDIATE_LEVELS} relationships`,
    );
  }
  return parentScope(scope, reference, parent, target.access.visibleRows(parent), parameters);
}

export interface ResolvedField {
  scope: RowScope;
  field: FieldDefinition;
  /** The path with the metadata's own spelling (`Account.Name`). */
  path: string;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * A dotted path (`Name`, `Account.Name`, `Account.Owner.Name`) from the queried object. A leading
 * `Object.` naming the queried object itself is allowed, as list endpoints allow qualified names. A path
 * that is malformed, unknown or unreadable fails with INVALID_FIELD.
 */
export function resolvePath(
  target: QueryTarget,
  text: string,
  parameters: SqlParameters,
  root: RowScope,
): ResolvedField {
  let names = text.split('.');
  const unknown = () => invalidField(target.object.apiName, cut(text));
  if (names.some((name) => !NAME.test(name))) throw unknown();
  const qualified = names.length > 1 && names[0].toLowerCase() === target.object.apiName.toLowerCase();
  if (qualified && !relationshipNamed(target.object, names[0])) names = names.slice(1);
  let scope = root;
  for (const name of names.slice(0, -1)) {
    const next = followRelationship(target, scope, name, parameters);
    if (!next) throw unknown();
    scope = next;
  }
  const field = readableField(target, scope, names[names.length - 1]);
  if (!field) throw unknown();
  return { scope, field, path: [...scope.path, field.apiName].join('.') };
}
