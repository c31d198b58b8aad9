/** Picklists per record type: value subsets and defaults, the master record type, and dependent indexes. */
import { describe, expect, it } from 'vitest';
import { MASTER_RECORD_TYPE_ID } from '../../server/platform/core/ids.ts';
import { entriesForRecordType, picklistEntries, recordTypesWithMaster } from '../../server/platform/metadata.ts';
import { picklistRepresentation } from '../../server/platform/object-info/picklists.ts';

const STATUS = picklistEntries({
  values: [
    { value: 'New', default: true, attributes: { picklistAtrributesValueType: 'CaseStatus', closed: false } },
    { value: 'Working', label: 'In Progress' },
    { value: 'Closed', attributes: { picklistAtrributesValueType: 'CaseStatus', closed: true } },
  ],
});

describe('picklistEntries of value definitions', () => {
  it('keeps labels, defaults, controlling values and attributes', () => {
    expect(STATUS).toEqual([
      {
        value: 'New',
        label: 'New',
        validFor: [],
        isDefault: true,
        attributes: { picklistAtrributesValueType: 'CaseStatus', closed: false },
      },
      { value: 'Working', label: 'In Progress', validFor: [] },
      {
        value: 'Closed',
        label: 'Closed',
        validFor: [],
        attributes: { picklistAtrributesValueType: 'CaseStatus', closed: true },
      },
    ]);
    expect(picklistEntries({ values: [{ value: 'Breakdown', validFor: ['Problem'] }] })[0].validFor).toEqual([
      'Problem',
    ]);
  });
});

describe('entriesForRecordType', () => {
  const type = { id: '0128d0000000001AAA', name: 'Sales', developerName: 'Sales' };
  it('gives every value to a record type that names no subset', () => {
    expect(entriesForRecordType(STATUS, 'Status', type)).toEqual(STATUS);
  });
  it('keeps the subset in the field order, whatever order the record type lists it in', () => {
    const subset = entriesForRecordType(STATUS, 'Status', { ...type, picklistValues: { Status: ['Closed', 'New'] } });
    expect(subset.map((entry) => entry.value)).toEqual(['New', 'Closed']);
  });
  it('replaces the field default with the record type own, or with none', () => {
    const working = entriesForRecordType(STATUS, 'Status', { ...type, picklistDefaults: { Status: 'Working' } });
    expect(working.filter((entry) => entry.isDefault).map((entry) => entry.value)).toEqual(['Working']);
    const none = entriesForRecordType(STATUS, 'Status', { ...type, picklistDefaults: { Status: null } });
    expect(none.some((entry) => entry.isDefault)).toBe(false);
  });
});

describe('recordTypesWithMaster', () => {
  it('is the master record type alone, default and available, for an object without record types', () => {
    expect(recordTypesWithMaster([])).toEqual([
      {
        id: MASTER_RECORD_TYPE_ID,
        name: 'Master',
        developerName: 'Master',
        isMaster: true,
        isDefault: true,
        available: true,
      },
    ]);
  });
  it('adds an unavailable master record type to an object with record types', () => {
    const types = recordTypesWithMaster([
      { id: '0128d0000000001AAA', name: 'Sales', developerName: 'Sales', isDefault: true },
    ]);
    expect(types.map((type) => [type.id, type.isMaster, type.isDefault, type.available ?? true])).toEqual([
      [MASTER_RECORD_TYPE_ID, true, false, false],
      ['0128d0000000001AAA', false, true, true],
    ]);
  });
});

describe('picklistRepresentation', () => {
  const reasons = [
    { value: 'Breakdown', label: 'Breakdown', validFor: ['Problem'], isDefault: false, attributes: null },
    {
      value: 'Feedback',
      label: 'Feedback',
      validFor: ['Feature Request', 'Question'],
      isDefault: true,
      attributes: null,
    },
  ];
  it('indexes validFor into the controller values given, dropping controlling values the record type lacks', () => {
    const body = picklistRepresentation(reasons, ['Question', 'Pricing'], '/x');
    expect(body.controllerValues).toEqual({ Question: 0, Pricing: 1 });
    expect(body.values.map((value) => value.validFor)).toEqual([[], [0]]);
    expect(body.defaultValue).toEqual(body.values[1]);
    expect(body.eTag).toMatch(/^[0-9a-f]{32}$/);
  });
  it('has empty controllerValues and validFor for a picklist without a controller', () => {
    const body = picklistRepresentation(reasons, null, '/x');
    expect(body.controllerValues).toEqual({});
    expect(body.values.every((value) => value.validFor.length === 0)).toBe(true);
  });
});
