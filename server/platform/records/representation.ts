/**
 * The RecordRepresentation of a stored record: the fields of a selection (related records nested), the
 * record's system fields, its record type, and its eTag (a hash of the rest) and weakEtag (its
 * SystemModstamp in milliseconds, which grows with every change). Pure functions.
 */
import type { components } from '../../../generated/types.ts';
import type { DescribedObject, DescribedRecordType } from '../core/describe.ts';
import { etagOfJson, keepJson } from '../core/etag.ts';
import { MASTER_RECORD_TYPE_ID } from '../core/ids.ts';
import type { ObjectSelection, RelationshipSelection } from './field-paths.ts';
import { displayValueOf, type FieldValue, type PicklistLabelOf } from './values.ts';

/** A row of the record table. */
export interface RecordRow {
  id: string;
  object_api_name: string;
  record_type_id: string | null;
  fields: Record<string, FieldValue>;
  created_date: Date | string;
  created_by_id: string | null;
  last_modified_date: Date | string;
  last_modified_by_id: string | null;
  system_modstamp: Date | string;
}

/** The record table's columns that make a RecordRow. */
export const RECORD_COLUMNS =
  'id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp';

// The representations are the contract's (generated from openapi/): none is written here a second time.
export type RecordRepresentation = components['schemas']['RecordRepresentation'];
export type FieldValueRepresentation = components['schemas']['FieldValueRepresentation'];
export type RecordCollectionRepresentation = components['schemas']['RecordCollectionRepresentation'];
type RecordTypeInfoRepresentation = components['schemas']['RecordTypeInfoRepresentation'];

const isoOf = (value: Date | string): string => new Date(value).toISOString();
export const millisOf = (value: Date | string): number => new Date(value).getTime();

/** The stored value of a field: system fields come from the row's columns, the others from its fields. */
export function storedValue(row: RecordRow, fieldApiName: string): FieldValue {
  switch (fieldApiName) {
    case 'Id':
      return row.id;
    case 'CreatedDate':
      return isoOf(row.created_date);
    case 'CreatedById':
      return row.created_by_id;
    case 'LastModifiedDate':
      return isoOf(row.last_modified_date);
    case 'LastModifiedById':
      return row.last_modified_by_id;
    case 'SystemModstamp':
      return isoOf(row.system_modstamp);
    case 'RecordTypeId':
      return row.record_type_id;
    default:
      return row.fields[fieldApiName] ?? null;
  }
}

/** The record type info of a record: null when its object has only the master record type. */
export function recordTypeInfoOf(
  object: DescribedObject,
  recordTypeId: string | null,
): RecordTypeInfoRepresentation | null {
  const types = object.recordTypes;
  if (types.length === 0 || (types.length === 1 && types[0].isMaster)) return null;
  const type: DescribedRecordType | undefined =
    types.find((candidate) => candidate.id === recordTypeId) ??
    types.find((candidate) => candidate.isDefault) ??
    types[0];
  return {
    available: type.available,
    defaultRecordTypeMapping: type.isDefault,
    master: type.isMaster,
    name: type.name,
    recordTypeId: type.id,
  };
}

export interface BuildContext {
  /** Rows of related records by id, for the relationships of the selection. */
  related: ReadonlyMap<string, RecordRow>;
  /** Whether the caller may see a related record; one it may not see is shown as null. */
  canSee(row: RecordRow, object: DescribedObject): boolean;
  /** The labels of picklist values for records of an object and record type; values without one display as themselves. */
  picklistLabels?: PicklistLabels;
}

/** Labels of picklist values that differ from the values, by `object/recordTypeId/field`, then value. */
export type PicklistLabels = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** How a record of this object and record type labels the values of a field: its record type's labels, else the master's. */
export function labelsFor(
  labels: PicklistLabels | undefined,
  objectApiName: string,
  recordTypeId: string,
  fieldApiName: string,
): PicklistLabelOf {
  const own = labels?.get(`${objectApiName}/${recordTypeId}/${fieldApiName}`);
  const master = labels?.get(`${objectApiName}/${MASTER_RECORD_TYPE_ID}/${fieldApiName}`);
  return (value) => own?.get(value) ?? master?.get(value);
}

/** The name of a record for displayValue: its Name field, when it has one. */
function nameOf(row: RecordRow): string | null {
  const name = row.fields.Name;
  return typeof name === 'string' ? name : null;
}

