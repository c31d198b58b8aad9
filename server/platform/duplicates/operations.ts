/** GET /duplicates/{objectApiName} and POST /predupe over the org's duplicate rules. */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { visibleObject } from '../core/describe.ts';
import { noAccess, PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import { resolveRecordType } from '../layouts/layouts.ts';
import { fieldPermissions, type Principal } from '../core/principal.ts';
import { fieldNamed } from '../records/field-paths.ts';
import type { FieldValue } from '../records/values.ts';
import { duplicatesRepresentation, findDuplicates } from './match.ts';
import { duplicateConfiguration } from './rules.ts';

export async function getDuplicateConfiguration(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  recordTypeId: string | undefined,
): Promise<Schemas['DuplicatesConfigurationRepresentation']> {
  const object = await visibleObject(db, objectApiName, principal);
  if (!object) throw noAccess();
  // The rules are the same for every record type; a record type that is not the object's is still an error.
  resolveRecordType(object, recordTypeId);
  return duplicateConfiguration(object);
}

interface PredupeInput {
  apiName?: string | null;
  fields: Record<string, FieldValue>;
  allowSaveOnDuplicate?: boolean;
}

/**
 * POST /predupe: the duplicates of a record about to be saved, saving nothing. With an Id among the fields,
 * the record is one being updated: it is not its own duplicate, and the rules' update actions apply.
 */
export async function getDuplicates(
  db: Queryable,
  principal: Principal,
  input: PredupeInput,
): Promise<Schemas['DuplicatesRepresentation']> {
  if (!input.apiName) throw new PlatformError(400, 'INVALID_INPUT', 'apiName is required to find duplicates');
  const object = await visibleObject(db, input.apiName, principal);
  if (!object) throw new PlatformError(400, 'INVALID_TYPE', `sObject type '${input.apiName}' is not supported.`);
  const values: Record<string, FieldValue> = {};
  let recordId: string | undefined;
  for (const [name, value] of Object.entries(input.fields)) {
    if (name.toLowerCase() === 'id') {
      const id = typeof value === 'string' ? toId18(value) : null;
      if (!id || !id.startsWith(object.definition.keyPrefix))
        throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${String(value)} is not a valid record ID.`);
      recordId = id;
      continue;
    }
    const field = fieldNamed(object, name);
    if (!field || !fieldPermissions(principal, object.apiName, field.apiName).read)
      throw new PlatformError(400, 'INVALID_FIELD', `No such column '${name}' on sobject of type ${object.apiName}`);
    values[field.apiName] = value;
  }
  const matches = await findDuplicates(db, principal, object, recordId ? 'update' : 'create', values, {
    excludeId: recordId,
  });
  return duplicatesRepresentation(object, matches, input.allowSaveOnDuplicate ?? false);
}
