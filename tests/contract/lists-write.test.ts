/**
 * Lists that change, over real HTTP on every test database: list views created (Private, Public, Shared),
 * changed and deleted by their owners and by the administrator, refused to the standard user on the org's
 * own; the MRU list following what each user reads with updateMru and writes; each user's list preferences.
 * Every answer is checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_US, DEFAULT_CONTACT_ID, UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import {
  errorOf,
  listApi,
  ok,
  valueOf,
  type ListInfo,
  type ListInfoSummaries,
  type ListPreferences,
  type ListRecords,
  type ListUi,
} from '../support/lists.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const FORBIDDEN = { status: 403, errorCode: 'INSUFFICIENT_ACCESS' };

describe.each(databases())('lists (write) on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const api = listApi(() => server);
  const names = async (session: TestSession) =>
    ok<ListInfoSummaries>(await api.listInfos(CONTACT_US, '?pageSize=100', session)).lists.map((list) => list.apiName);

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 40 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  describe('createListInfo, updateListInfoByName, deleteListInfo', () => {
    it('lets the standard user create a Private list view that only it sees, change it and delete it', async () => {
      const created = ok<ListInfo>(
        await api.create(
          CONTACT_US,
          {
            listViewApiName: 'TexasContacts',
            label: 'Texas Contacts',
            displayColumns: ['Name', 'APT_City__c', 'Owner.Name'],
            filteredByInfo: [
              { fieldApiName: 'APT_Country__c', operator: 'Equals', operandLabels: ['United States'] },
              { fieldApiName: 'APT_Primary_State__c', operator: 'Equals', operandLabels: ['Texas'] },
              { fieldApiName: 'APT_City__c', operator: 'StartsWith', operandLabels: ['Aus'] },
            ],
            filterLogicString: '1 AND (2 OR 3)',
          },
          standard,
        ),
        201,
      );
      expect(created).toMatchObject({
        label: 'Texas Contacts',
        visibility: 'Private',
        updateable: true,
        deletable: true,
        visibilityEditable: false,
        filterLogicString: '1 AND (2 OR 3)',
        scope: { apiName: 'everything' },
        listReference: { listViewApiName: 'TexasContacts', objectApiName: CONTACT_US, type: 'listView' },
      });
      expect(created.listReference.id).toMatch(/^00B[a-zA-Z0-9]{15}$/);
      expect(created.displayColumns.map((column) => [column.fieldApiName, column.label, column.lookupId])).toEqual([
        ['Name', 'Contact Us Name', 'Id'],
        ['APT_City__c', 'City', null],
        ['Owner.Name', 'Owner Full Name', 'Owner.Id'],
      ]);
      expect(await names(standard)).toContain('TexasContacts');
      expect(await names(admin)).not.toContain('TexasContacts');
      expect(errorOf(await api.listInfo(CONTACT_US, 'TexasContacts', admin))).toMatchObject({
        status: 404,
        errorCode: 'NOT_FOUND',
      });

      const page = ok<ListRecords>(await api.recordsGet(CONTACT_US, 'TexasContacts', '?pageSize=2000', standard));
      expect(page.listInfoETag).toBe(created.eTag);
      for (const record of page.records) {
        expect(valueOf(record, 'APT_Country__c') ?? 'United States').toBe('United States');
        expect(record.fields.Owner.displayValue).toBe('Store Administrator');
      }

      const changed = ok<ListInfo>(
        await api.update(
          CONTACT_US,
          'TexasContacts',
          {
            label: 'Texas and Ohio',
            filteredByInfo: [
              { fieldApiName: 'APT_Primary_State__c', operator: 'Equals', operandLabels: ['Texas', 'Ohio'] },
            ],
          },
          standard,
        ),
      );
      expect(changed).toMatchObject({
        label: 'Texas and Ohio',
        filterLogicString: null,
        filteredByInfo: [{ fieldApiName: 'APT_Primary_State__c', operandLabels: ['Texas', 'Ohio'] }],
      });
      expect(changed.eTag).not.toBe(created.eTag);
      expect(ok<ListRecords>(await api.recordsGet(CONTACT_US, 'TexasContacts', '', standard)).listInfoETag).toBe(
        changed.eTag,
      );

      expect((await api.remove(CONTACT_US, 'TexasContacts', standard)).status).toBe(204);
      expect(errorOf(await api.listInfo(CONTACT_US, 'TexasContacts', standard))).toMatchObject({ status: 404 });
      expect(errorOf(await api.remove(CONTACT_US, 'TexasContacts', standard))).toMatchObject({ status: 404 });
    });

    it('keeps every property of changes sent at once, each merged into the one before it', async () => {
      ok(await api.create(CONTACT_US, { listViewApiName: 'ChangedAtOnce', label: 'Changed at once' }, standard), 201);
      // Each change merges into the definition it reads: without the row's lock, two at once both read the same
      // and the later one saved the earlier one's property back as it was. A few rounds, for the race to show.
      for (const [round, country] of ['Canada', 'Mexico', 'Germany', 'France'].entries()) {
        const columns = round % 2 === 0 ? ['Name', 'APT_Phone__c'] : ['Name', 'APT_City__c'];
        const scope = round % 2 === 0 ? 'mine' : 'everything';
        const changes = [
          { label: `Changed in round ${round}` },
          { displayColumns: columns },
          { filteredByInfo: [{ fieldApiName: 'APT_Country__c', operator: 'Equals', operandLabels: [country] }] },
          { scope: { apiName: scope } },
        ];
        const answers = await Promise.all(
          changes.map((change) => api.update(CONTACT_US, 'ChangedAtOnce', change, standard)),
        );
        for (const answer of answers) ok(answer);
        const info = ok<ListInfo>(await api.listInfo(CONTACT_US, 'ChangedAtOnce', standard));
        expect({
          label: info.label,
          columns: info.displayColumns.map((column) => column.fieldApiName),
          countries: info.filteredByInfo.map((filter) => filter.operandLabels),
          scope: info.scope?.apiName,
        }).toEqual({ label: `Changed in round ${round}`, columns, countries: [[country]], scope });
      }
      ok(await api.remove(CONTACT_US, 'ChangedAtOnce', standard), 204);
    });

    it("refuses the standard user changes to the org's list views and to sharing, in the platform's error shape", async () => {
      expect(errorOf(await api.update(CONTACT_US, 'AllContactUs', { label: 'Everything' }, standard))).toMatchObject(
        FORBIDDEN,
      );
      expect(errorOf(await api.remove(CONTACT_US, 'AllContactUs', standard))).toMatchObject(FORBIDDEN);
      expect(errorOf(await api.update(CONTACT_US, '__Recent', { label: 'Recent' }, admin))).toMatchObject(FORBIDDEN);
      expect(errorOf(await api.remove(CONTACT_US, '__Recent', admin))).toMatchObject(FORBIDDEN);
      expect(
        errorOf(await api.create(CONTACT_US, { label: 'Everyone', visibility: 'Public' }, standard)),
      ).toMatchObject(FORBIDDEN);
      ok<ListInfo>(await api.create(CONTACT_US, { label: 'Quiet' }, standard), 201);
      expect(
        errorOf(
          await api.update(
            CONTACT_US,
            'Quiet',
            { visibility: 'Shared', listShares: ['Regular.ContactUsReviewers'] },
            standard,
          ),
        ),
      ).toMatchObject(FORBIDDEN);
      expect(ok<ListInfo>(await api.listInfo(CONTACT_US, 'AllContactUs', standard)).label).toBe('All Contact Us');
    });

    it('lets the administrator share list views: Public with everyone, Shared with the members of roles and groups', async () => {
      const published = ok<ListInfo>(
        await api.create(
          CONTACT_US,
          { listViewApiName: 'Published', label: 'Published', displayColumns: ['Name'], visibility: 'Public' },
          admin,
        ),
        201,
      );
      expect(published).toMatchObject({ visibility: 'Public', visibilityEditable: true, listShares: [] });
      const reviewers = ok<ListInfo>(
        await api.create(
          CONTACT_US,
          {
            listViewApiName: 'ForReviewers',
            label: 'For reviewers',
            visibility: 'Shared',
            listShares: ['Regular.ContactUsReviewers', 'Role.SalesManager'],
          },
          admin,
        ),
        201,
      );
      expect(reviewers.listShares).toEqual([
        { shareType: 'Regular', shares: [{ label: 'Contact Us Reviewers', shareApiName: 'ContactUsReviewers' }] },
        { shareType: 'Role', shares: [{ label: 'Sales Manager', shareApiName: 'SalesManager' }] },
      ]);
      ok<ListInfo>(
        await api.create(
          CONTACT_US,
          {
            listViewApiName: 'ForManagers',
            label: 'For managers',
            visibility: 'Shared',
            listShares: ['role.salesmanager'],
          },
          admin,
        ),
        201,
      );
      const seen = await names(standard);
      expect(seen).toEqual(expect.arrayContaining(['Published', 'ForReviewers']));
      expect(seen).not.toContain('ForManagers');
      const asStandard = ok<ListInfo>(await api.listInfo(CONTACT_US, 'Published', standard));
      expect(asStandard).toMatchObject({ updateable: false, deletable: false });
      expect(errorOf(await api.update(CONTACT_US, 'Published', { label: 'Mine now' }, standard))).toMatchObject(
        FORBIDDEN,
      );
      const unshared = ok<ListInfo>(await api.update(CONTACT_US, 'ForReviewers', { visibility: 'Private' }, admin));
      expect(unshared).toMatchObject({ visibility: 'Private', listShares: [] });
      expect(await names(standard)).not.toContain('ForReviewers');
      expect((await api.remove(CONTACT_US, 'Published', admin)).status).toBe(204);
    });

    it('answers 409 to an API name the object already has (any case), and makes one from the label when none is given', async () => {
      const conflict = errorOf(
        await api.create(CONTACT_US, { listViewApiName: 'allcontactus', label: 'Copy' }, standard),
      );
      expect(conflict).toEqual({
        status: 409,
        errorCode: 'DUPLICATE_DEVELOPER_NAME',
        message: `A list view named allcontactus already exists for ${CONTACT_US}.`,
      });
      const named = ok<ListInfo>(
        await api.create(CONTACT_US, { label: 'My 2nd view: Ohio & more', includeDefaultAttributes: true }, standard),
        201,
      );
      expect(named.listReference.listViewApiName).toBe('My_2nd_view_Ohio_more');
      expect(named.displayColumns.map((column) => column.fieldApiName)).toEqual([
        'Name',
        'APT_Company_Name__c',
        'APT_City__c',
        'APT_UI_Country__c',
      ]);
      expect(named.orderedByInfo).toEqual([{ fieldApiName: 'Name', isAscending: true, label: 'Contact Us Name' }]);
      expect(errorOf(await api.create(CONTACT_US, { label: 'My 2nd view: Ohio & more' }, standard))).toMatchObject({
        status: 409,
      });
    });

    it('answers 400 to a list view that names what does not exist or does not fit', async () => {
      const bad = async (body: unknown, session = standard) => {
        const error = errorOf(await api.create(CONTACT_US, body, session));
        expect(error.status).toBe(400);
        return error;
      };
      expect(await bad({ label: 'x', displayColumns: ['No_Such__c'] })).toMatchObject({ errorCode: 'INVALID_FIELD' });
      expect(
        await bad({
          label: 'x',
          filteredByInfo: [{ fieldApiName: 'No_Such__c', operator: 'Equals', operandLabels: ['a'] }],
        }),
      ).toMatchObject({
        errorCode: 'INVALID_FIELD',
      });
      expect(
        await bad({
          label: 'x',
          filteredByInfo: [{ fieldApiName: 'APT_Default_Contact__c', operator: 'Contains', operandLabels: ['t'] }],
        }),
      ).toMatchObject({ errorCode: 'INVALID_QUERY_FILTER_OPERATOR' });
      expect(
        await bad({
          label: 'x',
          filteredByInfo: [{ fieldApiName: 'CreatedDate', operator: 'GreaterThan', operandLabels: ['soon'] }],
        }),
      ).toMatchObject({
        errorCode: 'INVALID_QUERY_FILTER_OPERATOR',
      });
      expect(
        await bad({
          label: 'x',
          filteredByInfo: [{ fieldApiName: 'Name', operator: 'Equals', operandLabels: ['a'] }],
          filterLogicString: '1 OR 2',
        }),
      ).toMatchObject({ errorCode: 'INVALID_FILTER_LOGIC' });
      expect(await bad({ label: 'x', visibility: 'Shared', listShares: ['Role.Nobody'] }, admin)).toMatchObject({
        errorCode: 'INVALID_INPUT',
      });
      expect(await bad({ label: 'x', visibility: 'Shared' }, admin)).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(await bad({ label: 'x', scope: { apiName: 'team' } })).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(await bad({ label: 'x', displayColumns: ['Name'], colour: 'red' })).toMatchObject({
        errorCode: 'INVALID_INPUT',
      });
      expect(await bad({ visibility: 'Private' })).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(await bad({ listViewApiName: '__Recent' })).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(await bad({ label: 'nul \u0000 here' })).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(
        await bad({
          label: 'x',
          filteredByInfo: [{ fieldApiName: 'Name', operator: 'Equals', operandLabels: ['\u0000'] }],
        }),
      ).toMatchObject({
        errorCode: 'INVALID_INPUT',
      });
      const userView = (body: unknown, session: TestSession) => api.create('User', body, session);
      const hiddenColumn = errorOf(await userView({ label: 'x', displayColumns: ['Email'] }, standard));
      const unknownColumn = errorOf(await userView({ label: 'x', displayColumns: ['Emial'] }, standard));
      expect({ ...hiddenColumn, message: hiddenColumn.message.replace('Email', '?') }).toEqual({
        ...unknownColumn,
        message: unknownColumn.message.replace('Emial', '?'),
      });
      expect(errorOf(await api.create('No_Such_Object__c', { label: 'x' }, admin))).toMatchObject({ status: 404 });
      expect(errorOf(await api.update(CONTACT_US, 'NoSuchList', { label: 'x' }, admin))).toMatchObject({ status: 404 });
    });

    it('refuses a state-changing call with neither the CSRF token nor the browser proving it same-origin', async () => {
      const { Cookie } = standard.headers;
      const response = await callOperation('createListInfo', api.url(`/list-info/${CONTACT_US}`), {
        method: 'POST',
        headers: { Cookie, 'Content-Type': 'application/json' },
        body: JSON.stringify({ label: 'x' }),
      });
      expect(errorOf(response)).toMatchObject({ status: 403, errorCode: 'CSRF_TOKEN_INVALID' });
    });
  });

  describe('the MRU list', () => {
    const recordUrl = (id: string, query: string) => `${server.baseUrl}${UI_API}/records/${id}?${query}`;
    const view = (session: TestSession, id: string, updateMru = true) =>
      callOperation('getRecord', recordUrl(id, `fields=${CONTACT_US}.Name&updateMru=${updateMru}`), {
        headers: session.headers,
      });
    const mruIds = async (session: TestSession, object = CONTACT_US) =>
      ok<ListRecords>(await api.mruRecords(object, '', session)).records.map((record) => record.id);

    it("lists the records each user viewed with updateMru or wrote, most recent first, and no one else's", async () => {
      const fresh = await signIn(server, 'standard');
      const [first, second, third] = ['a1C8d0000000003EAA', 'a1C8d0000000004EAA', 'a1C8d0000000005EAA'];
      expect(await mruIds(fresh)).toEqual([]);
      await view(fresh, first);
      await view(fresh, second);
      await view(fresh, third, false);
      expect(await mruIds(fresh)).toEqual([second, first]);
      await view(fresh, first);
      expect(await mruIds(fresh)).toEqual([first, second]);
      const otherUser = await mruIds(admin);
      expect(otherUser).not.toContain(second);

      const created = await callOperation<{ id: string }>('createRecord', `${server.baseUrl}${UI_API}/records`, {
        method: 'POST',
        headers: { ...fresh.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiName: 'Account', fields: { Name: 'Northwind Cable' } }),
      });
      expect(created.status).toBe(201);
      expect(await mruIds(fresh, 'Account')).toEqual([created.body.id]);
      const updated = await callOperation('updateRecord', `${server.baseUrl}${UI_API}/records/${DEFAULT_CONTACT_ID}`, {
        method: 'PATCH',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields: { APT_City__c: 'Milwaukee' } }),
      });
      expect(updated.status).toBe(200);
      expect((await mruIds(admin))[0]).toBe(DEFAULT_CONTACT_ID);
      expect(await mruIds(fresh)).toEqual([first, second]);

      const deleted = await callOperation('deleteRecord', `${server.baseUrl}${UI_API}/records/${created.body.id}`, {
        method: 'DELETE',
        headers: fresh.headers,
      });
      expect(deleted.status).toBe(204);
      expect(await mruIds(fresh, 'Account')).toEqual([]);
    });

    it('answers the MRU list UI and records with type mru, sortBy null, and its columns; a sortBy orders it', async () => {
      // The MRU list is the user's, whichever session: the administrator's holds what the test before wrote.
      const fresh = admin;
      for (const id of ['a1C8d0000000007EAA', 'a1C8d0000000006EAA', 'a1C8d0000000008EAA']) await view(fresh, id);
      const ui = ok<ListUi>(await api.mruListUi(CONTACT_US, '?pageSize=2', fresh));
      expect(ui.info.listReference).toEqual({
        id: null,
        listViewApiName: '__Recent',
        objectApiName: CONTACT_US,
        type: 'mru',
      });
      expect(ui.records).toMatchObject({
        count: 2,
        sortBy: null,
        nextPageToken: '2',
        listInfoETag: ui.info.eTag,
        currentPageUrl: `/services/data/v65.0/ui-api/mru-list-records/${CONTACT_US}?pageSize=2&pageToken=0`,
      });
      expect(ui.records.records.map((record) => record.id)).toEqual(['a1C8d0000000008EAA', 'a1C8d0000000006EAA']);
      expect(Object.keys(ui.records.records[0].fields).sort()).toEqual([
        'APT_City__c',
        'APT_Company_Name__c',
        'APT_UI_Country__c',
        'Id',
        'Name',
      ]);
      const sorted = ok<ListRecords>(await api.mruRecords(CONTACT_US, '?sortBy=Name', fresh));
      expect(sorted).toMatchObject({ sortBy: 'Name,Id' });
      const viewed = new Set(['a1C8d0000000006EAA', 'a1C8d0000000007EAA', 'a1C8d0000000008EAA']);
      expect(sorted.records.map((record) => record.id).filter((id) => viewed.has(id))).toEqual([
        'a1C8d0000000006EAA',
        'a1C8d0000000007EAA',
        'a1C8d0000000008EAA',
      ]);
      const names = sorted.records.map((record) => String(valueOf(record, 'Name')));
      expect(names).toEqual([...names].sort());
      expect(errorOf(await api.mruRecords(CONTACT_US, '?sortBy=No_Such__c', fresh))).toMatchObject({
        status: 400,
        errorCode: 'INVALID_FIELD',
      });
      expect(errorOf(await api.mruRecords('No_Such_Object__c', '', fresh))).toMatchObject({ status: 404 });
    });
  });

  describe('list preferences', () => {
    it("keeps each user's column widths, wrapping and order, which then orders the list", async () => {
      const fresh = await signIn(server, 'standard');
      expect(ok<ListPreferences>(await api.preferences(CONTACT_US, 'AllContactUs', fresh))).toEqual({
        columnWidths: {},
        columnWrap: {},
        listReference: {
          id: '00B8d0000000001EAA',
          listViewApiName: 'AllContactUs',
          objectApiName: CONTACT_US,
          type: 'listView',
        },
        orderedBy: [],
      });
      const changed = ok<ListPreferences>(
        await api.updatePreferences(
          CONTACT_US,
          'AllContactUs',
          {
            columnWidths: { Name: 180, apt_company_name__c: 260 },
            columnWrap: { APT_Company_Name__c: true },
            orderedBy: [{ fieldApiName: 'APT_City__c', isAscending: false }],
          },
          fresh,
        ),
      );
      expect(changed).toMatchObject({
        columnWidths: { Name: 180, APT_Company_Name__c: 260 },
        columnWrap: { APT_Company_Name__c: true },
        orderedBy: [{ fieldApiName: 'APT_City__c', isAscending: false, label: 'City' }],
      });
      const merged = ok<ListPreferences>(
        await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWidths: { APT_City__c: -1 } }, fresh),
      );
      expect(merged.columnWidths).toEqual({ Name: 180, APT_Company_Name__c: 260, APT_City__c: -1 });
      expect(ok<ListPreferences>(await api.preferences(CONTACT_US, 'AllContactUs', fresh))).toEqual(merged);

      const info = ok<ListInfo>(await api.listInfo(CONTACT_US, 'AllContactUs', fresh));
      expect(info.userPreferences).toEqual({ columnWidths: merged.columnWidths, columnWrap: merged.columnWrap });
      expect(info.orderedByInfo).toEqual([{ fieldApiName: 'APT_City__c', isAscending: false, label: 'City' }]);
      expect(ok<ListRecords>(await api.recordsGet(CONTACT_US, 'AllContactUs', '?pageSize=1', fresh)).sortBy).toBe(
        '-APT_City__c,Id',
      );
      expect(ok<ListRecords>(await api.recordsGet(CONTACT_US, 'AllContactUs', '?pageSize=1', admin)).sortBy).toBe(
        'Name,Id',
      );
      expect(ok<ListPreferences>(await api.preferences(CONTACT_US, 'AllContactUs', admin)).columnWidths).toEqual({});

      const reset = ok<ListPreferences>(
        await api.updatePreferences(CONTACT_US, 'AllContactUs', { orderedBy: null, columnWrap: null }, fresh),
      );
      expect(reset).toMatchObject({ orderedBy: [], columnWrap: {}, columnWidths: merged.columnWidths });
      expect(ok<ListPreferences>(await api.preferences(CONTACT_US, '__Recent', fresh)).listReference.type).toBe('mru');
    });

    it('keeps every change of saves sent at once, each merged into the one before it', async () => {
      const columns = [
        'Name',
        'APT_Company_Name__c',
        'APT_Address_1__c',
        'APT_City__c',
        'APT_Primary_State__c',
        'APT_Country__c',
        'APT_Zip__c',
        'APT_Phone__c',
      ];
      ok(await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWidths: null, columnWrap: null }, admin));
      // Each save merges into the preferences it reads: without a lock, two at once both read the same and
      // the second saved over the first's column.
      const saves = await Promise.all(
        columns.map((column, index) =>
          api.updatePreferences(
            CONTACT_US,
            'AllContactUs',
            { columnWidths: { [column]: 100 + index }, columnWrap: { [column]: index % 2 === 0 } },
            admin,
          ),
        ),
      );
      for (const save of saves) ok(save);
      const kept = ok<ListPreferences>(await api.preferences(CONTACT_US, 'AllContactUs', admin));
      expect(kept.columnWidths).toEqual(Object.fromEntries(columns.map((column, index) => [column, 100 + index])));
      expect(kept.columnWrap).toEqual(Object.fromEntries(columns.map((column, index) => [column, index % 2 === 0])));
      ok(await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWidths: null, columnWrap: null }, admin));
    });

    it('answers 400 to columns that do not exist (or may not be read) and values out of range, 404 to a list the caller may not see', async () => {
      expect(
        errorOf(
          await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWidths: { No_Such__c: 10 } }, standard),
        ),
      ).toMatchObject({
        status: 400,
        errorCode: 'INVALID_INPUT',
      });
      expect(
        errorOf(await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWidths: { Name: 1.5 } }, standard)),
      ).toMatchObject({
        status: 400,
        errorCode: 'INVALID_INPUT',
      });
      expect(
        errorOf(await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWidths: { Name: -2 } }, standard)),
      ).toMatchObject({ status: 400 });
      expect(
        errorOf(await api.updatePreferences(CONTACT_US, 'AllContactUs', { columnWrap: { Name: 'yes' } }, standard)),
      ).toMatchObject({ status: 400 });
      expect(
        errorOf(
          await api.updatePreferences(
            CONTACT_US,
            'AllContactUs',
            { orderedBy: [{ fieldApiName: 'APT_Brand__c' }] },
            standard,
          ),
        ),
      ).toMatchObject({
        status: 400,
        errorCode: 'INVALID_FIELD',
      });
      expect(
        errorOf(await api.updatePreferences('User', 'AllUsers', { columnWidths: { Email: 100 } }, standard)),
      ).toEqual({
        ...errorOf(await api.updatePreferences('User', 'AllUsers', { columnWidths: { Emial: 100 } }, standard)),
        message: "No such column 'Email' on entity 'User'",
      });
      ok<ListInfo>(await api.create(CONTACT_US, { listViewApiName: 'AdminOnly', label: 'Admin only' }, admin), 201);
      expect(errorOf(await api.preferences(CONTACT_US, 'AdminOnly', standard))).toMatchObject({ status: 404 });
      expect(errorOf(await api.updatePreferences(CONTACT_US, 'AdminOnly', {}, standard))).toMatchObject({
        status: 404,
      });
      expect(
        ok<ListPreferences>(await api.updatePreferences(CONTACT_US, 'AdminOnly', { columnWidths: { Name: 99 } }, admin))
          .columnWidths,
      ).toEqual({
        Name: 99,
      });
    });
  });
});
