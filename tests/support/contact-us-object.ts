/** The Contact Us object as the org describes it, read from its metadata file, for the tests of pure logic. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FieldDefinition, ObjectDefinition } from '../../server/platform/core/definitions.ts';
import type { DescribedObject } from '../../server/platform/core/describe.ts';

const definition = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../server/platform/metadata/objects/APT_Contact_Us__c.json'), 'utf8'),
) as ObjectDefinition;

/** APT_Contact_Us__c without record types or child relationships. */
export const contactUs: DescribedObject = {
  apiName: definition.apiName,
  definition,
  fields: definition.fields,
  fieldsByName: new Map<string, FieldDefinition>(definition.fields.map((field) => [field.apiName, field])),
  recordTypes: [],
  childRelationships: [],
};
