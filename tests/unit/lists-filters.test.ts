/**
 * List views' filters: the filter logic string, each filter (field, operator, operand labels) in the query
 * core's `where` form, and how that compiles; which operators fit which fields; the indexes derived from list
 * views; and the org's own list-view files, checked against the objects they name.
 */
import { describe, expect, it } from 'vitest';
import type { DescribedObject } from '../../server/platform/core/describe.ts';
import { PlatformError } from '../../server/platform/core/errors.ts';
import type { ListFilterDefinition, ListView, ListViewFile } from '../../server/platform/lists/definitions.ts';
import { parseFilterLogic, requiredFilters } from '../../server/platform/lists/filter-logic.ts';
import {
  defaultFilterOperator,
  filterCondition,
  filterOperators,
  listViewWhere,
} from '../../server/platform/lists/filters.ts';
import { listViewIndexes } from '../../server/platform/lists/indexes.ts';
import { listViewFileProblems, listViewsOfFile } from '../../server/platform/lists/load.ts';
import { compileWhere } from '../../server/platform/query/where.ts';
import { ACCOUNT, CONTACT, NOW, ORG, orgOfDefinitions, targetOf } from '../support/query-org.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const filter = (
  fieldApiName: string,
  operator: ListFilterDefinition['operator'],
  ...operandLabels: string[]
): ListFilterDefinition => ({
  fieldApiName,
  operator,
  operandLabels,
});
const field = (object: DescribedObject, name: string) => object.fieldsByName.get(name)!;

function failure(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError');
}

describe('parseFilterLogic', () => {
  it('ANDs every filter when there is no logic', () => {
    expect(parseFilterLogic(null, 3)).toEqual({ and: [{ filter: 1 }, { filter: 2 }, { filter: 3 }] });
    expect(parseFilterLogic('  ', 1)).toEqual({ and: [{ filter: 1 }] });
    expect(parseFilterLogic(undefined, 0)).toEqual({ and: [] });
  });

  it('reads AND, OR, NOT and parentheses in any case', () => {
    expect(parseFilterLogic('1 AND (2 or NOT 3)', 3)).toEqual({
      and: [{ filter: 1 }, { or: [{ filter: 2 }, { not: { filter: 3 } }] }],
    });
    expect(parseFilterLogic('(1 OR 2) and 3 AND 4', 4)).toEqual({
      and: [{ or: [{ filter: 1 }, { filter: 2 }] }, { filter: 3 }, { filter: 4 }],
    });
    expect(parseFilterLogic('((1))', 1)).toEqual({ filter: 1 });
  });

  it.each([
    ['1 AND 2 OR 3', 3, 'need parentheses'],
    ['1 AND 4', 4, 'filter 2, 3 is defined but not used'],
    ['1 AND 5', 2, 'filter 5 does not exist'],
    ['0', 1, 'filter 0 does not exist'],
    ['(1 AND 2', 2, "'(' is not closed"],
    ['1 AND', 1, 'ends where a filter number'],
    ['1 XOR 2', 2, "unexpected 'XOR'"],
    ['1; DROP TABLE record', 1, "unexpected ';'"],
    ['1 2', 2, 'after the end'],
    ['1', 0, 'no filters'],
  ])('refuses %j (%i filters) with 400 INVALID_FILTER_LOGIC', (text, count, message) => {
    const error = failure(() => parseFilterLogic(text, count));
    expect(error).toMatchObject({ status: 400, errorCode: 'INVALID_FILTER_LOGIC' });
    expect(error.message).toContain(message);
  });

  it('names the filters every record must pass: those ANDed at the top', () => {
    expect(requiredFilters(parseFilterLogic('1 AND (2 OR 3) AND NOT 4', 4))).toEqual([1]);
    expect(requiredFilters(parseFilterLogic(null, 2))).toEqual([1, 2]);
    expect(requiredFilters(parseFilterLogic('1 OR 2', 2))).toEqual([]);
  });
});

