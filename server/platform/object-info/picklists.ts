/**
 * Picklist values per record type: one field's, or every picklist field's of an object, with the indexes
 * that tie a dependent picklist's values to its controlling field's values.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { invalidId, noAccess, notFound } from '../core/errors.ts';
import { etagOf } from '../core/etag.ts';
import { toId18 } from '../core/ids.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { visibleObject, type DescribedObject } from '../core/describe.ts';
import { fieldPermissions, type Principal } from '../core/principal.ts';
import { UI_API_PATH } from '../../../common/platform.ts';

interface StoredPicklistValue {
  value: string;
  label: string;
  validFor: string[];
  isDefault: boolean;
  attributes: PicklistValueAttributes;
}

type PicklistValueAttributes = Schemas['PicklistValueRepresentation']['attributes'];

/**
 * The PicklistValuesRepresentation body (without eTag) of a field: controllerValues index the controlling
 * field's values of the same record type, and validFor keeps only the controlling values that type offers.
 */
export function picklistRepresentation(
  values: StoredPicklistValue[],
  controllerValues: string[] | null,
  url: string,
): Schemas['PicklistValuesRepresentation'] {
  const indexes: Record<string, number> = {};
  for (const [index, value] of (controllerValues ?? []).entries()) indexes[value] = index;
  const entries = values.map((row) => ({
    attributes: row.attributes,
    label: row.label,
    validFor: controllerValues
      ? row.validFor.map((controller) => indexes[controller]).filter((index) => index !== undefined)
      : [],
    value: row.value,
  }));
  const defaultIndex = values.findIndex((row) => row.isDefault);
  const body = {
    controllerValues: indexes,
    defaultValue: defaultIndex >= 0 ? entries[defaultIndex] : null,
    url,
    values: entries,
  };
  return { eTag: etagOf(body), ...body };
}

function parseRecordTypeId(recordTypeId: string): string {
  const id = toId18(recordTypeId);
  if (!id?.startsWith('012')) throw invalidId('recordTypeId', recordTypeId);
  return id;
}

async function storedValues(
  db: Queryable,
  objectApiName: string,
  recordTypeId: string,
  fieldApiNames: string[],
): Promise<Map<string, StoredPicklistValue[]>> {
  const { rows } = await db.query<{
    field_api_name: string;
    value: string;
    label: string;
    valid_for: string[];
    is_default: boolean;
    attributes: PicklistValueAttributes;
  }>(
    `SELECT field_api_name, value, label, valid_for, is_default, attributes FROM picklist_value
     WHERE object_api_name = $1 AND record_type_id = $2 AND field_api_name = ANY($3::text[]) ORDER BY field_api_name, position`,
    [objectApiName, recordTypeId, fieldApiNames],
  );
  const byField = new Map<string, StoredPicklistValue[]>(fieldApiNames.map((name) => [name, []]));
  for (const row of rows)
    byField.get(row.field_api_name)!.push({
      value: row.value,
      label: row.label,
      validFor: row.valid_for,
      isDefault: row.is_default,
      attributes: row.attributes,
    });
  return byField;
}

async function objectAndType(
  db: Queryable,
  objectApiName: string,
  recordTypeId: string,
  principal?: Principal,
): Promise<{ object: DescribedObject; typeId: string }> {
  const typeId = parseRecordTypeId(recordTypeId);
  const object = await visibleObject(db, objectApiName, principal);
  if (!object) throw noAccess();
  if (!object.recordTypes.some((type) => type.id === typeId)) throw notFound();
  return { object, typeId };
}

const readable = (object: DescribedObject, field: FieldDefinition, principal?: Principal) =>
  !principal || fieldPermissions(principal, object.apiName, field.apiName).read;

/** GET /object-info/{o}/picklist-values/{recordTypeId}/{fieldApiName}; without a principal, as the system sees it. */
export async function getPicklistValues(
  db: Queryable,
  objectApiName: string,
  recordTypeId: string,
  fieldApiName: string,
  principal?: Principal,
): Promise<Schemas['PicklistValuesRepresentation']> {
  const { object, typeId } = await objectAndType(db, objectApiName, recordTypeId, principal);
  const field = object.fields.find((candidate) => candidate.apiName.toLowerCase() === fieldApiName.toLowerCase());
  if (!field?.picklist || !readable(object, field, principal)) throw notFound();
  const controller = field.controllerName ? object.fieldsByName.get(field.controllerName) : undefined;
  const names = controller?.picklist ? [field.apiName, controller.apiName] : [field.apiName];
  const values = await storedValues(db, object.apiName, typeId, names);
  const controllerValues = controller?.picklist ? values.get(controller.apiName)!.map((row) => row.value) : null;
  return picklistRepresentation(
    values.get(field.apiName)!,
    controllerValues,
    `${UI_API_PATH}/object-info/${object.apiName}/picklist-values/${typeId}/${field.apiName}`,
  );
}

/** GET /object-info/{o}/picklist-values/{recordTypeId}: every picklist field the caller may read. */
export async function getPicklistValuesByRecordType(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  recordTypeId: string,
): Promise<Schemas['PicklistValuesCollectionRepresentation']> {
  const { object, typeId } = await objectAndType(db, objectApiName, recordTypeId, principal);
  const fields = object.fields.filter((field) => field.picklist && readable(object, field, principal));
  const values = await storedValues(
    db,
    object.apiName,
    typeId,
    object.fields.filter((field) => field.picklist).map((field) => field.apiName),
  );
  const picklistFieldValues = Object.fromEntries(
    fields.map((field) => {
      const controller = field.controllerName ? object.fieldsByName.get(field.controllerName) : undefined;
      const controllerValues = controller?.picklist ? values.get(controller.apiName)!.map((row) => row.value) : null;
      return [
        field.apiName,
        picklistRepresentation(
          values.get(field.apiName)!,
          controllerValues,
          `${UI_API_PATH}/object-info/${object.apiName}/picklist-values/${typeId}/${field.apiName}`,
        ),
      ];
    }),
  );
  const body = { picklistFieldValues };
  return { eTag: etagOf(body), ...body };
}
