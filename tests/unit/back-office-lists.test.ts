/**
 * The pure pieces of the back office's list views: the Recently Viewed list's address, a filter form's rows
 * (operators by the field's type as the list object info gives them, a changed field, values split at commas,
 * each row's problem) built into filteredByInfo, an API name from a label as the server makes one, and column
 * widths and wrapping from the user's preferences, moved by the keys.
 */
import { describe, expect, it } from 'vitest';
import { apiNameFromLabel } from '../../server/platform/lists/write.ts';
import {
  clampWidth,
  DEFAULT_COLUMN_WIDTH,
  MAX_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  widthAfterKey,
  widthOf,
  wrapsOf,
} from '../../web/src/lightning/list/column-widths.ts';
import {
  apiNameOf,
  buildFilters,
  filterableColumns,
  filterText,
  newFilterRow,
  operandsOf,
  operatorsFor,
  rowProblem,
  rowsOf,
  withField,
  type ListObjectColumn,
} from '../../web/src/lightning/list/filters.ts';
import { listExportHref, listHref, routeOf } from '../../web/src/lightning/routes.ts';

const column = (overrides: Partial<ListObjectColumn> & Pick<ListObjectColumn, 'fieldApiName'>): ListObjectColumn => ({
  label: overrides.fieldApiName,
  dataType: 'String',
  filterable: true,
  supportedFilterOperators: ['Equals', 'NotEqual', 'LessThan', 'GreaterThan', 'Contains', 'NotContain', 'StartsWith'],
  defaultFilterOperator: 'Equals',
  picklistValues: [],
  ...overrides,
});

const CITY = column({ fieldApiName: 'APT_City__c', label: 'City' });
const EMPLOYEES = column({
  fieldApiName: 'NumberOfEmployees',
  label: 'Employees',
  dataType: 'Int',
  supportedFilterOperators: ['Equals', 'NotEqual', 'LessThan', 'GreaterThan', 'LessOrEqual', 'GreaterOrEqual'],
});
const ACTIVE = column({
  fieldApiName: 'Active__c',
  label: 'Active',
  dataType: 'Boolean',
  supportedFilterOperators: ['Equals', 'NotEqual'],
});
const BRANDS = column({
  fieldApiName: 'Brands__c',
  label: 'Brands',
  dataType: 'MultiPicklist',
  supportedFilterOperators: ['Equals', 'NotEqual', 'Includes', 'Excludes'],
  defaultFilterOperator: 'Includes',
});
const NOTES = column({
  fieldApiName: 'Notes__c',
  label: 'Notes',
  dataType: 'TextArea',
  filterable: false,
  supportedFilterOperators: [],
  defaultFilterOperator: null,
});
const COLUMNS = [CITY, EMPLOYEES, ACTIVE, BRANDS, NOTES];

describe('the Recently Viewed list’s address', () => {
  it('reads and builds filterName=__Recent, which no other name starting with an underscore passes', () => {
    expect(routeOf('/lightning/o/Account/list', '?filterName=__Recent')).toMatchObject({
      kind: 'list',
      filterName: '__Recent',
    });
    expect(routeOf('/lightning/o/Account/list', '?filterName=__Other')).toMatchObject({ filterName: undefined });
    expect(listHref('Account', '__Recent')).toBe('/lightning/o/Account/list?filterName=__Recent');
  });
});

describe('a list view’s export address', () => {
  it('is the list’s with /export.csv after list, in the order shown and no page', () => {
    expect(listExportHref('APT_Contact_Us__c', 'AllContactUs')).toBe(
      '/lightning/o/APT_Contact_Us__c/list/export.csv?filterName=AllContactUs',
    );
    expect(listExportHref('Account', '__Recent', { sortBy: '-Name,Industry' })).toBe(
      '/lightning/o/Account/list/export.csv?filterName=__Recent&sortBy=-Name%2CIndustry',
    );
  });
});

