/**
 * Object info: the directory of objects, one object's metadata and batches of them, built from the org
 * metadata (describe.ts) as the caller's profile lets it see it. Picklist values are in picklists.ts.
 */
import { frozenUnderTest } from '../../cache/frozen.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, visibleObject, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { noAccess, NO_ACCESS_MESSAGE, PlatformError } from '../core/errors.ts';
import { etagOf } from '../core/etag.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { fieldPermissions, objectPermissions, type Principal, type Profile } from '../core/principal.ts';
import { filteredLookupInfo } from './lookup-filter.ts';
import { UI_API_PATH } from '../../../common/platform.ts';

export { getPicklistValues, getPicklistValuesByRecordType } from './picklists.ts';

/** The FieldRepresentation of a field definition: the definition's flags over the platform's defaults. */
export function fieldRepresentation(field: FieldDefinition, fields: FieldDefinition[], org?: OrgDescribe) {
  const controllingFields: string[] = [];
  for (let controller = field.controllerName; controller;) {
    controllingFields.push(controller);
    controller = fields.find((candidate) => candidate.apiName === controller)?.controllerName;
  }
  const reference = field.dataType === 'Reference';
  const referenceTo = field.referenceTo ?? [];
  return {
    apiName: field.apiName,
    calculated: field.calculated ?? false,
    compound: field.compound ?? false,
    compoundComponentName: field.compoundComponentName ?? null,
    compoundFieldName: field.compoundFieldName ?? null,
    controllerName: field.controllerName ?? null,
    controllingFields,
    createable: field.createable ?? !field.calculated,
    custom: field.custom ?? field.apiName.endsWith('__c'),
    dataType: field.dataType,
    extraTypeInfo: field.extraTypeInfo ?? null,
    filterable: field.filterable ?? !['TextArea', 'Base64'].includes(field.dataType),
    filteredLookupInfo: filteredLookupInfo(field),
    highScaleNumber: false,
    htmlFormatted: false,
    inlineHelpText: field.inlineHelpText ?? null,
    label: field.label,
    length: field.length,
    nameField: field.nameField ?? false,
    polymorphicForeignKey: referenceTo.length > 1,
    precision: field.precision ?? 0,
    reference,
    referenceTargetField: null,
    referenceToInfos: referenceTo.map((apiName) => ({
      apiName,
      nameFields: org?.objects.get(apiName)?.definition.nameFields ?? ['Name'],
    })),
    relationshipName: field.relationshipName ?? null,
    required: field.required ?? false,
    scale: field.scale ?? 0,
    searchPrefilterable: false,
    sortable: field.sortable ?? !['MultiPicklist', 'TextArea', 'Base64'].includes(field.dataType),
    unique: field.unique ?? false,
    updateable: field.updateable ?? !field.calculated,
  };
}

/** Controlling fields to their dependent fields, nested as deep as the dependencies go. */
function dependentFieldsTree(fields: FieldDefinition[]): Schemas['DependentFieldsTree'] {
  const dependentsOf = (controller: string): Schemas['DependentFieldsTree'] =>
    Object.fromEntries(
      fields
        .filter((field) => field.controllerName === controller)
        .map((field) => [field.apiName, dependentsOf(field.apiName)]),
    );
  return Object.fromEntries(
    fields
      .filter((field) => !field.controllerName && fields.some((other) => other.controllerName === field.apiName))
      .map((field) => [field.apiName, dependentsOf(field.apiName)]),
  );
}

/**
 * Object infos as each profile sees them (null: the system), per described object: they depend on nothing
 * else, and a new read of the metadata describes every object anew, so that they go with the old one.
 */
const objectInfosByProfile = new WeakMap<
  DescribedObject,
  Map<Profile | null, { org: OrgDescribe; info: ObjectInfo }>
>();

/** The ObjectInfoRepresentation of an object; without a principal, as the system sees it. Built once per profile and kept (do not change it). */
export function objectInfoOf(object: DescribedObject, org: OrgDescribe, principal?: Principal): ObjectInfo {
  let byProfile = objectInfosByProfile.get(object);
  if (!byProfile) objectInfosByProfile.set(object, (byProfile = new Map()));
  const profile = principal?.profile ?? null;
  const kept = byProfile.get(profile);
  if (kept?.org === org) return kept.info;
  const info = frozenUnderTest(buildObjectInfo(object, org, principal));
  byProfile.set(profile, { org, info });
  return info;
}