describe('filterCondition', () => {
  it.each([
    [filter('Name', 'Equals', 'Acme'), { Name: { eq: 'Acme' } }],
    [filter('Name', 'Equals', 'Acme', 'Globex'), { Name: { in: ['Acme', 'Globex'] } }],
    [filter('Name', 'Equals'), { Name: { eq: null } }],
    [filter('Name', 'NotEqual', 'A', 'B'), { Name: { nin: ['A', 'B'] } }],
    [filter('Name', 'NotEqual'), { Name: { ne: null } }],
    [filter('AnnualRevenue', 'GreaterThan', '1000000'), { AnnualRevenue: { gt: 1000000 } }],
    [filter('NumberOfEmployees', 'LessOrEqual', '-2.5e1'), { NumberOfEmployees: { lte: -25 } }],
    [filter('IsPartner__c', 'Equals', 'TRUE'), { IsPartner__c: { eq: true } }],
    [
      filter('IsPartner__c', 'NotEqual', 'true', 'false'),
      { and: [{ IsPartner__c: { ne: true } }, { IsPartner__c: { ne: false } }] },
    ],
    [filter('Founded__c', 'GreaterOrEqual', 'LAST_N_DAYS:30'), { Founded__c: { gte: { literal: 'LAST_N_DAYS:30' } } }],
    [filter('Founded__c', 'LessThan', '2020-01-01'), { Founded__c: { lt: { value: '2020-01-01' } } }],
    [filter('Name', 'Contains', '50%', 'a_b'), { or: [{ Name: { like: '%50\\%%' } }, { Name: { like: '%a\\_b%' } }] }],
    [filter('Name', 'NotContain', 'x'), { not: { or: [{ Name: { like: '%x%' } }] } }],
    [filter('Name', 'StartsWith', 'Ac'), { or: [{ Name: { like: 'Ac%' } }] }],
    [filter('Regions__c', 'Includes', 'EMEA', 'APAC;LATAM'), { Regions__c: { includes: ['EMEA', 'APAC;LATAM'] } }],
    [
      filter('Regions__c', 'Equals', 'EMEA', 'APAC'),
      { or: [{ Regions__c: { eq: 'EMEA' } }, { Regions__c: { eq: 'APAC' } }] },
    ],
    [filter('Owner.Name', 'Equals', 'Ada'), { Owner: { Name: { eq: 'Ada' } } }],
    [filter('account.owner.name', 'StartsWith', 'A'), { or: [{ Owner: { Name: { like: 'A%' } } }] }],
  ])('%j', (definition, where) => {
    expect(filterCondition(ORG, ACCOUNT, definition)).toEqual(where);
  });

  it('refuses unknown fields as unknown columns, and operators or values that do not fit the field', () => {
    expect(failure(() => filterCondition(ORG, ACCOUNT, filter('Nope__c', 'Equals', 'x')))).toMatchObject({
      status: 400,
      errorCode: 'INVALID_FIELD',
    });
    expect(failure(() => filterCondition(ORG, ACCOUNT, filter('Owner.Nope', 'Equals', 'x')))).toMatchObject({
      status: 400,
      errorCode: 'INVALID_FIELD',
    });
    for (const [definition, message] of [
      [filter('AnnualRevenue', 'Contains', '1'), 'Operator Contains can not be used'],
      [filter('IsPartner__c', 'GreaterThan', 'true'), 'Operator GreaterThan can not be used'],
      [filter('Logo__c', 'Equals', 'x'), 'Operator Equals can not be used'],
      [filter('AnnualRevenue', 'GreaterThan', 'lots'), 'must be a number'],
      [filter('IsPartner__c', 'Equals', 'yes'), 'must be true or false'],
      [filter('AnnualRevenue', 'GreaterThan', '1', '2'), 'takes exactly one value'],
      [filter('Name', 'Contains'), 'takes at least one value'],
      [filter('Name', 'Within', 'x'), 'Operator Within can not be used'],
    ] as const) {
      const error = failure(() => filterCondition(ORG, ACCOUNT, definition));
      expect(error).toMatchObject({ status: 400, errorCode: 'INVALID_QUERY_FILTER_OPERATOR' });
      expect(error.message).toContain(message);
    }
  });

  it('publishes the operators each kind of field takes, and a default', () => {
    expect(filterOperators(field(ACCOUNT, 'Name'))).toEqual([
      'Equals',
      'NotEqual',
      'LessThan',
      'GreaterThan',
      'LessOrEqual',
      'GreaterOrEqual',
      'Contains',
      'NotContain',
      'StartsWith',
    ]);
    expect(filterOperators(field(ACCOUNT, 'Industry'))).toEqual([
      'Equals',
      'NotEqual',
      'Contains',
      'NotContain',
      'StartsWith',
    ]);
    expect(filterOperators(field(ACCOUNT, 'IsPartner__c'))).toEqual(['Equals', 'NotEqual']);
    expect(filterOperators(field(ACCOUNT, 'Regions__c'))).toEqual(['Equals', 'NotEqual', 'Includes', 'Excludes']);
    expect(filterOperators(field(ACCOUNT, 'Logo__c'))).toEqual([]);
    expect(defaultFilterOperator(field(ACCOUNT, 'Regions__c'))).toBe('Includes');
    expect(defaultFilterOperator(field(ACCOUNT, 'Logo__c'))).toBeNull();
  });
});

