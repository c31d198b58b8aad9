/**
 * Lists over real HTTP, on every test database: list infos (by name, by id, MRU, batch, per object), list
 * view summaries, list UI and pages of records (POST body and GET query forms, by name and by id), as a guest,
 * the standard user and the administrator. Every answer is checked against the contract. Records come
 * through the query core: filters, sorts, searches and pages are compared with the stored records, and what
 * the caller may not see is never listed, counted, filtered, sorted or searched on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_US, compareBytes, DEFAULT_CONTACT_ID, storedContacts, type StoredContact } from '../support/api.ts';
import {
  ALL_CONTACT_US_ID,
  errorOf,
  listApi,
  ok,
  valueOf,
  type ListInfo,
  type ListInfoBatch,
  type ListInfoSummaries,
  type ListRecords,
  type ListUi,
  type ListViewSummaries,
  type ListObjectInfo,
} from '../support/lists.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const CONTACTS = 60;
const INVALID_SESSION = { status: 401, errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' };

/** Text as PostgreSQL's lower() sorts it for the ASCII these tests sort by. */
const byLowerThenId =
  (value: (contact: StoredContact) => string | null, descending = false) =>
  (a: StoredContact, b: StoredContact) => {
    const [x, y] = [value(a), value(b)].map((text) => (text === null ? null : text.toLowerCase()));
    if (x !== y) {
      if (x === null) return descending ? 1 : -1;
      if (y === null) return descending ? -1 : 1;
      return (descending ? -1 : 1) * compareBytes(x, y);
    }
    return compareBytes(a.id, b.id);
  };

