/**
 * The org's metadata as the record engine reads it: every object with its fields (in order), record types
 * and child relationships. Metadata changes only when a server starts with new metadata files
 * (loadOrgMetadata), so it is read from the database once per database handle and kept until a change is
 * notified (cache/per-database.ts), also one made by another server on the same database.
 */
import type { Queryable } from '../../db/connection.ts';
import { objectPermissions, type Principal } from './principal.ts';
import { oncePerDatabase } from '../../cache/per-database.ts';
import type { FieldDefinition, ObjectDefinition } from './definitions.ts';

export interface DescribedRecordType {
  id: string;
  name: string;
  developerName: string;
  isMaster: boolean;
  isDefault: boolean;
  available: boolean;
}

export interface ChildRelationship {
  childObjectApiName: string;
  /** The child's reference field that points at the parent. */
  fieldName: string;
  /** The name the parent uses for its children (the reference field's childRelationshipName). */
  relationshipName: string;
}

export interface DescribedObject {
  apiName: string;
  definition: Omit<ObjectDefinition, 'fields' | 'recordTypes'>;
  fields: FieldDefinition[];
  fieldsByName: Map<string, FieldDefinition>;
  recordTypes: DescribedRecordType[];
  childRelationships: ChildRelationship[];
}

export interface OrgDescribe {
  objects: Map<string, DescribedObject>;
  /** Objects by lower-cased API name (API names are case-insensitive on the platform). */
  byLowerName: Map<string, DescribedObject>;
  byKeyPrefix: Map<string, DescribedObject>;
  /** Each object's key prefix, by API name (what record ids of a reference field must start with). */
  keyPrefixes: Map<string, string>;
}

async function readOrg(db: Queryable): Promise<OrgDescribe> {
  const objects = await db.query<{ api_name: string; definition: DescribedObject['definition'] }>(
    'SELECT api_name, definition FROM sobject ORDER BY api_name',
  );
  const fields = await db.query<{ object_api_name: string; definition: FieldDefinition }>(
    'SELECT object_api_name, definition FROM sobject_field ORDER BY object_api_name, position',
  );
  const types = await db.query<{
    object_api_name: string;
    id: string;
    name: string;
    developer_name: string;
    is_master: boolean;
    is_default: boolean;
    available: boolean;
  }>(
    'SELECT object_api_name, id, name, developer_name, is_master, is_default, available FROM record_type ORDER BY object_api_name, is_master DESC, name',
  );
  const org: OrgDescribe = {
    objects: new Map(),
    byLowerName: new Map(),
    byKeyPrefix: new Map(),
    keyPrefixes: new Map(),
  };
  for (const row of objects.rows) {
    const object: DescribedObject = {
      apiName: row.api_name,
      definition: row.definition,
      fields: [],
      fieldsByName: new Map(),
      recordTypes: [],
      childRelationships: [],
    };
    org.objects.set(object.apiName, object);
    org.byLowerName.set(object.apiName.toLowerCase(), object);
    org.byKeyPrefix.set(row.definition.keyPrefix, object);
    org.keyPrefixes.set(object.apiName, row.definition.keyPrefix);
  }
  for (const row of fields.rows) {
    const object = org.objects.get(row.object_api_name)!;
    object.fields.push(row.definition);
    object.fieldsByName.set(row.definition.apiName, row.definition);
  }
  for (const row of types.rows) {
    org.objects.get(row.object_api_name)!.recordTypes.push({
      id: row.id,
      name: row.name,
      developerName: row.developer_name,
      isMaster: row.is_master,
      isDefault: row.is_default,
      available: row.available,
    });
  }
  for (const child of org.objects.values()) {
    for (const field of child.fields) {
      const relationshipName = field.childRelationshipName;
      if (field.dataType !== 'Reference' || typeof relationshipName !== 'string') continue;
      for (const parentName of field.referenceTo ?? []) {
        org.objects
          .get(parentName)
          ?.childRelationships.push({ childObjectApiName: child.apiName, fieldName: field.apiName, relationshipName });
      }
    }
  }
  return org;
}

/** The org's metadata, read once per database handle and again after each change. */
export const describeOrg = oncePerDatabase(readOrg);

/** One object by API name, case-insensitively; undefined when the org has no such object. */
export async function describeObject(db: Queryable, objectApiName: string): Promise<DescribedObject | undefined> {
  return (await describeOrg(db)).byLowerName.get(objectApiName.toLowerCase());
}

/** The object as the caller sees it; undefined when it may not (an object that cannot be read does not exist for it). */
export async function visibleObject(
  db: Queryable,
  objectApiName: string,
  principal?: Principal,
): Promise<DescribedObject | undefined> {
  const object = await describeObject(db, objectApiName);
  if (!object || (principal && !objectPermissions(principal, object.apiName).read)) return undefined;
  return object;
}