describe('listViewWhere', () => {
  const filters = [
    filter('Industry', 'Equals', 'Energy'),
    filter('AnnualRevenue', 'GreaterThan', '1000'),
    filter('NumberOfEmployees', 'LessThan', '10'),
  ];

  it('combines the filters by the logic, and ANDs them without one', () => {
    expect(listViewWhere(ORG, ACCOUNT, filters, '1 AND (2 OR NOT 3)')).toEqual({
      and: [
        { Industry: { eq: 'Energy' } },
        { or: [{ AnnualRevenue: { gt: 1000 } }, { not: { NumberOfEmployees: { lt: 10 } } }] },
      ],
    });
    expect(listViewWhere(ORG, ACCOUNT, filters.slice(0, 2), null)).toEqual({
      and: [{ Industry: { eq: 'Energy' } }, { AnnualRevenue: { gt: 1000 } }],
    });
    expect(listViewWhere(ORG, ACCOUNT, [], null)).toBeNull();
  });

  it('compiles through the query core, so that the caller may filter only on fields it may read', () => {
    const compiled = compileWhere(listViewWhere(ORG, ACCOUNT, filters, '1 AND (2 OR 3)')!, targetOf(ACCOUNT), {
      now: NOW,
      parameter: 'filter',
    });
    expect(compiled.values).toEqual(['Energy', 1000, 10]);
    expect(compiled.text).toContain("lower((r.fields ->> 'Industry')) = lower($1::text)");
    const hidden = listViewWhere(ORG, ACCOUNT, [filter('Secret__c', 'Equals', 'x')], null)!;
    expect(failure(() => compileWhere(hidden, targetOf(ACCOUNT), { now: NOW, parameter: 'filter' }))).toMatchObject({
      errorCode: 'INVALID_FIELD',
    });
    const unknown = failure(() => listViewWhere(ORG, ACCOUNT, [filter('Nope__c', 'Equals', 'x')], null));
    expect(unknown.message).toBe(
      failure(() => compileWhere(hidden, targetOf(ACCOUNT), { now: NOW })).message.replace('Secret__c', 'Nope__c'),
    );
  });
});

const view = (definition: Partial<ListView['definition']>, objectApiName = 'Account'): ListView => ({
  id: '00B8d0000000009EAA',
  objectApiName,
  apiName: 'Test',
  ownerId: null,
  definition: {
    label: 'Test',
    displayColumns: ['Name', 'Phone', 'Owner.Name', 'AnnualRevenue'],
    filteredByInfo: [],
    filterLogicString: null,
    orderedByInfo: [],
    scope: 'everything',
    visibility: 'Public',
    listShares: [],
    ...definition,
  },
});

describe('listViewIndexes', () => {
  const definitions = (indexes: { definition: string }[]) => indexes.map((index) => index.definition);
  const WHERE = "WHERE object_api_name = 'Account'";

  it('indexes the order with the Id tie-break, and each required Equals filter before it', () => {
    const indexes = listViewIndexes(
      ORG,
      ACCOUNT,
      view({
        orderedByInfo: [
          { fieldApiName: 'Name', isAscending: true },
          { fieldApiName: 'AnnualRevenue', isAscending: false },
        ],
        filteredByInfo: [
          filter('Industry', 'Equals', 'Energy'),
          filter('NumberOfEmployees', 'GreaterThan', '5'),
          filter('Phone', 'Equals', '1'),
        ],
        filterLogicString: '1 AND (2 OR 3)',
      }),
      { trigramOperatorClass: null },
    );
    const revenue =
      "(CASE WHEN jsonb_typeof(record.fields -> 'AnnualRevenue') = 'number' THEN (record.fields ->> 'AnnualRevenue')::numeric END)";
    const order = `(lower((record.fields ->> 'Name'))) NULLS FIRST, (${revenue}) DESC NULLS LAST, (record.id)`;
    expect(definitions(indexes)).toEqual([
      `(${order}) ${WHERE}`,
      `((lower((record.fields ->> 'Industry'))), ${order}) ${WHERE}`,
      `(((CASE WHEN jsonb_typeof(record.fields -> 'NumberOfEmployees') = 'number' THEN (record.fields ->> 'NumberOfEmployees')::numeric END)) NULLS FIRST, (record.id)) ${WHERE}`,
    ]);
    expect(
      indexes.every((index) => /^list_view_[0-9a-f]{24}$/.test(index.name) && index.objectApiName === 'Account'),
    ).toBe(true);
  });

  it('indexes the owner for scope mine, system date columns for ranges, and trigrams of searchable columns when it can', () => {
    const mine = definitions(
      listViewIndexes(
        ORG,
        ACCOUNT,
        view({
          scope: 'mine',
          filteredByInfo: [filter('CreatedDate', 'LessThan', 'TODAY'), filter('Founded__c', 'LessThan', 'TODAY')],
        }),
        { trigramOperatorClass: '"public".gin_trgm_ops' },
      ),
    );
    expect(mine).toEqual([
      `((record.created_date) NULLS FIRST, (record.id)) ${WHERE}`,
      `(((record.fields ->> 'OwnerId')), (record.id)) ${WHERE}`,
      `((record.created_by_id)) ${WHERE}`,
      `USING gin (((record.fields ->> 'Name')) "public".gin_trgm_ops) ${WHERE}`,
      `USING gin (((record.fields ->> 'Phone')) "public".gin_trgm_ops) ${WHERE}`,
    ]);
  });

  it('leaves out what no index can hold: a parent field in the order, a date kept as text, searches of narrowed views', () => {
    expect(
      listViewIndexes(ORG, ACCOUNT, view({ orderedByInfo: [{ fieldApiName: 'Owner.Name', isAscending: true }] }), {
        trigramOperatorClass: null,
      }),
    ).toEqual([]);
    expect(
      definitions(
        listViewIndexes(ORG, ACCOUNT, view({ filteredByInfo: [filter('IsPartner__c', 'Equals', 'true')] }), {
          trigramOperatorClass: 'gin_trgm_ops',
        }),
      ),
    ).toEqual([`((coalesce(record.fields ->> 'IsPartner__c' = 'true', false)), (record.id)) ${WHERE}`]);
    expect(
      listViewIndexes(
        ORG,
        CONTACT,
        view({ displayColumns: [], filteredByInfo: [filter('Birthdate', 'GreaterThan', 'TODAY')] }, 'Contact'),
        {
          trigramOperatorClass: null,
        },
      ),
    ).toEqual([]);
  });
});

