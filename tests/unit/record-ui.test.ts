/** The pure parts of record UI and record defaults: id and name lists, default values, optional field names. */
import { describe, expect, it } from 'vitest';
import type { DescribedObject } from '../../server/platform/core/describe.ts';
import type { PlatformError } from '../../server/platform/core/errors.ts';
import type { FieldDefinition } from '../../server/platform/core/definitions.ts';
import {
  defaultFieldValue,
  newRecordRepresentation,
  optionalFieldNames,
  type DefaultsContext,
} from '../../server/platform/record-ui/defaults.ts';
import { parseNameList, parseRecordIds } from '../../server/platform/record-ui/record-ui.ts';

const field = (
  apiName: string,
  dataType: FieldDefinition['dataType'],
  extra: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  apiName,
  label: apiName,
  dataType,
  length: 0,
  ...extra,
});
const FIELDS = [
  field('Name', 'String'),
  field('Priority', 'Picklist'),
  field('IsEscalated', 'Boolean'),
  field('OwnerId', 'Reference', { referenceTo: ['User'] }),
  field('Rating', 'Int', { defaultValue: 3 }),
];
const OBJECT = {
  apiName: 'Case',
  definition: { keyPrefix: '500' },
  fields: FIELDS,
  fieldsByName: new Map(FIELDS.map((f) => [f.apiName, f])),
  recordTypes: [],
  childRelationships: [],
} as unknown as DescribedObject;
const CONTEXT: DefaultsContext = {
  userId: '0058d0000000002AAA',
  userName: 'Standard User',
  recordTypeId: '012000000000000AAA',
  picklistDefaults: new Map([['Priority', 'Medium']]),
};

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as PlatformError;
  }
  throw new Error('did not throw');
};

describe('parseRecordIds', () => {
  it('converts 15-character ids to 18, drops duplicates and keeps the order', () => {
    expect(parseRecordIds('a1C8d0000000001,a1C8d0000000002EAA,a1C8d0000000001EAA')).toEqual([
      'a1C8d0000000001EAA',
      'a1C8d0000000002EAA',
    ]);
  });
  it('refuses a bad id with INVALID_ID_FIELD and too many ids with a 400', () => {
    expect(errorOf(() => parseRecordIds('a1C8d0000000001EAA,a1C8d0000000001ZZZ'))).toMatchObject({
      status: 400,
      errorCode: 'INVALID_ID_FIELD',
    });
    expect(errorOf(() => parseRecordIds('a1C8d0000000001EAA,a1C8d0000000002EAA', 1))).toMatchObject({
      status: 400,
      errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
    });
  });
});

describe('parseNameList', () => {
  it('accepts the allowed names, once each, in order', () => {
    expect(parseNameList('modes', 'View,Edit,View', ['Create', 'Edit', 'View'])).toEqual(['View', 'Edit']);
  });
  it('refuses any other name, naming the parameter', () => {
    expect(errorOf(() => parseNameList('modes', 'View,Clone', ['Create', 'Edit', 'View'])).message).toBe(
      "Illegal value for query parameter 'modes': View,Clone",
    );
  });
});

describe('defaultFieldValue', () => {
  it('gives the caller as owner, the record type picklist default, false to checkboxes, declared defaults, null otherwise', () => {
    expect(defaultFieldValue(OBJECT.fieldsByName.get('OwnerId')!, CONTEXT)).toEqual({
      displayValue: 'Standard User',
      value: '0058d0000000002AAA',
    });
    expect(defaultFieldValue(OBJECT.fieldsByName.get('Priority')!, CONTEXT)).toEqual({
      displayValue: 'Medium',
      value: 'Medium',
    });
    expect(defaultFieldValue(OBJECT.fieldsByName.get('IsEscalated')!, CONTEXT)).toEqual({
      displayValue: null,
      value: false,
    });
    expect(defaultFieldValue(OBJECT.fieldsByName.get('Rating')!, CONTEXT)).toEqual({ displayValue: null, value: 3 });
    expect(defaultFieldValue(OBJECT.fieldsByName.get('Name')!, CONTEXT)).toEqual({ displayValue: null, value: null });
  });
});

describe('optionalFieldNames', () => {
  it("keeps the object's own direct fields in their canonical case, and leaves out other objects, relationships and unknown fields", () => {
    expect(
      optionalFieldNames(OBJECT, [
        'Case.priority',
        'case.Name',
        'Account.Name',
        'Case.Owner.Name',
        'Case.Nope',
        'Case.Name',
      ]),
    ).toEqual(['Priority', 'Name']);
  });
});

describe('newRecordRepresentation', () => {
  it('is a record with a null id, no dates, weakEtag 0 and an eTag that follows its content', () => {
    const a = newRecordRepresentation(OBJECT, '012000000000000AAA', { Name: { displayValue: null, value: null } });
    const b = newRecordRepresentation(OBJECT, '012000000000000AAA', { Name: { displayValue: null, value: 'x' } });
    expect(a).toMatchObject({
      id: null,
      apiName: 'Case',
      lastModifiedDate: null,
      systemModstamp: null,
      weakEtag: 0,
      recordTypeInfo: null,
      childRelationships: {},
    });
    expect(a.eTag).toMatch(/^[0-9a-f]{32}$/);
    expect(a.eTag).not.toBe(b.eTag);
  });
});