describe('a list view’s filter rows', () => {
  it('offers the filterable fields by label, and each field’s operators as the list object info lists them', () => {
    expect(filterableColumns(COLUMNS).map((candidate) => candidate.label)).toEqual([
      'Active',
      'Brands',
      'City',
      'Employees',
    ]);
    expect(operatorsFor(ACTIVE)).toEqual(['Equals', 'NotEqual']);
    expect(operatorsFor(BRANDS)).toContain('Includes');
    expect(operatorsFor(NOTES)).toEqual([]);
    expect(operatorsFor(undefined)).toEqual([]);
  });

  it('starts a row with the field’s default operator, and keeps the operator on another field only where it fits', () => {
    expect(newFilterRow(BRANDS)).toEqual({ fieldApiName: 'Brands__c', operator: 'Includes', value: '' });
    const contains = { fieldApiName: 'APT_City__c', operator: 'Contains' as const, value: 'Par' };
    expect(withField(contains, EMPLOYEES)).toEqual({
      fieldApiName: 'NumberOfEmployees',
      operator: 'Equals',
      value: '',
    });
    const less = { fieldApiName: 'NumberOfEmployees', operator: 'LessThan' as const, value: '5' };
    expect(withField(less, CITY)).toEqual({ fieldApiName: 'APT_City__c', operator: 'LessThan', value: '' });
  });

  it('reads a view’s filters as rows and splits the values typed at commas', () => {
    expect(rowsOf([{ fieldApiName: 'APT_City__c', operator: 'Equals', operandLabels: ['Paris', 'Lyon'] }])).toEqual([
      { fieldApiName: 'APT_City__c', operator: 'Equals', value: 'Paris, Lyon' },
    ]);
    expect(operandsOf(' Paris ,, Lyon ,')).toEqual(['Paris', 'Lyon']);
    expect(operandsOf('  ')).toEqual([]);
  });

  it('says what is wrong with a row before the server would', () => {
    expect(rowProblem({ fieldApiName: 'Notes__c', operator: 'Equals', value: 'x' }, NOTES)).toBe(
      'Choose a field to filter by.',
    );
    expect(rowProblem({ fieldApiName: 'Active__c', operator: 'Contains', value: 'x' }, ACTIVE)).toBe(
      'Active cannot be filtered with “contains”.',
    );
    expect(rowProblem({ fieldApiName: 'APT_City__c', operator: 'Contains', value: ' ' }, CITY)).toBe('Enter a value.');
    // Equals with no value: the field is empty, as the platform has it.
    expect(rowProblem({ fieldApiName: 'APT_City__c', operator: 'Equals', value: '' }, CITY)).toBeUndefined();
    expect(rowProblem({ fieldApiName: 'NumberOfEmployees', operator: 'LessThan', value: '5, 6' }, EMPLOYEES)).toBe(
      'Enter one value only.',
    );
    expect(rowProblem({ fieldApiName: 'NumberOfEmployees', operator: 'Equals', value: 'ten' }, EMPLOYEES)).toBe(
      'Employees takes numbers only.',
    );
    expect(rowProblem({ fieldApiName: 'Active__c', operator: 'Equals', value: 'yes' }, ACTIVE)).toBe(
      'Active takes true or false.',
    );
    expect(rowProblem({ fieldApiName: 'Active__c', operator: 'Equals', value: 'TRUE' }, ACTIVE)).toBeUndefined();
  });

  it('builds filteredByInfo from rows without problems, and nothing but the problems otherwise', () => {
    const rows = [
      { fieldApiName: 'APT_City__c', operator: 'Equals' as const, value: 'Paris, Lyon' },
      { fieldApiName: 'NumberOfEmployees', operator: 'GreaterOrEqual' as const, value: '10' },
    ];
    expect(buildFilters(rows, COLUMNS)).toEqual({
      filters: [
        { fieldApiName: 'APT_City__c', operator: 'Equals', operandLabels: ['Paris', 'Lyon'] },
        { fieldApiName: 'NumberOfEmployees', operator: 'GreaterOrEqual', operandLabels: ['10'] },
      ],
    });
    expect(buildFilters([...rows, { fieldApiName: 'Unknown__c', operator: 'Equals', value: 'x' }], COLUMNS)).toEqual({
      problems: { 2: 'Choose a field to filter by.' },
    });
    expect(buildFilters([], COLUMNS)).toEqual({ filters: [] });
  });

  it('says a filter in words', () => {
    expect(filterText({ fieldApiName: 'APT_City__c', operator: 'NotEqual', operandLabels: ['Paris'] }, 'City')).toBe(
      'City not equal to Paris',
    );
    expect(filterText({ fieldApiName: 'APT_City__c', operator: 'Equals', operandLabels: [] }, 'City')).toBe(
      'City equals (empty)',
    );
  });

  it('makes an API name from a label as the server does', () => {
    for (const label of ['Contacts by City', '2026 leads', 'Ünïcode & more!', '  spaced  '])
      expect(apiNameOf(label)).toBe(apiNameFromLabel(label));
    expect(apiNameOf('!!!')).toBe('');
  });
});

describe('column widths and wrapping', () => {
  const preferences = { columnWidths: { Name: 240, Phone: -1, City: 5000 }, columnWrap: { Name: true, City: false } };

  it('takes the user’s width, else the default; clamps it; wraps only where the user chose', () => {
    expect(widthOf(preferences, 'Name')).toBe(240);
    expect(widthOf(preferences, 'Phone')).toBe(DEFAULT_COLUMN_WIDTH);
    expect(widthOf(preferences, 'City')).toBe(MAX_COLUMN_WIDTH);
    expect(widthOf(undefined, 'Name')).toBe(DEFAULT_COLUMN_WIDTH);
    expect(clampWidth(3.6)).toBe(MIN_COLUMN_WIDTH);
    expect(wrapsOf(preferences, 'Name')).toBe(true);
    expect(wrapsOf(preferences, 'City')).toBe(false);
    expect(wrapsOf(preferences, 'Phone')).toBe(false);
  });

  it('moves a column’s edge by the keys', () => {
    expect(widthAfterKey(200, 'ArrowRight', false)).toBe(210);
    expect(widthAfterKey(200, 'ArrowLeft', true)).toBe(150);
    expect(widthAfterKey(MIN_COLUMN_WIDTH, 'ArrowLeft', false)).toBe(MIN_COLUMN_WIDTH);
    expect(widthAfterKey(200, 'Home', false)).toBe(MIN_COLUMN_WIDTH);
    expect(widthAfterKey(200, 'End', false)).toBe(MAX_COLUMN_WIDTH);
    expect(widthAfterKey(200, 'Enter', false)).toBeUndefined();
  });
});