/** Adds the eTag, a strong hash of everything else in the representation. */
function withEtag(record: Omit<RecordRepresentation, 'eTag'>): RecordRepresentation {
  const text = JSON.stringify(record);
  const eTag = etagOfJson(text);
  const representation: RecordRepresentation = {
    apiName: record.apiName,
    childRelationships: record.childRelationships,
    eTag,
    fields: record.fields,
    id: record.id,
    lastModifiedById: record.lastModifiedById,
    lastModifiedDate: record.lastModifiedDate,
    recordTypeId: record.recordTypeId,
    recordTypeInfo: record.recordTypeInfo,
    systemModstamp: record.systemModstamp,
    weakEtag: record.weakEtag,
  };
  // The answer's JSON is the text hashed with the eTag where the representation has it (after
  // childRelationships), when the record's keys come in the representation's order: serialized once.
  const head = JSON.stringify({ apiName: record.apiName, childRelationships: record.childRelationships }).slice(0, -1);
  if (head.length > 1 && text.startsWith(head) && inRepresentationOrder(record))
    keepJson(representation, `${head},"eTag":"${eTag}"${text.slice(head.length)}`);
  return representation;
}

const KEYS_WITHOUT_ETAG = [
  'apiName',
  'childRelationships',
  'fields',
  'id',
  'lastModifiedById',
  'lastModifiedDate',
  'recordTypeId',
  'recordTypeInfo',
  'systemModstamp',
  'weakEtag',
];

/** Whether an object's keys are the representation's, eTag aside, in its order. */
function inRepresentationOrder(record: object): boolean {
  const keys = Object.keys(record);
  return keys.length === KEYS_WITHOUT_ETAG.length && keys.every((key, index) => key === KEYS_WITHOUT_ETAG[index]);
}

/** The row of the record a relationship of a row reaches, when it is of the relationship's object and the caller may see it. */
export function visibleParent(
  row: RecordRow,
  related: RelationshipSelection,
  context: BuildContext,
): RecordRow | undefined {
  const id = storedValue(row, related.field.apiName);
  const parent = typeof id === 'string' ? context.related.get(id) : undefined;
  return parent && parent.object_api_name === related.target.apiName && context.canSee(parent, related.target)
    ? parent
    : undefined;
}

/** Builds the representation of a row with the fields of a selection. */
export function buildRecord(
  row: RecordRow,
  selection: ObjectSelection,
  context: BuildContext,
  childRelationships: Record<string, RecordCollectionRepresentation> = {},
): RecordRepresentation {
  const fields: Record<string, FieldValueRepresentation> = {};
  const recordTypeId = row.record_type_id ?? MASTER_RECORD_TYPE_ID;
  for (const [name, field] of selection.fields) {
    const value = storedValue(row, name);
    const labelOf =
      field.dataType === 'Picklist' || field.dataType === 'MultiPicklist'
        ? labelsFor(context.picklistLabels, selection.object.apiName, recordTypeId, name)
        : undefined;
    fields[name] = { displayValue: displayValueOf(field, value, labelOf), value };
  }
  for (const [relationshipName, related] of selection.relationships) {
    const relatedRow = visibleParent(row, related, context);
    if (!relatedRow) {
      fields[relationshipName] = { displayValue: null, value: null };
      continue;
    }
    fields[relationshipName] = {
      displayValue: nameOf(relatedRow),
      value: buildRecord(relatedRow, related.selection, context),
    };
  }
  return withEtag({
    apiName: selection.object.apiName,
    childRelationships,
    fields,
    id: row.id,
    lastModifiedById: row.last_modified_by_id,
    lastModifiedDate: isoOf(row.last_modified_date),
    recordTypeId,
    recordTypeInfo: recordTypeInfoOf(selection.object, recordTypeId),
    systemModstamp: isoOf(row.system_modstamp),
    weakEtag: millisOf(row.system_modstamp),
  });
}

/** One page of child records, with zero-based offset tokens and the URLs of the neighbouring pages (`url` of an offset). */
export function recordPage(
  records: RecordRepresentation[],
  total: number,
  offset: number,
  pageSize: number,
  url: (offset: number) => string,
): RecordCollectionRepresentation {
  const next = offset + pageSize < total ? offset + pageSize : null;
  const previous = offset > 0 ? Math.max(0, offset - pageSize) : null;
  return {
    count: records.length,
    currentPageToken: String(offset),
    currentPageUrl: url(offset),
    nextPageToken: next === null ? null : String(next),
    nextPageUrl: next === null ? null : url(next),
    previousPageToken: previous === null ? null : String(previous),
    previousPageUrl: previous === null ? null : url(previous),
    records,
  };
}