describe("the org's list-view files", () => {
  const org = orgOfDefinitions();
  const objects = [...org.objects.values()];
  const dir = resolve(import.meta.dirname, '../../server/platform/metadata/list-views');
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(resolve(dir, name), 'utf8')) as ListViewFile);

  it('has one file per object, each with All, Recently Viewed, My and a view with filters and filter logic', () => {
    // A field history object has no list views, on the platform either: its rows are read as a related list.
    const listed = objects.filter((object) => !object.apiName.endsWith('__History'));
    expect(files.map((file) => file.objectApiName).sort()).toEqual(listed.map((o) => o.apiName).sort());
    for (const file of files) {
      const object = org.objects.get(file.objectApiName)!;
      const views = listViewsOfFile(file);
      const plural = object.definition.labelPlural;
      expect(
        views.find((one) => one.definition.scope === 'everything' && one.definition.filteredByInfo.length === 0)
          ?.definition.label,
        file.objectApiName,
      ).toMatch(/^All /);
      expect(views.find((one) => one.apiName === '__Recent')).toMatchObject({
        id: null,
        definition: { label: 'Recently Viewed', scope: null },
      });
      expect(views.find((one) => one.definition.scope === 'mine')?.definition.label, file.objectApiName).toMatch(
        /^My /,
      );
      expect(
        views.some((one) => one.definition.filteredByInfo.length > 1 && one.definition.filterLogicString),
        file.objectApiName,
      ).toBe(true);
      expect(plural.length).toBeGreaterThan(0);
    }
  });

  it('names only fields that exist, with operators and values that fit them, and unique ids', () => {
    for (const file of files)
      expect(listViewFileProblems(org, org.objects.get(file.objectApiName)!, file), file.objectApiName).toEqual([]);
    const ids = files.flatMap((file) => listViewsOfFile(file).map((one) => one.id)).filter((id) => id !== null);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reports what is wrong in a file', () => {
    const file: ListViewFile = {
      objectApiName: 'Account',
      listViews: [
        {
          id: '00B8d0000000001EAB',
          apiName: 'Bad',
          label: 'Bad',
          displayColumns: ['Nope__c'],
          orderedByInfo: [{ fieldApiName: 'Description', isAscending: true }],
          filteredByInfo: [filter('Type', 'GreaterThan', 'x', 'y')],
        },
        { apiName: '__Recent', label: 'Recently Viewed', displayColumns: [], scope: 'mine' },
        { id: '001000000000001AAA', apiName: 'bad', label: '', displayColumns: [], listShares: ['Role.Nobody'] },
      ],
    };
    expect(listViewFileProblems(org, org.objects.get('Account')!, file)).toEqual([
      'Bad: id must be an 18-character list view id (beginning 00B)',
      'Bad: column Nope__c: no such field',
      'Bad: order Description: no such sortable field',
      "Bad: Operator GreaterThan can not be used on field 'Type' of type Picklist",
      '__Recent: __Recent has no id, filters, order or scope',
      'bad: apiName is used twice',
      'bad: id must be an 18-character list view id (beginning 00B)',
      'bad: label is required',
      'bad: share Role.Nobody: no such role or group',
    ]);
  });
});
