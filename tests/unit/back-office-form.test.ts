/**
 * The back office's record form, its pure parts: the new and edit addresses, a layout made into fields to fill
 * in, the fields a save sends, a dependent picklist's options and the emptying of a value no longer valid, the
 * checks before a save, a failed save's errors by field, and If-Unmodified-Since.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { ApiError } from '../../client/errors.ts';
import {
  changedFieldsOf,
  fieldsOf,
  formSectionsOf,
  ifUnmodifiedSinceOf,
  initialValuesOf,
  picklistOptionsOf,
  saveErrorsOf,
  validationErrorsOf,
  withValue,
  type PicklistCollection,
} from '../../web/src/lightning/form/form-model.ts';
import { editHref, newRecordHref, routeOf } from '../../web/src/lightning/routes.ts';

type Layout = components['schemas']['RecordLayoutRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

const ID = 'a1C8d0000000001EAA';

function item(apiName: string | null, label: string, options: { required?: boolean; editable?: boolean } = {}) {
  const editable = options.editable ?? true;
  return {
    editableForNew: editable,
    editableForUpdate: editable,
    label,
    lookupIdApiName: null,
    required: options.required ?? false,
    sortable: false,
    layoutComponents: apiName
      ? [{ apiName, componentType: 'Field', label }]
      : [{ apiName: null, componentType: 'EmptySpace' }],
  };
}

const layout = {
  sections: [
    {
      id: 's1',
      heading: 'Information',
      columns: 2,
      layoutRows: [
        {
          layoutItems: [
            item('Name', 'Contact Us Name', { editable: false }),
            item('APT_Company_Name__c', 'Company Name', { required: true }),
          ],
        },
        { layoutItems: [item('APT_Phone__c', 'Phone'), item(null, '')] },
        { layoutItems: [item('APT_Default_Contact__c', 'Default Contact'), item('OwnerId', 'Owner')] },
      ],
    },
    {
      id: 's2',
      heading: 'Address',
      columns: 2,
      layoutRows: [{ layoutItems: [item('APT_Country__c', 'Country'), item('APT_Primary_State__c', 'State')] }],
    },
    { id: 's3', heading: 'Empty', columns: 1, layoutRows: [{ layoutItems: [item(null, '')] }] },
  ],
} as unknown as Layout;

function info(apiName: string, dataType: string, extra: Record<string, unknown> = {}) {
  return {
    apiName,
    dataType,
    label: apiName,
    length: 80,
    createable: true,
    updateable: true,
    required: false,
    ...extra,
  };
}

const objectInfo = {
  apiName: 'APT_Contact_Us__c',
  fields: {
    Name: info('Name', 'String', { createable: false, updateable: false }),
    APT_Company_Name__c: info('APT_Company_Name__c', 'String', { required: true }),
    APT_Phone__c: info('APT_Phone__c', 'Phone'),
    APT_Default_Contact__c: info('APT_Default_Contact__c', 'Boolean', { updateable: false }),
    OwnerId: info('OwnerId', 'Reference', { referenceToInfos: [{ apiName: 'User', nameFields: ['Name'] }] }),
    APT_Country__c: info('APT_Country__c', 'Picklist'),
    APT_Primary_State__c: info('APT_Primary_State__c', 'Picklist', { controllerName: 'APT_Country__c' }),
  },
} as unknown as ObjectInfo;

const picklists = {
  eTag: 'e',
  picklistFieldValues: {
    APT_Country__c: {
      controllerValues: {},
      defaultValue: null,
      eTag: 'c',
      url: '',
      values: [
        { attributes: null, label: 'Canada', validFor: [], value: 'Canada' },
        { attributes: null, label: 'Mexico', validFor: [], value: 'Mexico' },
      ],
    },
    APT_Primary_State__c: {
      controllerValues: { Canada: 0, Mexico: 1 },
      defaultValue: null,
      eTag: 's',
      url: '',
      values: [
        { attributes: null, label: 'Yukon', validFor: [0], value: 'Yukon' },
        { attributes: null, label: 'Sonora', validFor: [1], value: 'Sonora' },
      ],
    },
  },
} as unknown as PicklistCollection;

const value = (raw: string | boolean | null) => ({ displayValue: null, value: raw });

describe('back office form addresses', () => {
  it('reads and builds the new and edit forms’ addresses', () => {
    expect(routeOf('/lightning/o/APT_Contact_Us__c/new', '')).toEqual({
      kind: 'new',
      objectApiName: 'APT_Contact_Us__c',
      recordTypeId: undefined,
    });
    expect(routeOf('/lightning/o/APT_Contact_Us__c/new', '?recordTypeId=012000000000000AAA')).toMatchObject({
      recordTypeId: '012000000000000AAA',
    });
    expect(routeOf(`/lightning/r/APT_Contact_Us__c/${ID}/edit`, '')).toEqual({
      kind: 'edit',
      objectApiName: 'APT_Contact_Us__c',
      recordId: ID,
    });
    expect(routeOf('/lightning/r/APT_Contact_Us__c/nope/edit', '')).toEqual({ kind: 'unknown' });
    expect(editHref('APT_Contact_Us__c', ID)).toBe(`/lightning/r/APT_Contact_Us__c/${ID}/edit`);
    expect(newRecordHref('APT_Contact_Us__c')).toBe('/lightning/o/APT_Contact_Us__c/new');
  });
});

describe('back office record form', () => {
  const sections = formSectionsOf(layout, objectInfo, 'edit');
  const fields = fieldsOf(sections);
  const byName = Object.fromEntries(fields.map((field) => [field.apiName, field]));

  it('makes the layout’s sections into fields, read-only where the layout, the object or the type says so', () => {
    expect(sections.map((section) => section.heading)).toEqual(['Information', 'Address']);
    expect(fields.map((field) => field.apiName)).toEqual([
      'Name',
      'APT_Company_Name__c',
      'APT_Phone__c',
      'APT_Default_Contact__c',
      'OwnerId',
      'APT_Country__c',
      'APT_Primary_State__c',
    ]);
    expect(fields.filter((field) => field.editable).map((field) => field.apiName)).toEqual([
      'APT_Company_Name__c',
      'APT_Phone__c',
      'OwnerId',
      'APT_Country__c',
      'APT_Primary_State__c',
    ]);
    expect(byName.APT_Company_Name__c.required).toBe(true);
    expect(byName.APT_Primary_State__c.controllerName).toBe('APT_Country__c');
    // A lookup the user may update is editable, with the objects its search asks for.
    expect(byName.OwnerId.targets).toEqual([{ apiName: 'User', nameFields: ['Name'] }]);
    expect(byName.APT_Phone__c.targets).toEqual([]);
    // On create the layout's editableForNew and the field's createable decide.
    expect(
      formSectionsOf(layout, objectInfo, 'create')[0].fields.find((f) => f.apiName === 'APT_Default_Contact__c')
        ?.editable,
    ).toBe(true);
  });

  it('sends only the fields changed on edit, every value given on create, empty as null', () => {
    const initial = initialValuesOf(fields, {
      APT_Company_Name__c: value('Acme'),
      APT_Phone__c: value('414-555-0100'),
      APT_Default_Contact__c: value(false),
      APT_Country__c: value('Canada'),
      APT_Primary_State__c: value('Yukon'),
    });
    expect(initial).toMatchObject({ APT_Company_Name__c: 'Acme', APT_Default_Contact__c: false, Name: '' });
    expect(changedFieldsOf(fields, initial, initial, 'edit')).toEqual({});
    expect(changedFieldsOf(fields, initial, { ...initial, APT_Phone__c: ' 414-555-0199 ' }, 'edit')).toEqual({
      APT_Phone__c: '414-555-0199',
    });
    expect(changedFieldsOf(fields, initial, { ...initial, APT_Phone__c: '' }, 'edit')).toEqual({ APT_Phone__c: null });
    // A lookup holds the related record's id, which a save sends; emptied, null.
    const owned = initialValuesOf(fields, { OwnerId: value('0058d0000000001AAA') });
    expect(owned.OwnerId).toBe('0058d0000000001AAA');
    expect(changedFieldsOf(fields, owned, { ...owned, OwnerId: '0058d0000000002AAA' }, 'edit')).toEqual({
      OwnerId: '0058d0000000002AAA',
    });
    expect(changedFieldsOf(fields, owned, { ...owned, OwnerId: '' }, 'edit')).toEqual({ OwnerId: null });
    const empty = initialValuesOf(fields, {});
    expect(changedFieldsOf(fields, empty, { ...empty, APT_Company_Name__c: 'New Co' }, 'create')).toEqual({
      APT_Company_Name__c: 'New Co',
    });
  });

  it('offers a dependent picklist the values valid for its controlling field, and empties one no longer valid', () => {
    const states = picklists.picklistFieldValues.APT_Primary_State__c;
    expect(picklistOptionsOf(states, 'Canada').map((option) => option.value)).toEqual(['Yukon']);
    expect(picklistOptionsOf(states, '')).toEqual([]);
    expect(picklistOptionsOf(picklists.picklistFieldValues.APT_Country__c)).toHaveLength(2);
    const values = { APT_Country__c: 'Canada', APT_Primary_State__c: 'Yukon' };
    expect(withValue(fields, picklists, values, 'APT_Country__c', 'Mexico')).toEqual({
      APT_Country__c: 'Mexico',
      APT_Primary_State__c: '',
    });
    expect(withValue(fields, picklists, values, 'APT_Country__c', 'Canada')).toEqual(values);
  });

  it('checks the required fields before a save', () => {
    expect(validationErrorsOf(fields, { APT_Company_Name__c: '  ' })).toEqual({
      APT_Company_Name__c: ['Complete this field.'],
    });
    expect(validationErrorsOf(fields, { APT_Company_Name__c: 'Acme' })).toEqual({});
  });

  it('places a failed save’s errors beside their fields, the rest at the top; a 412 is a conflict', () => {
    const error = (errorCode: string, message: string, field: string | null = null) => ({
      constituentField: null,
      duplicateRecordError: null,
      errorCode,
      field,
      fieldLabel: field,
      message,
    });
    const refused = new ApiError('updateRecord', 400, {
      enhancedErrorType: 'RecordError',
      message: 'An error occurred while trying to update the record. Please try again.',
      output: {
        errors: [error('FIELD_CUSTOM_VALIDATION_EXCEPTION', 'Not now.')],
        fieldErrors: {
          APT_Phone__c: [error('STRING_TOO_LONG', 'Phone: data value too large', 'APT_Phone__c')],
          APT_Zip__c: [error('STRING_TOO_LONG', 'too long', 'Zip')],
        },
      },
    });
    expect(saveErrorsOf(refused, fields)).toEqual({
      top: ['Zip: too long', 'Not now.'],
      byField: { APT_Phone__c: ['Phone: data value too large'] },
      conflict: false,
    });
    const changed = new ApiError('updateRecord', 412, [{ errorCode: 'PRECONDITION_FAILED', message: 'changed' }]);
    expect(saveErrorsOf(changed, fields)).toMatchObject({ conflict: true, top: [] });
    const duplicate = new ApiError('createRecord', 400, {
      enhancedErrorType: 'RecordError',
      message: 'failed',
      output: {
        errors: [
          {
            ...error('DUPLICATES_DETECTED', 'You’re creating a duplicate record.'),
            duplicateRecordError: {
              matchResults: [{ isAllowSave: true, matchRecordIds: [ID] } as never],
            },
          },
        ],
        fieldErrors: {},
      },
    });
    expect(saveErrorsOf(duplicate, fields)).toEqual({
      top: [],
      byField: {},
      conflict: false,
      duplicates: { message: 'You’re creating a duplicate record.', allowSave: true, count: 1 },
    });
  });

  it('sends the record’s lastModifiedDate as an HTTP date', () => {
    expect(ifUnmodifiedSinceOf({ lastModifiedDate: '2026-11-02T09:30:00.450Z' })).toBe('Mon, 02 Nov 2026 09:30:00 GMT');
    expect(ifUnmodifiedSinceOf({ lastModifiedDate: null })).toBeUndefined();
  });
});
