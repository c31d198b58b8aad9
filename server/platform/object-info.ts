/** Object info and picklist values, built from the org metadata in the database. */
import type { Queryable } from '../db/connection.ts';
import { invalidId, noAccess, notFound } from './errors.ts';
import { etagOf } from './etag.ts';
import { toId18 } from './ids.ts';
import type { FieldDefinition, ObjectDefinition } from './metadata.ts';

const API = '/services/data/v65.0/ui-api';

interface RecordTypeRow {
  id: string;
  name: string;
  is_master: boolean;
  is_default: boolean;
  available: boolean;
}

async function loadObject(db: Queryable, objectApiName: string) {
  const { rows } = await db.query<{ api_name: string; definition: Omit<ObjectDefinition, 'fields' | 'recordTypes'> }>(
    'SELECT api_name, definition FROM sobject WHERE lower(api_name) = lower($1)',
    [objectApiName],
  );
  if (rows.length === 0) throw noAccess();
  const object = rows[0];
  const fields = await db.query<{ definition: FieldDefinition }>(
    'SELECT definition FROM sobject_field WHERE object_api_name = $1 ORDER BY position',
    [object.api_name],
  );
  const recordTypes = await db.query<RecordTypeRow>(
    'SELECT id, name, is_master, is_default, available FROM record_type WHERE object_api_name = $1 ORDER BY is_master DESC, name',
    [object.api_name],
  );
  return { apiName: object.api_name, definition: object.definition, fields: fields.rows.map((row) => row.definition), recordTypes: recordTypes.rows };
}

/** The FieldRepresentation of a field definition: the definition's flags over the platform's defaults. */
export function fieldRepresentation(field: FieldDefinition, fields: FieldDefinition[]) {
  const controllingFields: string[] = [];
  for (let controller = field.controllerName; controller; ) {
    controllingFields.push(controller);
    controller = fields.find((candidate) => candidate.apiName === controller)?.controllerName;
  }
  const reference = field.dataType === 'Reference';
  return {
    apiName: field.apiName,
    calculated: field.calculated ?? false,
    compound: false,
    compoundComponentName: null,
    compoundFieldName: null,
    controllerName: field.controllerName ?? null,
    controllingFields,
    createable: field.createable ?? !field.calculated,
    custom: field.custom ?? field.apiName.endsWith('__c'),
    dataType: field.dataType,
    extraTypeInfo: null,
    filterable: field.filterable ?? field.dataType !== 'TextArea',
    filteredLookupInfo: null,
    highScaleNumber: false,
    htmlFormatted: false,
    inlineHelpText: field.inlineHelpText ?? null,
    label: field.label,
    length: field.length,
    nameField: field.nameField ?? false,
    polymorphicForeignKey: false,
    precision: 0,
    reference,
    referenceTargetField: null,
    referenceToInfos: (field.referenceTo ?? []).map((apiName) => ({ apiName, nameFields: ['Name'] })),
    relationshipName: field.relationshipName ?? null,
    required: field.required ?? false,
    scale: 0,
    searchPrefilterable: false,
    sortable: field.sortable ?? !['MultiPicklist', 'TextArea'].includes(field.dataType),
    unique: field.unique ?? false,
    updateable: field.updateable ?? !field.calculated,
  };
}

/** Controlling fields to their dependent fields, nested as deep as the dependencies go. */
function dependentFieldsTree(fields: FieldDefinition[]): Record<string, object> {
  const dependentsOf = (controller: string): Record<string, object> =>
    Object.fromEntries(fields.filter((field) => field.controllerName === controller).map((field) => [field.apiName, dependentsOf(field.apiName)]));
  return Object.fromEntries(
    fields.filter((field) => !field.controllerName && fields.some((other) => other.controllerName === field.apiName)).map((field) => [field.apiName, dependentsOf(field.apiName)]),
  );
}

export async function getObjectInfo(db: Queryable, objectApiName: string) {
  const object = await loadObject(db, objectApiName);
  const { definition } = object;
  const defaultType = object.recordTypes.find((type) => type.is_default) ?? object.recordTypes[0];
  const body = {
    apiName: object.apiName,
    associateEntityType: null,
    associateParentEntity: null,
    childRelationships: [],
    createable: definition.flags.createable ?? false,
    custom: definition.custom,
    defaultRecordTypeId: defaultType?.id ?? null,
    deletable: definition.flags.deletable ?? false,
    dependentFields: dependentFieldsTree(object.fields),
    feedEnabled: definition.flags.feedEnabled ?? false,
    fields: Object.fromEntries(object.fields.map((field) => [field.apiName, fieldRepresentation(field, object.fields)])),
    keyPrefix: definition.keyPrefix,
    label: definition.label,
    labelPlural: definition.labelPlural,
    layoutable: definition.flags.layoutable ?? false,
    mruEnabled: definition.flags.mruEnabled ?? false,
    nameFields: definition.nameFields,
    queryable: definition.flags.queryable ?? false,
    recordTypeInfos: Object.fromEntries(
      object.recordTypes.map((type) => [
        type.id,
        { available: type.available, defaultRecordTypeMapping: type.is_default, master: type.is_master, name: type.name, recordTypeId: type.id },
      ]),
    ),
    searchable: definition.flags.searchable ?? false,
    themeInfo: definition.themeInfo,
    updateable: definition.flags.updateable ?? false,
  };
  return { eTag: etagOf(body), ...body };
}

export async function getPicklistValues(db: Queryable, objectApiName: string, recordTypeId: string, fieldApiName: string) {
  const typeId = toId18(recordTypeId);
  if (!typeId || !typeId.startsWith('012')) throw invalidId('recordTypeId', recordTypeId);
  const object = await loadObject(db, objectApiName);
  const recordType = object.recordTypes.find((type) => type.id === typeId);
  if (!recordType) throw notFound();
  const field = object.fields.find((candidate) => candidate.apiName.toLowerCase() === fieldApiName.toLowerCase());
  if (!field?.picklist) throw notFound();
  const valuesOf = async (apiName: string) =>
    (
      await db.query<{ value: string; label: string; valid_for: string[]; is_default: boolean; attributes: object | null }>(
        `SELECT value, label, valid_for, is_default, attributes FROM picklist_value
         WHERE object_api_name = $1 AND field_api_name = $2 AND record_type_id = $3 ORDER BY position`,
        [object.apiName, apiName, typeId],
      )
    ).rows;
  const controllerValues: Record<string, number> = {};
  if (field.controllerName) (await valuesOf(field.controllerName)).forEach((row, index) => (controllerValues[row.value] = index));
  const rows = await valuesOf(field.apiName);
  const values = rows.map((row) => ({
    attributes: row.attributes,
    label: row.label,
    validFor: row.valid_for.map((controller) => controllerValues[controller]).filter((index) => index !== undefined),
    value: row.value,
  }));
  const defaultRow = rows.findIndex((row) => row.is_default);
  const body = {
    controllerValues,
    defaultValue: defaultRow >= 0 ? values[defaultRow] : null,
    url: `${API}/object-info/${object.apiName}/picklist-values/${typeId}/${field.apiName}`,
    values,
  };
  return { eTag: etagOf(body), ...body };
}
