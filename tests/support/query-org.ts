/**
 * A small org for the query core's tests: Users own Accounts, Contacts belong to Accounts; fields of every
 * kind the filters know (text, picklists, numbers, checkboxes, dates, date-times, multi-selects), one field
 * the test caller may not read, and fields that cannot be filtered or sorted.
 */
import type { DescribedObject, OrgDescribe } from '../../server/platform/core/describe.ts';
import { MASTER_RECORD_TYPE_ID } from '../../server/platform/core/ids.ts';
import type { FieldDefinition } from '../../server/platform/core/definitions.ts';
import { readObjectDefinitions } from '../../server/platform/metadata.ts';
import type { RecordAccess, QueryTarget } from '../../server/platform/query/target.ts';
import { ownedBy } from '../../server/platform/query/target.ts';

const f = (
  apiName: string,
  dataType: FieldDefinition['dataType'],
  more: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  apiName,
  label: apiName,
  dataType,
  length: 80,
  ...more,
});

const systemFields = [
  f('Id', 'String'),
  f('CreatedDate', 'DateTime'),
  f('CreatedById', 'Reference', { referenceTo: ['User'], relationshipName: 'CreatedBy' }),
  f('LastModifiedDate', 'DateTime'),
  f('LastModifiedById', 'Reference', { referenceTo: ['User'], relationshipName: 'LastModifiedBy' }),
  f('SystemModstamp', 'DateTime'),
];

function object(apiName: string, keyPrefix: string, fields: FieldDefinition[], nameFields = ['Name']): DescribedObject {
  const all = [...systemFields, ...fields];
  return {
    apiName,
    definition: {
      apiName,
      label: apiName,
      labelPlural: `${apiName}s`,
      keyPrefix,
      custom: false,
      nameFields,
      themeInfo: null,
      flags: { queryable: true, searchable: true },
    },
    fields: all,
    fieldsByName: new Map(all.map((field) => [field.apiName, field])),
    recordTypes: [
      {
        id: MASTER_RECORD_TYPE_ID,
        name: 'Master',
        developerName: 'Master',
        isMaster: true,
        isDefault: true,
        available: true,
      },
    ],
    childRelationships: [],
  };
}

export const USER = object('User', '005', [
  f('Name', 'String', { nameField: true }),
  f('Email', 'Email'),
  f('IsActive', 'Boolean'),
]);

export const ACCOUNT = object('Account', '001', [
  f('Name', 'String', { nameField: true }),
  f('Industry', 'Picklist'),
  f('AnnualRevenue', 'Currency'),
  f('NumberOfEmployees', 'Int'),
  f('Phone', 'Phone'),
  f('Description', 'TextArea'),
  f('Founded__c', 'Date'),
  f('IsPartner__c', 'Boolean'),
  f('Regions__c', 'MultiPicklist'),
  f('Secret__c', 'String'),
  f('Logo__c', 'Base64', { filterable: false, sortable: false }),
  f('Rating__c', 'String', { filterable: false, sortable: false }),
  f('OwnerId', 'Reference', { referenceTo: ['User'], relationshipName: 'Owner' }),
  f('ParentId', 'Reference', { referenceTo: ['Account'], relationshipName: 'Parent' }),
]);

export const CONTACT = object('Contact', '003', [
  f('Name', 'String', { nameField: true, calculated: true }),
  f('LastName', 'String'),
  f('Email', 'Email'),
  f('Birthdate', 'Date'),
  f('DoNotCall', 'Boolean'),
  f('AccountId', 'Reference', { referenceTo: ['Account'], relationshipName: 'Account' }),
  f('VaultId', 'Reference', { referenceTo: ['Vault__c'], relationshipName: 'Vault' }),
  f('OwnerId', 'Reference', { referenceTo: ['User'], relationshipName: 'Owner' }),
]);

/** An object the test caller may not read at all. */
export const VAULT = object('Vault__c', 'a0V', [f('Name', 'String', { nameField: true })]);

const objects = [USER, ACCOUNT, CONTACT, VAULT];
export const ORG: OrgDescribe = {
  objects: new Map(objects.map((o) => [o.apiName, o])),
  byLowerName: new Map(objects.map((o) => [o.apiName.toLowerCase(), o])),
  byKeyPrefix: new Map(objects.map((o) => [o.definition.keyPrefix, o])),
  keyPrefixes: new Map(objects.map((o) => [o.apiName, o.definition.keyPrefix])),
};

export const ADMIN_ID = '005000000000001AAA';
export const STANDARD_ID = '005000000000002AAA';

/**
 * The test caller: reads everything but Account.Secret__c and the Vault__c object; sees only the Users
 * and Accounts it owns when `ownAccountsOnly` is set (a private sharing model).
 */
export function testAccess(options: { ownAccountsOnly?: string } = {}): RecordAccess {
  return {
    canReadObject: (o) => o.apiName !== 'Vault__c',
    canReadField: (o, field) => o.apiName !== 'Vault__c' && !(o.apiName === 'Account' && field.apiName === 'Secret__c'),
    visibleRows: (o) => (options.ownAccountsOnly && o.apiName === 'Account' ? ownedBy(options.ownAccountsOnly) : null),
  };
}

export const targetOf = (object: DescribedObject, access: RecordAccess = testAccess()): QueryTarget => ({
  org: ORG,
  object,
  access,
});

/** Wednesday 15 May 2024, 10:30 UTC: the clock of relative dates in these tests. */
export const NOW = new Date('2024-05-15T10:30:00.000Z');

/** The org's own objects (metadata/objects/*.json) as a describe, without record types or child relationships. */
export function orgOfDefinitions(): OrgDescribe {
  const objects: DescribedObject[] = readObjectDefinitions().map(({ fields, recordTypes: _, ...definition }) => ({
    apiName: definition.apiName,
    definition,
    fields,
    fieldsByName: new Map(fields.map((field) => [field.apiName, field])),
    recordTypes: [],
    childRelationships: [],
  }));
  return {
    objects: new Map(objects.map((o) => [o.apiName, o])),
    byLowerName: new Map(objects.map((o) => [o.apiName.toLowerCase(), o])),
    byKeyPrefix: new Map(objects.map((o) => [o.definition.keyPrefix, o])),
    keyPrefixes: new Map(objects.map((o) => [o.apiName, o.definition.keyPrefix])),
  };
}
