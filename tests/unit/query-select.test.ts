/**
 * The list query builder: how visibility, the caller's conditions, the view's filter, where, searchTerm,
 * the order and the page compose into one page statement and one count statement with consistent
 * placeholders; and the access a principal's profile and the objects' sharing give a query.
 */
import { describe, expect, it } from 'vitest';
import type { DescribedObject } from '../../server/platform/core/describe.ts';
import { PlatformError } from '../../server/platform/core/errors.ts';
import { profileNamed, type Principal, type Profile } from '../../server/platform/core/principal.ts';
import { isFilterable, isSortable, SYSTEM_COLUMNS, valueKindOf } from '../../server/platform/query/fields.ts';
import { buildListQuery, type ListQueryInput } from '../../server/platform/query/select.ts';
import { SqlParameters } from '../../server/platform/query/sql.ts';
import { principalAccess, queryTarget } from '../../server/platform/query/target.ts';
import { ACCOUNT, CONTACT, NOW, orgOfDefinitions, STANDARD_ID, targetOf, testAccess } from '../support/query-org.ts';

const COLUMNS =
  'r.id, r.object_api_name, r.record_type_id, r.fields, r.created_date, r.created_by_id, r.last_modified_date, r.last_modified_by_id, r.system_modstamp';

const build = (input: Partial<ListQueryInput>) =>
  buildListQuery({ target: targetOf(ACCOUNT), now: NOW, defaultPageSize: 50, ...input });

describe('buildListQuery', () => {
  it('reads a page of the object by Id, one row more than the page, and counts all', () => {
    const query = build({});
    expect(query.rows).toEqual({
      text: `SELECT ${COLUMNS} FROM record r WHERE r.object_api_name = $1::text ORDER BY r.id ASC LIMIT $2::int OFFSET $3::int`,
      values: ['Account', 51, 0],
    });
    expect(query.count).toEqual({
      text: 'SELECT count(*)::int AS total FROM record r WHERE r.object_api_name = $1::text',
      values: ['Account'],
    });
    expect(query).toMatchObject({ offset: 0, pageSize: 50, sort: { sortBy: 'Id' } });
  });

  it('reads records through a joined source in its order unless a sort names a field', () => {
    const source = {
      join: (alias: string, parameters: SqlParameters) =>
        `JOIN recent m ON m.record_id = ${alias}.id AND m.user_id = ${parameters.add(STANDARD_ID, 'text')}`,
      orderBy: 'm.used_at DESC',
    };
    const recent = build({ source, where: '{ AnnualRevenue: { gt: 1000 } }' });
    const matching =
      "FROM record r JOIN recent m ON m.record_id = r.id AND m.user_id = $1::text WHERE r.object_api_name = $2::text AND ((CASE WHEN jsonb_typeof(r.fields -> 'AnnualRevenue') = 'number' THEN (r.fields ->> 'AnnualRevenue')::numeric END) > $3::numeric)";
    expect(recent.rows).toEqual({
      text: `SELECT ${COLUMNS} ${matching} ORDER BY m.used_at DESC, r.id ASC LIMIT $4::int OFFSET $5::int`,
      values: [STANDARD_ID, 'Account', 1000, 51, 0],
    });
    expect(recent.count).toEqual({
      text: `SELECT count(*)::int AS total ${matching}`,
      values: [STANDARD_ID, 'Account', 1000],
    });
    expect(recent.sourceOrder).toBe(true);
    const sorted = build({ source, sortBy: 'Name' });
    expect(sorted.rows.text).toContain(
      "JOIN recent m ON m.record_id = r.id AND m.user_id = $1::text WHERE r.object_api_name = $2::text ORDER BY lower((r.fields ->> 'Name')) ASC NULLS FIRST, r.id ASC",
    );
    expect(sorted).toMatchObject({ sourceOrder: false, sort: { sortBy: 'Name,Id' } });
    expect(build({ source, defaultSortBy: '-Name' }).sourceOrder).toBe(false);
    expect(build({}).sourceOrder).toBe(false);
  });

  it('composes visibility, conditions, view filter, where and searchTerm with one numbering', () => {
    const query = build({
      target: targetOf(ACCOUNT, testAccess({ ownAccountsOnly: STANDARD_ID })),
      conditions: [
        (alias, parameters) => `${alias}.fields ->> 'ParentId' = ${parameters.add('001000000000009AAA', 'text')}`,
      ],
      viewFilter: { Industry: { eq: 'Energy' } },
      where: '{ AnnualRevenue: { gt: 1000 } }',
      searchTerm: 'acme',
      searchFields: ['Name'],
      sortBy: '-Name',
      pageSize: '10',
      pageToken: '20',
    });
    const conditions = [
      'r.object_api_name = $1::text',
      "(r.fields ->> 'OwnerId' = $2::text OR r.created_by_id = $2::text)",
      "r.fields ->> 'ParentId' = $3::text",
      "(lower((r.fields ->> 'Industry')) = lower($4::text))",
      "((CASE WHEN jsonb_typeof(r.fields -> 'AnnualRevenue') = 'number' THEN (r.fields ->> 'AnnualRevenue')::numeric END) > $5::numeric)",
      "((r.fields ->> 'Name') ILIKE $6::text)",
    ].join(' AND ');
    const values = ['Account', STANDARD_ID, '001000000000009AAA', 'Energy', 1000, '%acme%'];
    expect(query.count).toEqual({ text: `SELECT count(*)::int AS total FROM record r WHERE ${conditions}`, values });
    expect(query.rows).toEqual({
      text: `SELECT ${COLUMNS} FROM record r WHERE ${conditions} ORDER BY lower((r.fields ->> 'Name')) DESC NULLS LAST, r.id ASC LIMIT $7::int OFFSET $8::int`,
      values: [...values, 11, 20],
    });
    expect(query).toMatchObject({ offset: 20, pageSize: 10, sort: { sortBy: '-Name,Id' } });
  });

  it('keeps the placeholders the order adds out of the count statement', () => {
    const query = buildListQuery({
      target: targetOf(CONTACT, testAccess({ ownAccountsOnly: STANDARD_ID })),
      now: NOW,
      defaultPageSize: 5,
      where: '{ LastName: { eq: "X" } }',
      sortBy: 'Account.Name',
    });
    expect(query.count.values).toEqual(['Contact', 'X']);
    expect(query.count.text).not.toContain('$3');
    expect(query.rows.values).toEqual(['Contact', 'X', 'Account', STANDARD_ID, 6, 0]);
    expect(query.rows.text).toContain(
      "p1.object_api_name = $3::text AND (p1.fields ->> 'OwnerId' = $4::text OR p1.created_by_id = $4::text)",
    );
    expect(Math.max(...query.rows.text.match(/\$(\d+)/g)!.map((p) => Number(p.slice(1))))).toBe(
      query.rows.values.length,
    );
  });

  it('uses the default order when sortBy names none', () => {
    expect(build({ defaultSortBy: '-CreatedDate' }).rows.text).toContain(
      'ORDER BY r.created_date DESC NULLS LAST, r.id ASC',
    );
  });

  it.each([
    ['pageSize', { pageSize: 0 }, 'pageSize'],
    ['pageToken', { pageToken: '2001' }, 'pageToken'],
    ['sortBy', { sortBy: 'Nope' }, "No such column 'Nope'"],
    ['where', { where: '{ Nope: { eq: 1 } }' }, "No such column 'Nope'"],
    ['where syntax', { where: '{' }, "parameter 'where'"],
    ['view filter', { viewFilter: '{' }, "parameter 'filter'"],
    ['searchTerm', { searchTerm: 'x'.repeat(300) }, "parameter 'searchTerm'"],
  ])('fails with a 400 on a bad %s', (_name, input, problem) => {
    try {
      build(input as Partial<ListQueryInput>);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(PlatformError);
      expect((error as PlatformError).status).toBe(400);
      expect((error as PlatformError).message).toContain(problem);
    }
  });
});

