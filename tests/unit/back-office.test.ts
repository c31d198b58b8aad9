/**
 * The back office's pure parts: its addresses read into routes and built from them (the platform's URL forms),
 * the order a column header asks for, and a record's layout made into sections of labels and values.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { displayText, fieldAt, recordName, type RecordRepresentation } from '../../web/src/lightning/fields.ts';
import { ariaSortOf, nextSortBy, sortOf } from '../../web/src/lightning/list/sorting.ts';
import { lookupNamePaths, recordPageOf, sectionsOf } from '../../web/src/lightning/record/layout.ts';
import {
  cloneHref,
  importHref,
  listHref,
  objectHomeHref,
  recordHref,
  routeOf,
} from '../../web/src/lightning/routes.ts';

type RecordUi = components['schemas']['RecordUiRepresentation'];
type Layout = components['schemas']['RecordLayoutRepresentation'];

const ID = 'a1C8d0000000001EAA';

function record(fields: RecordRepresentation['fields']): RecordRepresentation {
  return {
    apiName: 'APT_Contact_Us__c',
    childRelationships: {},
    eTag: 'e',
    fields,
    id: ID,
    lastModifiedById: null,
    lastModifiedDate: null,
    recordTypeId: '012000000000000AAA',
    recordTypeInfo: null,
    systemModstamp: null,
    weakEtag: 0,
  } as RecordRepresentation;
}

describe('back office addresses', () => {
  it('reads the platform’s list view and record page forms', () => {
    expect(
      routeOf('/lightning/o/APT_Contact_Us__c/list', '?filterName=AllContactUs&sortBy=-Name&pageToken=50'),
    ).toEqual({
      kind: 'list',
      objectApiName: 'APT_Contact_Us__c',
      filterName: 'AllContactUs',
      sortBy: '-Name',
      pageToken: '50',
    });
    expect(routeOf('/lightning/o/Account/home', '')).toEqual({
      kind: 'list',
      objectApiName: 'Account',
      filterName: undefined,
      sortBy: undefined,
      pageToken: undefined,
    });
    expect(routeOf(`/lightning/r/APT_Contact_Us__c/${ID}/view`, '')).toEqual({
      kind: 'record',
      objectApiName: 'APT_Contact_Us__c',
      recordId: ID,
    });
    expect(routeOf('/lightning/r/APT_Contact_Us__c/a1C8d0000000001/view', '')).toMatchObject({ kind: 'record' });
  });

  it('reads a record’s clone form, and builds its address', () => {
    const href = cloneHref('APT_Contact_Us__c', ID);
    expect(href).toBe(`/lightning/r/APT_Contact_Us__c/${ID}/clone`);
    expect(routeOf(href, '')).toEqual({ kind: 'clone', objectApiName: 'APT_Contact_Us__c', recordId: ID });
    expect(routeOf(`${href}/more`, '')).toEqual({ kind: 'unknown' });
    expect(routeOf('/lightning/r/APT_Contact_Us__c/not-an-id/clone', '')).toEqual({ kind: 'unknown' });
  });

  it('reads an object’s import screen, and builds its address', () => {
    const href = importHref('APT_Contact_Us__c');
    expect(href).toBe('/lightning/o/APT_Contact_Us__c/import');
    expect(routeOf(href, '')).toEqual({ kind: 'import', objectApiName: 'APT_Contact_Us__c' });
    // The routes of the import's calls are no screen.
    expect(routeOf(`${href}/dry-run`, '')).toEqual({ kind: 'unknown' });
    expect(routeOf('/lightning/r/APT_Contact_Us__c/import', '')).toEqual({ kind: 'unknown' });
  });

  it('takes /lightning alone as the start, and anything else as unknown', () => {
    expect(routeOf('/lightning', '')).toEqual({ kind: 'start' });
    expect(routeOf('/lightning/', '')).toEqual({ kind: 'start' });
    for (const path of [
      '/lightning/o/APT_Contact_Us__c',
      '/lightning/o/APT_Contact_Us__c/new/more',
      '/lightning/r/APT_Contact_Us__c/not-an-id/view',
      '/lightning/r/APT_Contact_Us__c/a1C8d0000000001EAA/copy',
      '/lightning/o/%E0%A4%A/list',
      '/lightning/o/1bad/list',
      '/lightningx',
    ])
      expect(routeOf(path, ''), path).toEqual({ kind: 'unknown' });
  });

  it('drops a filterName that is no API name', () => {
    expect(routeOf('/lightning/o/Account/list', '?filterName=%3Cscript%3E')).toMatchObject({ filterName: undefined });
  });

  it('builds the links the routes read back', () => {
    expect(objectHomeHref('Account')).toBe('/lightning/o/Account/home');
    expect(recordHref('APT_Contact_Us__c', ID)).toBe(`/lightning/r/APT_Contact_Us__c/${ID}/view`);
    expect(listHref('APT_Contact_Us__c', 'AllContactUs')).toBe(
      '/lightning/o/APT_Contact_Us__c/list?filterName=AllContactUs',
    );
    // The first page needs no token.
    expect(listHref('APT_Contact_Us__c', 'AllContactUs', { sortBy: '-APT_City__c', pageToken: '0' })).toBe(
      '/lightning/o/APT_Contact_Us__c/list?filterName=AllContactUs&sortBy=-APT_City__c',
    );
    const href = listHref('APT_Contact_Us__c', 'AllContactUs', { sortBy: 'Name', pageToken: '100' });
    const url = new URL(href, 'http://site.invalid');
    expect(routeOf(url.pathname, url.search)).toMatchObject({ sortBy: 'Name', pageToken: '100' });
  });
});

describe('sorting by a column header', () => {
  it('reads the first field of a sortBy', () => {
    expect(sortOf('-Name,Id')).toEqual({ fieldApiName: 'Name', ascending: false });
    expect(sortOf('APT_City__c')).toEqual({ fieldApiName: 'APT_City__c', ascending: true });
    expect(sortOf(undefined)).toBeUndefined();
    expect(sortOf('-')).toBeUndefined();
  });

  it('sorts a new column ascending, and the sorted one the other way round', () => {
    expect(nextSortBy('APT_City__c', { fieldApiName: 'Name', ascending: true })).toBe('APT_City__c');
    expect(nextSortBy('Name', { fieldApiName: 'Name', ascending: true })).toBe('-Name');
    expect(nextSortBy('Name', { fieldApiName: 'Name', ascending: false })).toBe('Name');
    expect(nextSortBy('Name', undefined)).toBe('Name');
  });

  it('says each header’s order in aria-sort', () => {
    const sort = { fieldApiName: 'Name', ascending: false };
    expect(ariaSortOf('Name', sort)).toBe('descending');
    expect(ariaSortOf('APT_City__c', sort)).toBe('none');
  });
});

describe('field values', () => {
  const owner = record({ Name: { displayValue: null, value: 'Admin' } });
  const shown = record({
    Name: { displayValue: null, value: 'CU-000001' },
    APT_Country__c: { displayValue: 'United States', value: 'US' },
    APT_Default_Contact__c: { displayValue: null, value: true },
    APT_Phone__c: { displayValue: null, value: null },
    Owner: { displayValue: null, value: owner },
  });

  it('shows the display value when there is one, else the value', () => {
    expect(displayText(shown.fields.APT_Country__c)).toBe('United States');
    expect(displayText(shown.fields.Name)).toBe('CU-000001');
    expect(displayText(shown.fields.APT_Default_Contact__c)).toBe('Yes');
    expect(displayText(shown.fields.APT_Phone__c)).toBe('');
    expect(displayText(undefined)).toBe('');
  });

  it('follows a path into a related record', () => {
    expect(displayText(fieldAt(shown, 'Owner.Name'))).toBe('Admin');
    expect(fieldAt(shown, 'Owner.Missing')).toBeUndefined();
    expect(fieldAt(shown, 'Name.Other')).toBeUndefined();
  });

  it('names a record by its Name, else its id', () => {
    expect(recordName(shown)).toBe('CU-000001');
    expect(recordName(record({}))).toBe(ID);
  });
});

describe('a record page’s sections', () => {
  const layout = {
    eTag: 'l',
    id: '00h',
    layoutType: 'Full',
    mode: 'View',
    objectApiName: 'APT_Contact_Us__c',
    recordTypeId: '012000000000000AAA',
    saveOptions: [],
    sections: [
      {
        collapsible: false,
        columns: 2,
        heading: 'Information',
        id: '01B1',
        rows: 1,
        useHeading: false,
        layoutRows: [
          {
            layoutItems: [
              {
                editableForNew: false,
                editableForUpdate: false,
                label: 'Contact Us Name',
                layoutComponents: [{ apiName: 'Name', componentType: 'Field', label: 'Contact Us Name' }],
                lookupIdApiName: null,
                required: false,
                sortable: true,
              },
              {
                editableForNew: false,
                editableForUpdate: false,
                label: '',
                layoutComponents: [{ apiName: null, componentType: 'EmptySpace' }],
                lookupIdApiName: null,
                required: false,
                sortable: false,
              },
            ],
          },
        ],
      },
      { collapsible: true, columns: 1, heading: null, id: null, rows: 0, useHeading: true, layoutRows: [] },
    ],
  } as unknown as Layout;
  const shown = record({ Name: { displayValue: null, value: 'CU-000001' } });

  it('gives each section its heading, columns and fields, leaving empty space out', () => {
    expect(sectionsOf(layout, shown)).toEqual([
      { key: '01B1', heading: 'Information', columns: 2, fields: [{ label: 'Contact Us Name', text: 'CU-000001' }] },
      { key: '1', heading: 'Details', columns: 1, fields: [] },
    ]);
  });

  it('shows a multi-select picklist’s values apart, as the platform does', () => {
    const brands = record({ Name: { displayValue: null, value: 'Arcline;Boltwright;Conduvex' } });
    const objectInfo = {
      apiName: 'APT_Contact_Us__c',
      fields: { Name: { apiName: 'Name', dataType: 'MultiPicklist' } },
    } as unknown as components['schemas']['ObjectInfoRepresentation'];
    expect(sectionsOf(layout, brands, new Map(), objectInfo)[0].fields).toEqual([
      { label: 'Contact Us Name', text: 'Arcline; Boltwright; Conduvex' },
    ]);
    // Another type's text is left as it is.
    expect(sectionsOf(layout, brands)[0].fields[0].text).toBe('Arcline;Boltwright;Conduvex');
  });

  it('finds the record, its object’s label and its Full View layout in the record UI', () => {
    const recordUi = {
      eTag: 'r',
      layoutUserStates: {},
      layouts: { APT_Contact_Us__c: { '012000000000000AAA': { Full: { View: layout } } } },
      objectInfos: { APT_Contact_Us__c: { label: 'Contact Us' } },
      records: { [ID]: shown },
    } as unknown as RecordUi;
    expect(recordPageOf(recordUi, ID)).toEqual({ record: shown, objectLabel: 'Contact Us', layout });
    expect(recordPageOf({ ...recordUi, records: {} }, ID)).toBeUndefined();
  });

  it('shows a lookup by the related record’s name when it is known, else by its id', () => {
    const owned = record({ OwnerId: { displayValue: null, value: '0058d0000000001AAA' } });
    const withOwner = {
      ...layout,
      sections: [
        {
          ...layout.sections[0],
          layoutRows: [
            {
              layoutItems: [
                {
                  ...layout.sections[0].layoutRows[0].layoutItems[0],
                  label: 'Owner',
                  layoutComponents: [{ apiName: 'OwnerId', componentType: 'Field', label: 'Owner ID' }],
                },
              ],
            },
          ],
        },
      ],
    } as unknown as Layout;
    const objectInfo = {
      apiName: 'APT_Contact_Us__c',
      fields: {
        OwnerId: {
          apiName: 'OwnerId',
          relationshipName: 'Owner',
          referenceToInfos: [{ apiName: 'User', nameFields: ['Name'] }],
        },
        Name: { apiName: 'Name', relationshipName: null, referenceToInfos: [] },
      },
    } as unknown as components['schemas']['ObjectInfoRepresentation'];
    expect(lookupNamePaths(withOwner, objectInfo)).toEqual(new Map([['OwnerId', 'APT_Contact_Us__c.Owner.Name']]));
    expect(lookupNamePaths(withOwner, undefined)).toEqual(new Map());
    expect(sectionsOf(withOwner, owned)[0].fields).toEqual([{ label: 'Owner', text: '0058d0000000001AAA' }]);
    expect(sectionsOf(withOwner, owned, new Map([['OwnerId', 'Store Administrator']]))[0].fields).toEqual([
      { label: 'Owner', text: 'Store Administrator' },
    ]);
  });
});