describe.each(databases())('lists (read) on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  let contacts: StoredContact[];
  const api = listApi(() => server);

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: CONTACTS });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
    contacts = await storedContacts(server.db);
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID on every list operation', async () => {
    const answers = await Promise.all([
      api.listInfo(CONTACT_US, 'AllContactUs', null),
      api.mruListInfo(CONTACT_US, null),
      api.listInfoById(ALL_CONTACT_US_ID, null),
      api.listInfos(CONTACT_US, '', null),
      api.listInfoBatch(`?ids=${ALL_CONTACT_US_ID}`, null),
      api.summaries(CONTACT_US, '', null),
      api.listUi(CONTACT_US, 'AllContactUs', '', null),
      api.mruListUi(CONTACT_US, '', null),
      api.records(CONTACT_US, 'AllContactUs', {}, null),
      api.recordsGet(CONTACT_US, 'AllContactUs', '', null),
      api.recordsById(ALL_CONTACT_US_ID, '', null),
      api.mruRecords(CONTACT_US, '', null),
      api.objectInfo(CONTACT_US, null),
      api.create(CONTACT_US, { label: 'Mine' }, null),
      api.update(CONTACT_US, 'AllContactUs', { label: 'Mine' }, null),
      api.remove(CONTACT_US, 'AllContactUs', null),
      api.preferences(CONTACT_US, 'AllContactUs', null),
      api.updatePreferences(CONTACT_US, 'AllContactUs', {}, null),
    ]);
    for (const answer of answers) expect(errorOf(answer)).toEqual(INVALID_SESSION);
  });

  describe('list info', () => {
    it('describes a list view: columns, order, scope, sharing, rights, and an eTag that is also the ETag header (304 when it matches)', async () => {
      const response = await api.listInfo(CONTACT_US, 'AllContactUs', admin);
      const info = ok<ListInfo>(response);
      expect(info).toMatchObject({
        label: 'All Contact Us',
        listReference: {
          id: ALL_CONTACT_US_ID,
          listViewApiName: 'AllContactUs',
          objectApiName: CONTACT_US,
          type: 'listView',
        },
        filteredByInfo: [],
        filterLogicString: null,
        orderedByInfo: [{ fieldApiName: 'Name', isAscending: true, label: 'Contact Us Name' }],
        scope: { apiName: 'everything', entity: null, label: 'All Contact Us', relatedEntity: null },
        visibility: 'Public',
        listShares: [],
        objectApiNames: [CONTACT_US],
        searchable: true,
        userPreferences: { columnWidths: {}, columnWrap: {} },
        cloneable: true,
        createable: true,
        updateable: true,
        deletable: true,
        visibilityEditable: true,
      });
      expect(info.displayColumns.map((column) => column.fieldApiName)).toEqual([
        'Name',
        'APT_Company_Name__c',
        'APT_City__c',
        'APT_UI_Country__c',
      ]);
      expect(info.displayColumns[0]).toEqual({
        fieldApiName: 'Name',
        label: 'Contact Us Name',
        lookupId: 'Id',
        searchable: true,
        sortable: true,
      });
      expect(info.eTag).toMatch(/^[0-9a-f]{32}$/);
      expect(response.headers.get('etag')).toBe(`"${info.eTag}"`);
      expect(
        (await api.listInfo(CONTACT_US, 'AllContactUs', admin, { 'If-None-Match': `"${info.eTag}"` })).status,
      ).toBe(304);
      // Names are case-insensitive, objects too; the answer spells them as the metadata does.
      expect(
        ok<ListInfo>(await api.listInfo('apt_contact_us__c', 'allcontactus', admin)).listReference.listViewApiName,
      ).toBe('AllContactUs');
    });

    it("gives the standard user the org's list views read-only, and the filters and their logic", async () => {
      const info = ok<ListInfo>(await api.listInfo(CONTACT_US, 'NorthAmericanArclineContacts', standard));
      expect(info).toMatchObject({
        updateable: false,
        deletable: false,
        visibilityEditable: false,
        cloneable: true,
        createable: true,
        filterLogicString: '1 AND (2 OR 3)',
      });
      expect(info.filteredByInfo).toEqual([
        {
          fieldApiName: 'APT_Country__c',
          label: 'Country',
          operandLabels: ['United States', 'Canada', 'Mexico'],
          operator: 'Equals',
        },
        { fieldApiName: 'APT_Brand__c', label: 'Brand', operandLabels: ['Arcline'], operator: 'Includes' },
        {
          fieldApiName: 'CreatedDate',
          label: 'Created Date',
          operandLabels: ['2025-01-01'],
          operator: 'GreaterOrEqual',
        },
      ]);
    });

    it('describes the MRU list (__Recent), by its own path and by name', async () => {
      const mru = ok<ListInfo>(await api.mruListInfo(CONTACT_US, standard));
      expect(mru).toMatchObject({
        label: 'Recently Viewed',
        listReference: { id: null, listViewApiName: '__Recent', objectApiName: CONTACT_US, type: 'mru' },
        scope: null,
        inlineEditDetails: null,
        updateable: false,
        deletable: false,
        cloneable: false,
      });
      expect(ok<ListInfo>(await api.listInfo(CONTACT_US, '__Recent', standard))).toEqual(mru);
    });

    it('describes a list view by id (list-info/{listViewId}), and answers 400 to a malformed id, 404 to an unknown one', async () => {
      expect(ok<ListInfo>(await api.listInfoById(ALL_CONTACT_US_ID, standard)).listReference.listViewApiName).toBe(
        'AllContactUs',
      );
      expect(ok<ListInfo>(await api.listInfoById(ALL_CONTACT_US_ID.slice(0, 15), standard)).listReference.id).toBe(
        ALL_CONTACT_US_ID,
      );
      expect(errorOf(await api.listInfoById('00B8d0000000001XYZ', standard))).toMatchObject({
        status: 400,
        errorCode: 'INVALID_ID_FIELD',
      });
      expect(errorOf(await api.listInfoById('00B8d00000000zzEAA', standard))).toMatchObject({
        status: 404,
        errorCode: 'NOT_FOUND',
      });
    });

    it('answers 404 for an unknown list view or object, and 400 for a malformed name', async () => {
      expect(errorOf(await api.listInfo(CONTACT_US, 'NoSuchList', admin))).toEqual({
        status: 404,
        errorCode: 'NOT_FOUND',
        message: 'The requested resource does not exist',
      });
      expect(errorOf(await api.listInfo('No_Such_Object__c', 'AllContactUs', admin))).toMatchObject({ status: 404 });
      expect(errorOf(await api.listInfo(CONTACT_US, 'bad-name', admin))).toMatchObject({
        status: 400,
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
      });
    });

    it('answers a batch with one result per list view, ids first, a 404 result for what does not exist', async () => {
      const batch = ok<ListInfoBatch>(
        await api.listInfoBatch(
          `?ids=${ALL_CONTACT_US_ID},00B8d00000000zzEAA&names=${CONTACT_US}.DefaultContacts,${CONTACT_US}.__Recent,Account.NoSuchList,Nope__c.AllNope`,
          standard,
        ),
      );
      expect(batch.results.map((result) => result.statusCode)).toEqual([200, 404, 200, 200, 404, 404]);
      expect((batch.results[2].result as ListInfo).label).toBe('Default Contacts');
      expect((batch.results[3].result as ListInfo).listReference.type).toBe('mru');
      expect(batch.results[1].result).toEqual([
        { errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' },
      ]);
      expect(errorOf(await api.listInfoBatch('', standard))).toMatchObject({
        status: 400,
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
      });
      expect(errorOf(await api.listInfoBatch('?names=AllContactUs', standard))).toMatchObject({ status: 400 });
    });
  });

  describe('list view summaries', () => {
    it('pages the visible list views of an object by label, with q (a * wildcard) and page tokens', async () => {
      const all = ok<ListInfoSummaries>(await api.listInfos(CONTACT_US, '', standard));
      expect(all.lists.map((list) => list.label)).toEqual([
        'All Contact Us',
        'Default Contacts',
        'My Contact Us',
        'North American Arcline Contacts',
      ]);
      expect(all).toMatchObject({
        count: 4,
        pageSize: 20,
        currentPageToken: '0',
        nextPageToken: null,
        previousPageToken: null,
        queryString: null,
        recentListsOnly: false,
        objectApiName: CONTACT_US,
      });
      expect(all.lists[0]).toEqual({
        apiName: 'AllContactUs',
        id: ALL_CONTACT_US_ID,
        label: 'All Contact Us',
        url: `/services/data/v65.0/ui-api/list-ui/${ALL_CONTACT_US_ID}`,
      });
      const first = ok<ListInfoSummaries>(await api.listInfos(CONTACT_US, '?pageSize=3', standard));
      expect(first).toMatchObject({
        count: 3,
        nextPageToken: '3',
        nextPageUrl: `/services/data/v65.0/ui-api/list-info/${CONTACT_US}?pageSize=3&pageToken=3`,
      });
      const second = ok<ListInfoSummaries>(
        await api.listInfos(CONTACT_US, `?pageSize=3&pageToken=${first.nextPageToken}`, standard),
      );
      expect(second).toMatchObject({ count: 1, nextPageToken: null, previousPageToken: '0' });
      const searched = ok<ListInfoSummaries>(await api.listInfos(CONTACT_US, '?q=contact*US', standard));
      expect(searched.lists.map((list) => list.apiName)).toEqual(['AllContactUs', 'MyContactUs']);
      expect(searched.queryString).toBe('contact*US');
    });

    it('answers the list UI form with an eTag, and the list UI of a list view named by id', async () => {
      const summaries = ok<ListViewSummaries>(await api.summaries(CONTACT_US, '?q=default', admin));
      expect(summaries.lists).toEqual([
        {
          apiName: 'DefaultContacts',
          id: '00B8d0000000002EAA',
          label: 'Default Contacts',
          listUiUrl: '/services/data/v65.0/ui-api/list-ui/00B8d0000000002EAA',
        },
      ]);
      expect(summaries.eTag).toMatch(/^[0-9a-f]{32}$/);
      const byId = ok<ListUi>(await api.summaries(ALL_CONTACT_US_ID, '?pageSize=3', admin));
      expect(byId.info.label).toBe('All Contact Us');
      expect(byId.records).toMatchObject({
        count: 3,
        pageSize: 3,
        currentPageUrl: `/services/data/v65.0/ui-api/list-records/${ALL_CONTACT_US_ID}?pageSize=3&pageToken=0`,
      });
    });

    it('lists, with recentListsOnly, only the list views the caller opened, most recent first', async () => {
      const fresh = await signIn(server, 'standard');
      expect(ok<ListViewSummaries>(await api.summaries(CONTACT_US, '?recentListsOnly=true', fresh)).lists).toEqual([]);
      ok<ListUi>(await api.listUi(CONTACT_US, 'DefaultContacts', '?pageSize=1', fresh));
      const recent = ok<ListViewSummaries>(await api.summaries(CONTACT_US, '?recentListsOnly=true', fresh));
      expect(recent).toMatchObject({
        recentListsOnly: true,
        currentPageUrl: `/services/data/v65.0/ui-api/list-ui/${CONTACT_US}?pageSize=20&pageToken=0&recentListsOnly=true`,
      });
      expect(recent.lists.map((list) => list.apiName)).toContain('DefaultContacts');
    });

    it('answers 400 to a page size or token out of range, 404 to an object the caller may not read', async () => {
      expect(errorOf(await api.listInfos(CONTACT_US, '?pageSize=0', admin))).toMatchObject({
        status: 400,
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
      });
      expect(errorOf(await api.summaries(CONTACT_US, '?pageToken=2001', admin))).toMatchObject({
        status: 400,
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
      });
      expect(errorOf(await api.summaries(CONTACT_US, '?pageToken=ten', admin))).toMatchObject({
        status: 400,
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
      });
      expect(errorOf(await api.listInfos('No_Such_Object__c', '', admin))).toMatchObject({ status: 404 });
    });
  });

  describe('list records', () => {
    it("reads the first page in the list view's order, with its columns, Id and the fields asked for", async () => {
      const page = ok<ListRecords>(
        await api.records(
          CONTACT_US,
          'AllContactUs',
          { pageSize: 5, fields: ['APT_Phone__c'], optionalFields: [`${CONTACT_US}.APT_Zip__c`, 'No_Such_Field__c'] },
          admin,
        ),
      );
      const expected = [...contacts].sort(byLowerThenId((contact) => contact.fields.Name as string)).slice(0, 5);
      expect(page.records.map((record) => record.id)).toEqual(expected.map((contact) => contact.id));
      expect(Object.keys(page.records[0].fields).sort()).toEqual([
        'APT_City__c',
        'APT_Company_Name__c',
        'APT_Phone__c',
        'APT_UI_Country__c',
        'APT_Zip__c',
        'Id',
        'Name',
      ]);
      expect(page).toMatchObject({
        count: 5,
        pageSize: 5,
        sortBy: 'Name,Id',
        currentPageToken: '0',
        nextPageToken: '5',
        previousPageToken: null,
        fields: ['APT_Phone__c'],
        optionalFields: [`${CONTACT_US}.APT_Zip__c`, 'No_Such_Field__c'],
        searchTerm: null,
        where: null,
        listReference: {
          id: ALL_CONTACT_US_ID,
          listViewApiName: 'AllContactUs',
          objectApiName: CONTACT_US,
          type: 'listView',
        },
        currentPageUrl: `/services/data/v65.0/ui-api/list-records/${CONTACT_US}/AllContactUs?fields=APT_Phone__c&optionalFields=${CONTACT_US}.APT_Zip__c%2CNo_Such_Field__c&pageSize=5&pageToken=0`,
      });
      const info = ok<ListInfo>(await api.listInfo(CONTACT_US, 'AllContactUs', admin));
      expect(page.listInfoETag).toBe(info.eTag);
      expect(valueOf(page.records[0], 'Id')).toBe(page.records[0].id);
    });

    it('pages with offset tokens to the end, each page following the last, the GET form and the id form alike', async () => {
      const seen: string[] = [];
      let token: string | null = '0';
      while (token !== null) {
        const page: ListRecords = ok<ListRecords>(
          await api.records(
            CONTACT_US,
            'AllContactUs',
            { pageSize: 25, pageToken: token, sortBy: ['-APT_City__c'] },
            standard,
          ),
        );
        seen.push(...page.records.map((record) => record.id));
        expect(page.sortBy).toBe('-APT_City__c,Id');
        token = page.nextPageToken;
        if (token !== null) expect(page.nextPageUrl).toContain(`pageToken=${token}&sortBy=-APT_City__c`);
      }
      expect(seen).toHaveLength(CONTACTS);
      expect(new Set(seen).size).toBe(CONTACTS);
      const byGet = ok<ListRecords>(
        await api.recordsGet(CONTACT_US, 'AllContactUs', '?pageSize=25&pageToken=25&sortBy=-APT_City__c', standard),
      );
      expect(byGet.records.map((record) => record.id)).toEqual(seen.slice(25, 50));
      const byId = ok<ListRecords>(
        await api.recordsById(ALL_CONTACT_US_ID, '?pageSize=25&pageToken=50&sortBy=-APT_City__c', standard),
      );
      expect(byId.records.map((record) => record.id)).toEqual(seen.slice(50));
      expect(byId.previousPageUrl).toBe(
        `/services/data/v65.0/ui-api/list-records/${ALL_CONTACT_US_ID}?pageSize=25&pageToken=25&sortBy=-APT_City__c`,
      );
      const past = ok<ListRecords>(
        await api.records(CONTACT_US, 'AllContactUs', { pageSize: 50, pageToken: '2000' }, standard),
      );
      expect(past).toMatchObject({ count: 0, records: [], nextPageToken: null, previousPageToken: '1950' });
    });

    it("filters with where on top of the view's own filters, and searches its searchable columns", async () => {
      const unitedStates = contacts.filter((contact) => contact.fields.APT_Country__c === 'United States');
      const usPage = ok<ListRecords>(
        await api.records(
          CONTACT_US,
          'AllContactUs',
          { pageSize: 2000, where: '{ APT_Country__c: { eq: "united states" } }', sortBy: ['APT_City__c'] },
          admin,
        ),
      );
      expect(usPage.records.map((record) => record.id)).toEqual(
        [...unitedStates]
          .sort(byLowerThenId((contact) => contact.fields.APT_City__c as string))
          .map((contact) => contact.id),
      );
      expect(usPage.where).toBe('{ APT_Country__c: { eq: "united states" } }');
      const view = ok<ListRecords>(
        await api.recordsGet(CONTACT_US, 'NorthAmericanArclineContacts', '?pageSize=2000', admin),
      );
      const northAmerica = contacts.filter((contact) =>
        ['United States', 'Canada', 'Mexico'].includes(contact.fields.APT_Country__c as string),
      );
      expect(view.records.map((record) => record.id).sort()).toEqual(northAmerica.map((contact) => contact.id).sort());
      const both = ok<ListRecords>(
        await api.recordsGet(
          CONTACT_US,
          'NorthAmericanArclineContacts',
          `?pageSize=2000&where=${encodeURIComponent('{ not: { APT_Country__c: { eq: "Canada" } } }')}`,
          admin,
        ),
      );
      expect(both.records.map((record) => record.id).sort()).toEqual(
        northAmerica
          .filter((contact) => contact.fields.APT_Country__c !== 'Canada')
          .map((contact) => contact.id)
          .sort(),
      );
      const term = String(contacts[3].fields.APT_City__c).slice(1, 5);
      const found = ok<ListRecords>(
        await api.records(CONTACT_US, 'AllContactUs', { pageSize: 2000, searchTerm: term }, admin),
      );
      const columns = ['Name', 'APT_Company_Name__c', 'APT_City__c', 'APT_UI_Country__c'];
      const matching = contacts.filter((contact) =>
        columns.some((column) =>
          String(contact.fields[column] ?? '')
            .toLowerCase()
            .includes(term.toLowerCase()),
        ),
      );
      expect(found.records.map((record) => record.id).sort()).toEqual(matching.map((contact) => contact.id).sort());
      expect(found.searchTerm).toBe(term);
      const defaults = ok<ListRecords>(await api.recordsGet(CONTACT_US, 'DefaultContacts', '', standard));
      expect(defaults.records.map((record) => record.id)).toEqual([DEFAULT_CONTACT_ID]);
    });

    it('answers 400 in the platform shape, naming the problem and never the SQL, to bad input', async () => {
      const bad = async (body: unknown) => {
        const answer = await api.records(CONTACT_US, 'AllContactUs', body, admin);
        const error = errorOf(answer);
        expect(error.status, answer.text).toBe(400);
        expect(error.message).not.toMatch(/SELECT|record r|::text|\$\d/);
        return error;
      };
      expect(await bad({ where: '{ Name: { eq: "x" }' })).toMatchObject({
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
        message: expect.stringContaining("Illegal value for parameter 'where'"),
      });
      expect(await bad({ where: '{ No_Such__c: { eq: "x" } }' })).toMatchObject({
        errorCode: 'INVALID_FIELD',
        message: expect.stringContaining("No such column 'No_Such__c'"),
      });
      expect(await bad({ where: '{ Name: { gt: 5 } }' })).toMatchObject({ errorCode: 'INVALID_QUERY_FILTER_OPERATOR' });
      expect(await bad({ where: '{ APT_Default_Contact__c: { like: "t%" } }' })).toMatchObject({
        errorCode: 'INVALID_QUERY_FILTER_OPERATOR',
      });
      expect(await bad({ sortBy: ['No_Such__c'] })).toMatchObject({ errorCode: 'INVALID_FIELD' });
      expect(await bad({ sortBy: ['APT_Brand__c'] })).toMatchObject({
        errorCode: 'INVALID_FIELD',
        message: expect.stringContaining('can not be sorted'),
      });
      expect(await bad({ fields: ['No_Such__c'] })).toMatchObject({ errorCode: 'INVALID_FIELD' });
      expect(await bad({ pageToken: '2001' })).toMatchObject({
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
        message: expect.stringContaining('pageToken'),
      });
      expect(await bad({ pageToken: 'abc' })).toMatchObject({
        errorCode: 'INVALID_INPUT',
        message: expect.stringContaining('pageToken'),
      });
      expect(await bad({ pageSize: 2001 })).toMatchObject({
        errorCode: 'INVALID_INPUT',
        message: expect.stringContaining('pageSize'),
      });
      expect(await bad({ pageSize: 0 })).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(await bad('{"pageSize": ')).toMatchObject({ errorCode: 'JSON_PARSER_ERROR' });
      const query = async (search: string) => errorOf(await api.recordsGet(CONTACT_US, 'AllContactUs', search, admin));
      expect(await query('?pageToken=-1')).toMatchObject({ status: 400, errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE' });
      expect(await query('?pageSize=2001')).toMatchObject({ status: 400, errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE' });
      expect(await query(`?where=${encodeURIComponent('{ Name: ')}`)).toMatchObject({
        status: 400,
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
      });
      expect(await query(`?where=${encodeURIComponent('{ CreatedDate: { eq: "yesterday-ish" } }')}`)).toMatchObject({
        status: 400,
        errorCode: 'INVALID_QUERY_FILTER_OPERATOR',
      });
      expect(errorOf(await api.records(CONTACT_US, 'NoSuchList', {}, admin))).toMatchObject({
        status: 404,
        errorCode: 'NOT_FOUND',
      });
    });

    it('reads the first 50 in the view order with an empty or absent body', async () => {
      const absent = ok<ListRecords>(await api.records(CONTACT_US, 'AllContactUs', undefined, standard));
      const empty = ok<ListRecords>(await api.records(CONTACT_US, 'AllContactUs', {}, standard));
      expect(absent).toMatchObject({ count: 50, pageSize: 50, sortBy: 'Name,Id', nextPageToken: '50' });
      expect(empty.records.map((record) => record.id)).toEqual(absent.records.map((record) => record.id));
    });

    it('answers the list UI: info and a page of records that carries its eTag', async () => {
      const response = await api.listUi(CONTACT_US, 'AllContactUs', '?pageSize=2&fields=APT_Phone__c', standard);
      const ui = ok<ListUi>(response);
      expect(ui.records.listInfoETag).toBe(ui.info.eTag);
      expect(ui.records).toMatchObject({
        count: 2,
        fields: ['APT_Phone__c'],
        currentPageUrl: `/services/data/v65.0/ui-api/list-records/${CONTACT_US}/AllContactUs?fields=APT_Phone__c&pageSize=2&pageToken=0`,
      });
      expect(response.headers.get('etag')).toBe(`"${ui.eTag}"`);
      expect(errorOf(await api.listUi(CONTACT_US, 'AllContactUs', '?sortBy=Nope__c', standard))).toMatchObject({
        status: 400,
        errorCode: 'INVALID_FIELD',
      });
    });
  });

  describe('who sees what', () => {
    it('never lists or counts records the caller may not see, in any list view of a private object', async () => {
      const adminPage = ok<ListRecords>(await api.recordsGet('Account', 'AllAccounts', '', admin));
      const standardPage = ok<ListRecords>(await api.recordsGet('Account', 'AllAccounts', '', standard));
      expect(adminPage.count).toBe(3);
      expect(standardPage.count).toBe(1);
      expect(standardPage.records.map((record) => valueOf(record, 'Name'))).toEqual(['Riverbend Industrial Controls']);
      expect(
        ok<ListRecords>(await api.recordsGet('Account', 'AllAccounts', '?pageSize=1&pageToken=1', standard)),
      ).toMatchObject({
        count: 0,
        nextPageToken: null,
      });
      const searched = ok<ListRecords>(
        await api.recordsGet('Account', 'AllAccounts', '?searchTerm=Lakeshore', standard),
      );
      expect(searched.count).toBe(0);
      const contactsOfOthers = ok<ListRecords>(
        await api.recordsGet(
          'Contact',
          'AllContacts',
          `?where=${encodeURIComponent('{ Account: { Name: { like: "%" } } }')}`,
          standard,
        ),
      );
      expect(contactsOfOthers.records.map((record) => record.fields.Account.displayValue)).toEqual([
        'Riverbend Industrial Controls',
        'Riverbend Industrial Controls',
      ]);
      const mine = ok<ListRecords>(await api.recordsGet('Account', 'MyAccounts', '', admin));
      expect(mine.count).toBe(2);
    });

    it('treats a field the caller may not read exactly as one that does not exist', async () => {
      const asUnknown = async (session: TestSession, field: string) => {
        const answers = [
          await api.recordsGet('User', 'AllUsers', `?fields=${field}`, session),
          await api.recordsGet('User', 'AllUsers', `?sortBy=${field}`, session),
          await api.recordsGet(
            'User',
            'AllUsers',
            `?where=${encodeURIComponent(`{ ${field}: { eq: "a" } }`)}`,
            session,
          ),
          await api.records('User', 'AllUsers', { where: `{ ${field}: { like: "%" } }` }, session),
        ];
        return answers.map((answer) => {
          const error = errorOf(answer);
          return { ...error, message: error.message.replace(field, '<field>') };
        });
      };
      const hidden = await asUnknown(standard, 'Email');
      expect(hidden).toEqual(await asUnknown(standard, 'Emial'));
      expect(hidden.every((error) => error.status === 400 && error.errorCode === 'INVALID_FIELD')).toBe(true);
      expect(ok<ListRecords>(await api.recordsGet('User', 'AllUsers', '?fields=Email', admin)).count).toBe(3);
      const optional = ok<ListRecords>(await api.recordsGet('User', 'AllUsers', '?optionalFields=Email', standard));
      expect(optional.records.every((record) => !('Email' in record.fields))).toBe(true);
      // A column of a hidden field is left out of the list, and a search does not look in it.
      const created = ok<ListInfo>(
        await api.create(
          'User',
          {
            listViewApiName: 'UsersByEmail',
            label: 'Users by email',
            displayColumns: ['Name', 'Email'],
            visibility: 'Public',
          },
          admin,
        ),
        201,
      );
      expect(created.displayColumns.map((column) => column.fieldApiName)).toEqual(['Name', 'Email']);
      const seen = ok<ListInfo>(await api.listInfo('User', 'UsersByEmail', standard));
      expect(seen.displayColumns.map((column) => column.fieldApiName)).toEqual(['Name']);
      expect(ok<ListRecords>(await api.recordsGet('User', 'UsersByEmail', '?searchTerm=northgate', admin)).count).toBe(
        3,
      );
      expect(
        ok<ListRecords>(await api.recordsGet('User', 'UsersByEmail', '?searchTerm=northgate', standard)).count,
      ).toBe(0);
    });

    it('tells each caller what list views of an object may use, within what it may read', async () => {
      const forAdmin = ok<ListObjectInfo>(await api.objectInfo('User', admin));
      const forStandard = ok<ListObjectInfo>(await api.objectInfo('User', standard));
      expect(forAdmin).toMatchObject({
        objectApiName: 'User',
        createable: true,
        publicOrSharedCreatable: true,
        relatedEntityApiName: null,
      });
      expect(forStandard).toMatchObject({ createable: true, publicOrSharedCreatable: false });
      expect(forAdmin.columns.map((column) => column.fieldApiName)).toContain('Email');
      expect(forStandard.columns.map((column) => column.fieldApiName)).not.toContain('Email');
      expect(forStandard.availableScopes).toEqual([
        { apiName: 'everything', availableEntities: [], label: 'All Users' },
        { apiName: 'mine', availableEntities: [], label: 'My Users' },
      ]);
      const contactUs = ok<ListObjectInfo>(await api.objectInfo(CONTACT_US, standard));
      const brand = contactUs.columns.find((column) => column.fieldApiName === 'APT_Brand__c')!;
      expect(brand).toMatchObject({
        dataType: 'MultiPicklist',
        defaultFilterOperator: 'Includes',
        filterable: true,
        sortable: false,
        supportedFilterOperators: ['Equals', 'NotEqual', 'Includes', 'Excludes'],
      });
      expect(brand.picklistValues.map((value) => value.apiName)).toEqual([
        'Arcline',
        'Boltwright',
        'Conduvex',
        'Dynaswitch',
        'Ferrolux',
        'Gridmark',
        'Helioflex',
        'Ironspan',
      ]);
      expect(errorOf(await api.objectInfo('No_Such_Object__c', standard))).toMatchObject({ status: 404 });
    });
  });
});