describe('principalAccess', () => {
  const profile = (objects: Profile['objects'], fields: Profile['fields'] = {}): Profile => ({
    id: '00e000000000001AAA',
    name: 'Test',
    userType: 'Standard',
    description: '',
    objects,
    fields,
  });
  const principal = (p: Profile): Principal => ({ userId: STANDARD_ID, isGuest: false, profile: p });
  const rights = (more: Partial<Profile['objects'][string]> = {}) => ({
    read: true,
    create: false,
    edit: false,
    delete: false,
    viewAll: false,
    modifyAll: false,
    ...more,
  });
  const privateAccount: DescribedObject = {
    ...ACCOUNT,
    definition: { ...ACCOUNT.definition, sharingModel: 'Private' } as DescribedObject['definition'],
  };

  it('reads objects and fields as the profile allows', () => {
    const access = principalAccess(
      principal(
        profile(
          { Account: rights(), Contact: rights({ read: false }) },
          { 'Account.Secret__c': { read: false, edit: false } },
        ),
      ),
    );
    expect(access.canReadObject(ACCOUNT)).toBe(true);
    expect(access.canReadObject(CONTACT)).toBe(false);
    expect(access.canReadField(ACCOUNT, ACCOUNT.fieldsByName.get('Name')!)).toBe(true);
    expect(access.canReadField(ACCOUNT, ACCOUNT.fieldsByName.get('Secret__c')!)).toBe(false);
    expect(access.canReadField(CONTACT, CONTACT.fieldsByName.get('Name')!)).toBe(false);
  });

  it("limits a private object's rows to the caller's own, unless it may view all", () => {
    const own = principalAccess(principal(profile({ Account: rights() })));
    expect(own.visibleRows(ACCOUNT)).toBeNull();
    const condition = own.visibleRows(privateAccount)!;
    const parameters = new SqlParameters();
    expect(condition('a', parameters)).toBe("(a.fields ->> 'OwnerId' = $1::text OR a.created_by_id = $1::text)");
    expect(parameters.values).toEqual([STANDARD_ID]);
    expect(
      principalAccess(principal(profile({ Account: rights({ viewAll: true }) }))).visibleRows(privateAccount),
    ).toBeNull();
  });
});

describe("the org's own objects", () => {
  const org = orgOfDefinitions();
  const objects = [...org.objects.values()];
  const admin: Principal = { userId: STANDARD_ID, isGuest: false, profile: profileNamed('System Administrator') };

  it.each(objects.map((o) => [o.apiName, o]))(
    '%s: every filterable field filters, every sortable one sorts, and searches work',
    (_name, object) => {
      const target = queryTarget(org, object as DescribedObject, admin);
      const filterable = target.object.fields.filter(isFilterable);
      const sortable = target.object.fields.filter(isSortable).map((field) => field.apiName);
      const where = Object.fromEntries(
        filterable.map((field) => [field.apiName, valueKindOf(field) === 'boolean' ? { eq: true } : { ne: null }]),
      );
      const query = buildListQuery({
        target,
        now: NOW,
        defaultPageSize: 50,
        where: JSON.stringify(where),
        sortBy: sortable.slice(0, 5),
        searchTerm: 'x',
      });
      for (const field of filterable)
        expect(query.count.text).toContain(
          SYSTEM_COLUMNS[field.apiName] ? `r.${SYSTEM_COLUMNS[field.apiName]}` : `'${field.apiName}'`,
        );
      expect(query.sort.keys).toHaveLength(Math.min(5, sortable.length));
    },
  );
});