function buildObjectInfo(object: DescribedObject, org: OrgDescribe, principal?: Principal): ObjectInfo {
  const { definition } = object;
  const permissions = principal
    ? objectPermissions(principal, object.apiName)
    : { read: true, create: true, edit: true, delete: true };
  const visibleFields = object.fields.filter(
    (field) => !principal || fieldPermissions(principal, object.apiName, field.apiName).read,
  );
  const fields = Object.fromEntries(
    visibleFields.map((field) => {
      const representation = fieldRepresentation(field, object.fields, org);
      const edit = !principal || fieldPermissions(principal, object.apiName, field.apiName).edit;
      return [
        field.apiName,
        {
          ...representation,
          createable: representation.createable && edit && permissions.create,
          updateable: representation.updateable && edit,
        },
      ];
    }),
  );
  const childRelationships = object.childRelationships
    .filter(
      (child) =>
        !principal ||
        (objectPermissions(principal, child.childObjectApiName).read &&
          fieldPermissions(principal, child.childObjectApiName, child.fieldName).read),
    )
    .map((child) => ({
      childObjectApiName: child.childObjectApiName,
      fieldName: child.fieldName,
      junctionIdListNames: [],
      junctionReferenceTo: [],
      relationshipName: child.relationshipName,
    }))
    .sort(
      (a, b) =>
        a.relationshipName.localeCompare(b.relationshipName, 'en') ||
        a.childObjectApiName.localeCompare(b.childObjectApiName, 'en'),
    );
  const defaultType = object.recordTypes.find((type) => type.isDefault) ?? object.recordTypes[0];
  const body = {
    apiName: object.apiName,
    associateEntityType: null,
    associateParentEntity: null,
    childRelationships,
    createable: (definition.flags.createable ?? false) && permissions.create,
    custom: definition.custom,
    defaultRecordTypeId: defaultType?.id ?? null,
    deletable: (definition.flags.deletable ?? false) && permissions.delete,
    dependentFields: dependentFieldsTree(visibleFields),
    feedEnabled: definition.flags.feedEnabled ?? false,
    fields,
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
        {
          available: type.available,
          defaultRecordTypeMapping: type.id === defaultType?.id,
          master: type.isMaster,
          name: type.name,
          recordTypeId: type.id,
        },
      ]),
    ),
    searchable: definition.flags.searchable ?? false,
    themeInfo: definition.themeInfo,
    updateable: (definition.flags.updateable ?? false) && permissions.edit,
  };
  return { eTag: etagOf(body), ...body };
}

type ObjectInfo = Schemas['ObjectInfoRepresentation'];

/** GET /object-info/{objectApiName}; without a principal, as the system sees it. */
export async function getObjectInfo(db: Queryable, objectApiName: string, principal?: Principal): Promise<ObjectInfo> {
  const object = await visibleObject(db, objectApiName, principal);
  if (!object) throw noAccess();
  return objectInfoOf(object, await describeOrg(db), principal);
}

/** GET /object-info: every object the caller may read, by API name. */
export async function getObjectInfoDirectory(
  db: Queryable,
  principal: Principal,
): Promise<Schemas['ObjectInfoDirectoryRepresentation']> {
  const org = await describeOrg(db);
  const objects = [...org.objects.values()]
    .filter((object) => objectPermissions(principal, object.apiName).read)
    .sort((a, b) => a.apiName.localeCompare(b.apiName, 'en'));
  return {
    objects: Object.fromEntries(
      objects.map((object) => [
        object.apiName,
        {
          apiName: object.apiName,
          keyPrefix: object.definition.keyPrefix,
          label: object.definition.label,
          labelPlural: object.definition.labelPlural,
          nameFields: object.definition.nameFields,
          objectInfoUrl: `${UI_API_PATH}/object-info/${object.apiName}`,
        },
      ]),
    ),
  };
}

/** The most objects one batch may name. */
const MAX_BATCH_OBJECTS = 100;

/**
 * GET /object-info/batch/{objectApiNames}: one result per name, in order. An object the caller may not
 * read fails like one that does not exist (403 FORBIDDEN, as the platform answers both in a batch).
 */
export async function getObjectInfos(
  db: Queryable,
  principal: Principal,
  objectApiNames: string,
): Promise<Schemas['SimplifiedBatchRepresentation']> {
  const names = objectApiNames.split(',');
  if (names.length > MAX_BATCH_OBJECTS)
    throw new PlatformError(
      400,
      'ILLEGAL_QUERY_PARAMETER_VALUE',
      `Illegal value for parameter 'objectApiNames': at most ${MAX_BATCH_OBJECTS} objects may be named, not ${names.length}`,
    );
  const org = await describeOrg(db);
  const results: Schemas['SimplifiedBatchResultRepresentation'][] = [];
  for (const name of names) {
    const object = await visibleObject(db, name, principal);
    results.push(
      object
        ? { statusCode: 200, result: objectInfoOf(object, org, principal) }
        : { statusCode: 403, result: [{ errorCode: 'FORBIDDEN', message: NO_ACCESS_MESSAGE }] },
    );
  }
  return { results };
}
