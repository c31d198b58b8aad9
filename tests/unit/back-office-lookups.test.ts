/**
 * The back office's lookup type-ahead, its pure parts: the objects a reference field can point at, the term
 * worth a search, the getLookupRecords request (TypeAhead; the target of a field that points at several; the
 * values a lookup filter depends on), an answer made into options by name and a second field, what the list
 * says in each state, and the arrow keys' moves through the options.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import {
  lookupControllersOf,
  lookupMayBeEmptied,
  lookupMessageOf,
  lookupOptionsOf,
  lookupRequestOf,
  lookupTargetsOf,
  movedActive,
  searchTermOf,
  LOOKUP_MIN_CHARACTERS,
  type LookupTarget,
} from '../../web/src/lightning/form/lookup-model.ts';

type LookupValues = components['schemas']['LookupValuesRepresentation'];
type FieldInfo = components['schemas']['FieldRepresentation'];

const USER: LookupTarget = { apiName: 'User', nameFields: ['FirstName', 'LastName', 'Name'] };
const CASE: LookupTarget = { apiName: 'Case', nameFields: ['CaseNumber'] };

function record(apiName: string, id: string, fields: Record<string, string | null>) {
  return {
    apiName,
    id,
    childRelationships: {},
    eTag: 'e',
    lastModifiedById: null,
    lastModifiedDate: null,
    recordTypeId: null,
    recordTypeInfo: null,
    systemModstamp: null,
    weakEtag: 0,
    fields: Object.fromEntries(
      Object.entries({ Id: id, ...fields }).map(([name, value]) => [name, { displayValue: null, value }]),
    ),
  };
}

function answer(results: Record<string, readonly unknown[]>): LookupValues {
  const lookupResults = Object.fromEntries(
    Object.entries(results).map(([apiName, records]) => [
      apiName,
      {
        count: records.length,
        currentPageToken: '0',
        currentPageUrl: '',
        nextPageToken: null,
        nextPageUrl: null,
        previousPageToken: null,
        previousPageUrl: null,
        records,
      },
    ]),
  );
  return { lookupResults } as unknown as LookupValues;
}

describe('back office lookups', () => {
  it('reads the objects a reference field can point at, and the fields its filter depends on', () => {
    const owner = {
      dataType: 'Reference',
      referenceToInfos: [{ apiName: 'User', nameFields: ['Name'] }],
      filteredLookupInfo: null,
    } as unknown as FieldInfo;
    expect(lookupTargetsOf(owner)).toEqual([{ apiName: 'User', nameFields: ['Name'] }]);
    expect(lookupControllersOf(owner)).toEqual([]);
    expect(lookupTargetsOf({ dataType: 'String', referenceToInfos: [] } as unknown as FieldInfo)).toEqual([]);
    const contact = {
      filteredLookupInfo: { controllingFields: ['AccountId'], dependent: true, optionalFilter: false },
    } as unknown as FieldInfo;
    expect(lookupControllersOf(contact)).toEqual(['AccountId']);
  });

  it('lets a lookup be emptied unless it is required or the record’s owner', () => {
    expect(lookupMayBeEmptied({ apiName: 'AccountId', required: false })).toBe(true);
    expect(lookupMayBeEmptied({ apiName: 'AccountId', required: true })).toBe(false);
    expect(lookupMayBeEmptied({ apiName: 'OwnerId', required: false })).toBe(false);
  });

  it('searches from two characters on, what was typed trimmed', () => {
    expect(LOOKUP_MIN_CHARACTERS).toBe(2);
    expect(searchTermOf(null)).toBeNull();
    expect(searchTermOf('')).toBeNull();
    expect(searchTermOf(' s ')).toBeNull();
    expect(searchTermOf('Sa')).toBe('Sa');
    expect(searchTermOf('  Sales Rep ')).toBe('Sales Rep');
  });

  it('asks getLookupRecords for a type-ahead, naming the target only for a field that points at several', () => {
    const owner = { apiName: 'OwnerId', targets: [USER], lookupControllers: [] };
    expect(lookupRequestOf('APT_Contact_Us__c', owner, 'Sa', 'User', {})).toEqual({
      path: { objectApiName: 'APT_Contact_Us__c', fieldApiName: 'OwnerId' },
      query: { searchType: 'TypeAhead', q: 'Sa', pageSize: 10 },
      body: {},
    });
    const what = { apiName: 'WhatId', targets: [USER, CASE], lookupControllers: [] };
    expect(lookupRequestOf('Task', what, 'Sa', 'Case', {}).query).toMatchObject({ targetApiName: 'Case' });
  });

  it('sends the form’s values of the fields a lookup filter depends on, an empty one as null', () => {
    const contact = { apiName: 'ContactId', targets: [USER], lookupControllers: ['AccountId'] };
    expect(
      lookupRequestOf('Case', contact, 'Ad', undefined, { AccountId: '0018d0000000001AAA', Subject: 'x' }).body,
    ).toEqual({ sourceRecord: { apiName: 'Case', fields: { AccountId: '0018d0000000001AAA' } } });
    expect(lookupRequestOf('Case', contact, 'Ad', undefined, { AccountId: '' }).body).toEqual({
      sourceRecord: { apiName: 'Case', fields: { AccountId: null } },
    });
  });

  it('makes an answer into options, by name and a second field, in its order', () => {
    const users = answer({
      User: [
        record('User', '0058d0000000002AAA', { Name: 'Sales Representative', Email: 'user@northgate.example' }),
        record('User', '0058d0000000004AAA', { Name: 'Sam Nobody', Email: null }),
      ],
    });
    expect(lookupOptionsOf(users, [USER])).toEqual([
      { id: '0058d0000000002AAA', name: 'Sales Representative', secondary: 'user@northgate.example' },
      { id: '0058d0000000004AAA', name: 'Sam Nobody', secondary: '' },
    ]);
    // A name field other than Name; a record whose answer lacks the name fields shows its first field.
    const cases = answer({ Case: [record('Case', '5008d0000000001AAA', { CaseNumber: '00001001', Subject: 'Late' })] });
    expect(lookupOptionsOf(cases, [CASE])).toEqual([{ id: '5008d0000000001AAA', name: '00001001', secondary: 'Late' }]);
    const bare = answer({ Account: [record('Account', '0018d0000000001AAA', { Title: 'Northgate' })] });
    expect(lookupOptionsOf(bare, [])[0].name).toBe('Northgate');
    // Only the target asked for, when one is.
    const both = answer({ User: users.lookupResults.User.records, Case: cases.lookupResults.Case.records });
    expect(lookupOptionsOf(both, [USER, CASE], 'Case').map((option) => option.id)).toEqual(['5008d0000000001AAA']);
    expect(lookupOptionsOf(undefined, [USER])).toEqual([]);
  });

  it('says what the list holds: nothing yet, searching, no results, a failure, how many', () => {
    expect(lookupMessageOf({ kind: 'idle' }, null)).toBe('');
    expect(lookupMessageOf({ kind: 'loading' }, 'Sa')).toBe('Searching…');
    expect(lookupMessageOf({ kind: 'results', options: [] }, 'zz')).toBe('No results for “zz”.');
    expect(lookupMessageOf({ kind: 'error' }, 'Sa')).toBe('The search failed. Try again.');
    const one = { id: 'a', name: 'A', secondary: '' };
    expect(lookupMessageOf({ kind: 'results', options: [one] }, 'Sa')).toBe('1 result.');
    expect(lookupMessageOf({ kind: 'results', options: [one, { ...one, id: 'b' }] }, 'Sa')).toBe('2 results.');
  });

  it('moves through the options with the arrow keys, wrapping', () => {
    const options = ['a', 'b', 'c'].map((id) => ({ id, name: id, secondary: '' }));
    expect(movedActive(options, null, 1)).toBe('a');
    expect(movedActive(options, null, -1)).toBe('c');
    expect(movedActive(options, 'a', 1)).toBe('b');
    expect(movedActive(options, 'c', 1)).toBe('a');
    expect(movedActive(options, 'a', -1)).toBe('c');
    expect(movedActive([], 'a', 1)).toBeNull();
  });
});
