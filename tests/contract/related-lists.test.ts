/**
 * Related lists over real HTTP, on every test database, as a guest, the standard user and the administrator:
 * the related lists of an object, one or several related lists' info, counts, pages of records and the
 * caller's preferences, every answer checked against the contract. Records and counts are compared with the
 * stored records; children the caller may not see are neither listed nor counted, and a parent it may not see
 * answers like one that does not exist. Batches answer a result per item, a failed item being a single
 * {errorCode, message} object. The child-relationship page URLs getRecord gives are followed and answer 200.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { UI_API } from '../support/api.ts';
import { callOperation, type CheckedResponse } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Schemas = components['schemas'];
type Summaries = Schemas['RelatedListSummaryInfoCollectionRepresentation'];
type Info = Schemas['RelatedListInfoRepresentation'];
type InfoBatch = Schemas['RelatedListInfoBatchRepresentation'];
type Page = Schemas['RelatedListRecordCollectionRepresentation'];
type PageBatch = Schemas['RelatedListRecordCollectionBatchRepresentation'];
type Count = Schemas['RelatedListRecordCountRepresentation'];
type CountBatch = Schemas['BatchRelatedListCountRepresentation'];
type Preferences = Schemas['RelatedListUserPreferencesRepresentation'];
type PreferencesBatch = Schemas['RelatedListPreferencesBatchRepresentation'];
type ErrorList = Schemas['ErrorList'];
type RecordRep = Schemas['RecordRepresentation'];
type ChildPage = Schemas['RecordCollectionRepresentation'];
type ObjectInfo = Schemas['ObjectInfoRepresentation'];

/** The related lists of the org as their data files define them. */
const RELATED_LISTS_DIR = resolve(import.meta.dirname, '../../server/platform/metadata/related-lists');
interface RelatedListFileEntry {
  relatedListId: string;
  relationshipName?: string;
  orderedBy?: { fieldApiName: string; isAscending: boolean }[];
}
const relatedListFiles = readdirSync(RELATED_LISTS_DIR)
  .filter((name) => name.endsWith('.json'))
  .map(
    (name) =>
      JSON.parse(readFileSync(resolve(RELATED_LISTS_DIR, name), 'utf8')) as {
        parentObjectApiName: string;
        layouts: { relatedLists: RelatedListFileEntry[] }[];
      },
  );
/** The columns of the record table that fields are kept in (the others are in the fields document). */
const SYSTEM_COLUMNS: Record<string, string> = {
  Id: 'id',
  CreatedDate: 'created_date',
  LastModifiedDate: 'last_modified_date',
  SystemModstamp: 'system_modstamp',
};

const ADMIN_ID = '0058d0000000001AAA';
/** The administrator's account with three contacts (Service Desk, Purchasing Office, Accounts Payable). */
const ACCOUNT_ID = makeId('001', 1);
/** The standard user's account with two contacts of its own; the tests add one of the administrator's. */
const STANDARD_ACCOUNT_ID = makeId('001', 3);
const CASES = [
  { CaseNumber: '00001001', Subject: 'Breaker trips', Status: 'New', Priority: 'High' },
  { CaseNumber: '00001002', Subject: 'Late delivery', Status: 'Closed', Priority: 'Low' },
  { CaseNumber: '00001003', Subject: 'Wrong label', Status: 'Working', Priority: 'Medium' },
  { CaseNumber: '00001004', Subject: 'Price question', Status: 'New', Priority: 'Low' },
  { CaseNumber: '00001005', Subject: 'Damaged box', Status: 'Closed', Priority: 'Medium' },
  { CaseNumber: '00001006', Subject: 'Manual missing', Status: 'New', Priority: 'Low' },
  { CaseNumber: '00001007', Subject: 'Warranty claim', Status: 'Escalated', Priority: 'High' },
];
const NOT_FOUND = { errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' };
const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
const COMPANIONS = ['CreatedDate', 'Id', 'LastModifiedById', 'LastModifiedDate', 'SystemModstamp'];

const names = (page: Page) => page.records.map((record) => record.fields.Name?.value);
const errorsOf = (response: CheckedResponse<unknown>) => response.body as ErrorList;

describe.each(databases())('related lists on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  let hiddenContactId: string;

  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const get = <T>(operationId: string, path: string, session: TestSession | null) =>
    callOperation<T>(operationId, url(path), { headers: session?.headers ?? {} });
  const send = <T>(operationId: string, method: string, path: string, body: unknown, session: TestSession | null) =>
    callOperation<T>(operationId, url(path), {
      method,
      headers: { ...(session?.headers ?? {}), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const records = (parentId: string, list: string, body: unknown, session: TestSession | null = admin) =>
    send<Page>('getRelatedListRecords', 'POST', `/related-list-records/${parentId}/${list}`, body, session);
  const count = (parentId: string, list: string, query = '', session: TestSession | null = admin) =>
    get<Count>('getRelatedListCount', `/related-list-count/${parentId}/${list}${query}`, session);
  const info = (object: string, list: string, query = '', session: TestSession | null = admin) =>
    get<Info>('getRelatedListInfo', `/related-list-info/${object}/${list}${query}`, session);

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 10 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
    const insert = (id: string, object: string, recordTypeId: string, fields: Record<string, unknown>, at: string) =>
      server.db.query(
        `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $5, $6, $5)`,
        [id, object, recordTypeId, JSON.stringify(fields), at, ADMIN_ID],
      );
    for (const [index, fields] of CASES.entries()) {
      const at = new Date(Date.UTC(2025, 1, 1 + index)).toISOString();
      await insert(
        makeId('500', 9000 + index),
        'Case',
        '0128d0000000001AAA',
        { ...fields, AccountId: ACCOUNT_ID, OwnerId: ADMIN_ID },
        at,
      );
    }
    hiddenContactId = makeId('003', 9000);
    await insert(
      hiddenContactId,
      'Contact',
      '012000000000000AAA',
      {
        LastName: 'Admin Only',
        Name: 'Admin Only',
        Title: 'Secret',
        AccountId: STANDARD_ACCOUNT_ID,
        OwnerId: ADMIN_ID,
      },
      '2025-03-01T00:00:00.000Z',
    );
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID on every related-list operation', async () => {
    const answers = await Promise.all([
      get('getRelatedListsInfo', '/related-list-info/Account', null),
      info('Account', 'Contacts', '', null),
      get('getRelatedListInfoBatch', '/related-list-info/batch/Account/Contacts', null),
      send('updateRelatedListInfo', 'PATCH', '/related-list-info/Account/Contacts', {}, null),
      count(ACCOUNT_ID, 'Contacts', '', null),
      get('getRelatedListsCount', `/related-list-count/batch/${ACCOUNT_ID}/Contacts`, null),
      records(ACCOUNT_ID, 'Contacts', {}, null),
      get('getRelatedListRecordsByQuery', `/related-list-records/${ACCOUNT_ID}/Contacts`, null),
      send(
        'getRelatedListRecordsBatch',
        'POST',
        `/related-list-records/batch/${ACCOUNT_ID}`,
        { relatedListParameters: [{ relatedListId: 'Contacts' }] },
        null,
      ),
      get('getRelatedListPreferences', '/related-list-preferences/Account.RelatedContactList', null),
      get('getRelatedListPreferencesBatch', '/related-list-preferences/batch/Account.RelatedContactList', null),
      send('updateRelatedListPreferences', 'PATCH', '/related-list-preferences/Account.RelatedContactList', {}, null),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(INVALID_SESSION);
    }
  });

  it('refuses invalid input to every operation, for the standard user and the administrator alike, in the platform shape', async () => {
    for (const session of [standard, admin]) {
      const calls: [CheckedResponse<unknown>, number][] = [
        [await get('getRelatedListsInfo', '/related-list-info/Account?recordTypeId=0120000000000', session), 400],
        [await get('getRelatedListsInfo', '/related-list-info/NoSuchObject', session), 404],
        [await info('Account', 'Contacts', '?fields=Contact.', session), 400],
        [await info('Account', 'NoSuchList', '', session), 404],
        [await get('getRelatedListInfoBatch', '/related-list-info/batch/Account/Contacts,', session), 400],
        [await get('getRelatedListInfoBatch', '/related-list-info/batch/NoSuchObject/Contacts', session), 404],
        [
          await send(
            'updateRelatedListInfo',
            'PATCH',
            '/related-list-info/Account/Contacts',
            { orderedByInfo: 'Name' },
            session,
          ),
          400,
        ],
        [await send('updateRelatedListInfo', 'PATCH', '/related-list-info/Account/NoSuchList', {}, session), 404],
        [await count(STANDARD_ACCOUNT_ID, 'Contacts', '?maxCount=2001', session), 400],
        [await count('not-an-id', 'Contacts', '', session), 400],
        [
          await get(
            'getRelatedListsCount',
            `/related-list-count/batch/${STANDARD_ACCOUNT_ID}/Contacts?maxCount=x`,
            session,
          ),
          400,
        ],
        [await get('getRelatedListsCount', `/related-list-count/batch/${makeId('001', 999)}/Contacts`, session), 404],
        [await records(STANDARD_ACCOUNT_ID, 'Contacts', { pageSize: 2000 }, session), 400],
        [await records(STANDARD_ACCOUNT_ID, 'Contacts', { unknown: true }, session), 400],
        [
          await send(
            'getRelatedListRecordsBatch',
            'POST',
            `/related-list-records/batch/${STANDARD_ACCOUNT_ID}`,
            { relatedListParameters: [] },
            session,
          ),
          400,
        ],
        [
          await send(
            'getRelatedListRecordsBatch',
            'POST',
            `/related-list-records/batch/${STANDARD_ACCOUNT_ID}`,
            { relatedListParameters: [{}] },
            session,
          ),
          400,
        ],
        [await get('getRelatedListPreferences', '/related-list-preferences/Account', session), 400],
        [await get('getRelatedListPreferences', '/related-list-preferences/NoSuchObject.Contacts', session), 404],
        [
          await get(
            'getRelatedListPreferencesBatch',
            '/related-list-preferences/batch/Account.Contacts,Account',
            session,
          ),
          400,
        ],
        [
          await send(
            'updateRelatedListPreferences',
            'PATCH',
            '/related-list-preferences/Account.RelatedContactList',
            { columnWrap: { Name: 'yes' } },
            session,
          ),
          400,
        ],
        [
          await send(
            'updateRelatedListPreferences',
            'PATCH',
            '/related-list-preferences/Account.RelatedContactList',
            { orderedBy: [{ fieldApiName: 'Description' }] },
            session,
          ),
          400,
        ],
      ];
      for (const [index, [answer, status]] of calls.entries()) {
        expect(answer.status, `call ${index}: ${answer.text.slice(0, 200)}`).toBe(status);
        expect(errorsOf(answer)[0].errorCode).toMatch(/^[A-Z_]+$/);
      }
    }
  });

  describe('info', () => {
    it('lists the related lists of an object from its layout, with links that answer', async () => {
      for (const session of [admin, standard]) {
        const { status, body } = await get<Summaries>('getRelatedListsInfo', '/related-list-info/Account', session);
        expect(status).toBe(200);
        expect(body).toMatchObject({ parentObjectApiName: 'Account', parentRecordTypeId: '012000000000000AAA' });
        expect(body.relatedLists.map((list) => list.relatedListId)).toEqual([
          'Contacts',
          'Cases',
          'OpenCases',
          'ChildAccounts',
        ]);
        expect(body.relatedLists[0]).toMatchObject({
          objectApiName: 'Contact',
          fieldApiName: 'AccountId',
          keyPrefix: '003',
          label: 'Contacts',
          entityLabel: 'Contact',
        });
        expect(body.relatedLists[2]).toMatchObject({ objectApiName: 'Case', label: 'Open Cases' });
        for (const list of body.relatedLists) {
          const linked = await callOperation<Info>(
            'getRelatedListInfo',
            `${server.baseUrl}${list.relatedListInfoUrl}`,
            { headers: session.headers },
          );
          expect(linked.status).toBe(200);
          expect(linked.body.listReference.relatedListId).toBe(list.relatedListId);
        }
      }
    });

    it('answers an unknown object, and a bad record type, without a result', async () => {
      const unknown = await get('getRelatedListsInfo', '/related-list-info/NoSuchObject', admin);
      expect(unknown.status).toBe(404);
      const badType = await get(
        'getRelatedListsInfo',
        '/related-list-info/Account?recordTypeId=0128d0000000009AAA',
        admin,
      );
      expect(badType.status).toBe(400);
      expect(errorsOf(badType)[0].errorCode).toBe('INVALID_ID_FIELD');
    });

    it("gives a related list's columns, order and rights, with its eTag as the ETag header", async () => {
      const { status, body, headers } = await info('Account', 'Contacts');
      expect(status).toBe(200);
      expect(headers.get('ETag')).toBe(`"${body.eTag}"`);
      expect(body.displayColumns).toEqual([
        { fieldApiName: 'Name', label: 'Full Name', lookupId: 'Id', sortable: true },
        { fieldApiName: 'Title', label: 'Title', lookupId: null, sortable: true },
        { fieldApiName: 'Email', label: 'Email', lookupId: null, sortable: true },
        { fieldApiName: 'Phone', label: 'Business Phone', lookupId: null, sortable: true },
      ]);
      expect(body).toMatchObject({
        fieldApiName: 'AccountId',
        label: 'Contacts',
        objectApiNames: ['Contact'],
        orderedByInfo: [{ fieldApiName: 'Name', isAscending: true, label: 'Full Name' }],
        restrictColumnsToLayout: true,
        visibility: 'Public',
        listReference: {
          parentObjectApiName: 'Account',
          relatedListId: 'Contacts',
          objectApiName: 'Contact',
          type: 'relatedList',
          inContextOfRecordId: null,
        },
      });
      const again = await callOperation('getRelatedListInfo', url('/related-list-info/Account/Contacts'), {
        headers: { ...admin.headers, 'If-None-Match': `"${body.eTag}"` },
      });
      expect(again.status).toBe(304);
    });

    it('narrows the columns to fields and optionalFields, or widens them to every field', async () => {
      const narrowed = await info(
        'Account',
        'Contacts',
        '?fields=Contact.Email&optionalFields=Contact.Name,Contact.NoSuchField,Contact.Department',
      );
      expect(narrowed.body.displayColumns.map((column) => column.fieldApiName)).toEqual(['Email', 'Name']);
      expect(narrowed.body).toMatchObject({
        fields: ['Contact.Email'],
        optionalFields: ['Contact.Name', 'Contact.NoSuchField', 'Contact.Department'],
      });
      const all = await info('Account', 'Contacts', '?restrictColumnsToLayout=false');
      expect(all.body.restrictColumnsToLayout).toBe(false);
      expect(all.body.displayColumns.map((column) => column.fieldApiName)).toEqual(
        expect.arrayContaining(['Department', 'MobilePhone', 'AccountId']),
      );
      const bad = await info('Account', 'Contacts', '?fields=Contact.NoSuchField');
      expect(bad.status).toBe(400);
      expect(errorsOf(bad)[0].errorCode).toBe('INVALID_FIELD');
    });

    it('says in listReference the record type the request named, and null when it named none', async () => {
      const plain = await info('Account', 'Contacts');
      expect(plain.body.listReference.recordTypeId).toBeNull();
      const named = await info('Account', 'Contacts', '?recordTypeId=012000000000000');
      expect(named.status).toBe(200);
      expect(named.body.listReference.recordTypeId).toBe('012000000000000AAA');
      const batch = await get<InfoBatch>('getRelatedListInfoBatch', '/related-list-info/batch/Account/Contacts', admin);
      expect((batch.body.results[0].result as Info).listReference.recordTypeId).toBeNull();
      // The related records of a record name no record type either; their listInfoETag is that of the info.
      const page = await records(ACCOUNT_ID, 'Contacts', {});
      expect(page.body.listReference.recordTypeId).toBeNull();
      expect(page.body.listInfoETag).toBe(plain.body.eTag);
    });

    it('answers a related list the object does not have 404', async () => {
      const missing = await info('Account', 'NoSuchList');
      expect(missing.status).toBe(404);
      expect(errorsOf(missing)).toEqual([NOT_FOUND]);
    });

    it('answers a batch with a result per related list, a missing one the list of its errors', async () => {
      const { status, body } = await get<InfoBatch>(
        'getRelatedListInfoBatch',
        '/related-list-info/batch/Account/Contacts,NoSuchList,Cases',
        admin,
      );
      expect(status).toBe(200);
      expect(body.results.map((result) => result.statusCode)).toEqual([200, 404, 200]);
      expect(body.results[1].result).toEqual([NOT_FOUND]);
      expect((body.results[2].result as Info).listReference.relatedListId).toBe('Cases');
    });
  });

  describe('records', () => {
    it('reads the first page in the layout order, with the companion fields and the name field', async () => {
      const { status, body } = await records(ACCOUNT_ID, 'Contacts', {});
      expect(status).toBe(200);
      expect(names(body)).toEqual(['Accounts Payable', 'Purchasing Office', 'Service Desk']);
      expect(body).toMatchObject({
        count: 3,
        pageSize: 50,
        currentPageToken: '0',
        nextPageToken: null,
        previousPageToken: null,
        sortBy: [],
        where: null,
      });
      expect(body.listReference).toMatchObject({
        inContextOfRecordId: ACCOUNT_ID,
        parentObjectApiName: 'Account',
        relatedListId: 'Contacts',
      });
      expect(Object.keys(body.records[0].fields)).toEqual(
        expect.arrayContaining([...COMPANIONS, 'Name', 'Title', 'Email', 'Phone']),
      );
      expect(body.listInfoETag).toBe((await info('Account', 'Contacts')).body.eTag);
    });

    it('pages with tokens, sorts by an array, filters with where and labels the columns', async () => {
      const first = await records(ACCOUNT_ID, 'Contacts', {
        fields: ['Contact.Name'],
        pageSize: 2,
        sortBy: ['-Contact.Name'],
        includeColumnLabels: true,
      });
      expect(names(first.body)).toEqual(['Service Desk', 'Purchasing Office']);
      expect(first.body).toMatchObject({
        count: 2,
        nextPageToken: '2',
        sortBy: ['-Contact.Name'],
        columnLabels: { Name: 'Full Name' },
      });
      expect(Object.keys(first.body.records[0].fields).sort()).toEqual([...COMPANIONS, 'Name'].sort());
      const second = await records(ACCOUNT_ID, 'Contacts', {
        fields: ['Contact.Name'],
        pageSize: 2,
        sortBy: ['-Contact.Name'],
        pageToken: first.body.nextPageToken,
      });
      expect(names(second.body)).toEqual(['Accounts Payable']);
      expect(second.body).toMatchObject({ previousPageToken: '0', nextPageToken: null });
      const filtered = await records(ACCOUNT_ID, 'Contacts', { where: '{ Title: { eq: "Finance" } }' });
      expect(names(filtered.body)).toEqual(['Accounts Payable']);
      expect(filtered.body.where).toBe('{ Title: { eq: "Finance" } }');
    });

    it('follows the next and previous page URLs with GET through the whole list, as stored', async () => {
      // The cases of the account as stored, filtered and ordered as each request asks.
      const stored = async (where: string, order: string) =>
        (
          await server.db.query<{ id: string }>(
            `SELECT id FROM record WHERE object_api_name = 'Case' AND fields ->> 'AccountId' = $1 ${where} ORDER BY ${order}, id`,
            [ACCOUNT_ID],
          )
        ).rows.map((row) => row.id);
      const follow = (pageUrl: string) =>
        callOperation<Page>('getRelatedListRecordsByQuery', `${server.baseUrl}${pageUrl}`, { headers: admin.headers });
      for (const [list, body, expected] of [
        ['Cases', { pageSize: 2, fields: ['Case.CaseNumber'] }, await stored('', 'created_date DESC')],
        [
          'OpenCases',
          { pageSize: 2, optionalFields: ['Case.Subject'], where: '{ Priority: { ne: "Medium" } }' },
          await stored(
            `AND fields ->> 'Status' <> 'Closed' AND fields ->> 'Priority' <> 'Medium'`,
            `lower(fields ->> 'CaseNumber')`,
          ),
        ],
        [
          'Cases',
          { pageSize: 3, sortBy: ['-Case.CaseNumber'] },
          await stored('', `lower(fields ->> 'CaseNumber') DESC`),
        ],
      ] as const) {
        expect(expected.length).toBeGreaterThan(2);
        const first = await records(ACCOUNT_ID, list, body);
        expect(first.status).toBe(200);
        const pages: Page[] = [first.body];
        while (pages.at(-1)!.nextPageUrl) {
          const page = pages.at(-1)!;
          const current = await follow(page.currentPageUrl!);
          expect(current.status).toBe(200);
          expect(current.body.records.map((one) => one.id)).toEqual(page.records.map((one) => one.id));
          const next = await follow(page.nextPageUrl!);
          expect(next.status, page.nextPageUrl!).toBe(200);
          expect(next.body).toMatchObject({
            fields: first.body.fields,
            optionalFields: first.body.optionalFields,
            sortBy: first.body.sortBy,
            where: first.body.where,
          });
          pages.push(next.body);
        }
        expect(pages.flatMap((page) => page.records.map((one) => one.id))).toEqual(expected);
        expect(pages.length).toBe(Math.ceil(expected.length / body.pageSize));
        // And back: each previous page URL gives the page before.
        for (let index = pages.length - 1; index > 0; index -= 1) {
          const previous = await follow(pages[index].previousPageUrl!);
          expect(previous.status).toBe(200);
          expect(previous.body.records.map((one) => one.id)).toEqual(pages[index - 1].records.map((one) => one.id));
        }
        expect(pages[0].previousPageUrl).toBeNull();
      }
      // The GET form checks its input like the POST form does, and hides a parent the caller may not see.
      for (const query of [
        '?pageSize=2000',
        '?pageToken=x',
        '?fields=Contact.NoSuchField',
        '?sortBy=NoSuchField',
        '?where=%7B',
      ]) {
        const answer = await get<ErrorList>(
          'getRelatedListRecordsByQuery',
          `/related-list-records/${ACCOUNT_ID}/Contacts${query}`,
          admin,
        );
        expect(answer.status, query).toBe(400);
      }
      const hidden = await get(
        'getRelatedListRecordsByQuery',
        `/related-list-records/${ACCOUNT_ID}/Contacts`,
        standard,
      );
      const missing = await get(
        'getRelatedListRecordsByQuery',
        `/related-list-records/${makeId('001', 999)}/Contacts`,
        standard,
      );
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
    });

    it("applies the related list's own filter: open cases leave out the closed ones", async () => {
      const open = await records(ACCOUNT_ID, 'OpenCases', { pageSize: 10 });
      expect(open.body.records.map((record) => record.fields.CaseNumber.value)).toEqual(
        CASES.filter((one) => one.Status !== 'Closed').map((one) => one.CaseNumber),
      );
      const all = await records(ACCOUNT_ID, 'Cases', { pageSize: 10 });
      // The layout's order: newest first.
      expect(all.body.records.map((record) => record.fields.CaseNumber.value)).toEqual(
        CASES.map((one) => one.CaseNumber).reverse(),
      );
      const high = await records(ACCOUNT_ID, 'OpenCases', { where: '{ Priority: { eq: "High" } }' });
      expect(high.body.records.map((record) => record.fields.CaseNumber.value)).toEqual(['00001001', '00001007']);
    });

    it('refuses bad input with 400 in the platform shape', async () => {
      for (const body of [
        { fields: ['Contact.NoSuchField'] },
        { where: '{ Title: { eq: ' },
        { sortBy: ['NoSuchField'] },
        { pageSize: 0 },
        { pageToken: 'x' },
      ]) {
        const answer = await records(ACCOUNT_ID, 'Contacts', body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(errorsOf(answer)[0].errorCode).toMatch(/^[A-Z_]+$/);
      }
      const badId = await records('001NOTANID', 'Contacts', {});
      expect(badId.status).toBe(400);
    });

    it('hides what the caller may not see: a private parent is not found, hidden children are not listed', async () => {
      const hiddenParent = await records(ACCOUNT_ID, 'Contacts', {}, standard);
      const missingParent = await records(makeId('001', 999), 'Contacts', {}, standard);
      expect(hiddenParent.status).toBe(404);
      expect(hiddenParent.body).toEqual(missingParent.body);
      const own = await records(STANDARD_ACCOUNT_ID, 'Contacts', {}, standard);
      expect(names(own.body)).toEqual(['Receiving Dock', 'Sales Desk']);
      const everything = await records(STANDARD_ACCOUNT_ID, 'Contacts', {}, admin);
      expect(names(everything.body)).toEqual(['Admin Only', 'Receiving Dock', 'Sales Desk']);
      expect(everything.body.records[0].id).toBe(hiddenContactId);
    });

    it('answers a batch with a result per list; a failed list does not fail the call', async () => {
      const { status, body } = await send<PageBatch>(
        'getRelatedListRecordsBatch',
        'POST',
        `/related-list-records/batch/${ACCOUNT_ID}`,
        {
          relatedListParameters: [
            { relatedListId: 'Contacts', fields: ['Contact.Name'], pageSize: 1 },
            { relatedListId: 'NoSuchList' },
            { relatedListId: 'Cases', fields: ['Case.NoSuchField'] },
            { relatedListId: 'Cases', where: '{ Status: { eq: "New" } }', sortBy: ['CaseNumber'] },
          ],
        },
        admin,
      );
      expect(status).toBe(200);
      expect(body.results.map((result) => result.statusCode)).toEqual([200, 404, 400, 200]);
      expect(names(body.results[0].result as Page)).toEqual(['Accounts Payable']);
      expect(body.results[1].result).toEqual([NOT_FOUND]);
      expect((body.results[2].result as { errorCode: string }[])[0].errorCode).toBe('INVALID_FIELD');
      expect((body.results[3].result as Page).records.map((record) => record.fields.CaseNumber.value)).toEqual([
        '00001001',
        '00001004',
        '00001006',
      ]);
      const hidden = await send(
        'getRelatedListRecordsBatch',
        'POST',
        `/related-list-records/batch/${ACCOUNT_ID}`,
        { relatedListParameters: [{ relatedListId: 'Contacts' }] },
        standard,
      );
      expect(hidden.status).toBe(404);
    });
  });

  describe('counts', () => {
    it('counts up to maxCount and says whether there are more', async () => {
      const capped = await count(ACCOUNT_ID, 'Cases', '?maxCount=3');
      expect(capped.status).toBe(200);
      expect(capped.body).toMatchObject({
        count: 3,
        hasMore: true,
        listReference: { relatedListId: 'Cases', inContextOfRecordId: ACCOUNT_ID },
      });
      expect(capped.headers.get('ETag')).toBe(`"${capped.body.eTag}"`);
      expect((await count(ACCOUNT_ID, 'Cases')).body).toMatchObject({ count: CASES.length, hasMore: false });
      expect((await count(ACCOUNT_ID, 'Cases', `?maxCount=${CASES.length}`)).body).toMatchObject({
        count: CASES.length,
        hasMore: false,
      });
      expect((await count(ACCOUNT_ID, 'OpenCases')).body).toMatchObject({ count: 5, hasMore: false });
      expect((await count(ACCOUNT_ID, 'ChildAccounts')).body).toMatchObject({ count: 0, hasMore: false });
    });

    it('counts only the children the caller may see, and hides a parent it may not see', async () => {
      expect((await count(STANDARD_ACCOUNT_ID, 'Contacts', '', standard)).body.count).toBe(2);
      expect((await count(STANDARD_ACCOUNT_ID, 'Contacts', '', admin)).body.count).toBe(3);
      const hidden = await count(ACCOUNT_ID, 'Contacts', '', standard);
      const missing = await count(makeId('001', 999), 'Contacts', '', standard);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
      expect((await count(ACCOUNT_ID, 'Contacts', '?maxCount=0')).status).toBe(400);
      expect((await count(ACCOUNT_ID, 'NoSuchList')).status).toBe(404);
    });

    it('answers a batch of counts with a result per list', async () => {
      const { status, body } = await get<CountBatch>(
        'getRelatedListsCount',
        `/related-list-count/batch/${ACCOUNT_ID}/Contacts,NoSuchList,Cases?maxCount=5`,
        admin,
      );
      expect(status).toBe(200);
      expect(body.results.map((result) => result.statusCode)).toEqual([200, 404, 200]);
      expect(body.results[0].result).toMatchObject({ count: 3, hasMore: false });
      expect(body.results[1].result).toEqual([NOT_FOUND]);
      expect(body.results[2].result).toMatchObject({ count: 5, hasMore: true });
    });
  });

  describe('preferences', () => {
    it("keeps each user's own widths, wrapping and order, which the records then come in", async () => {
      const empty = await get<Preferences>(
        'getRelatedListPreferences',
        '/related-list-preferences/Account.RelatedContactList',
        admin,
      );
      expect(empty.body).toEqual({
        columnWidths: {},
        columnWrap: {},
        orderedBy: [],
        preferencesId: 'Account.RelatedContactList',
      });
      const changed = await send<Preferences>(
        'updateRelatedListPreferences',
        'PATCH',
        '/related-list-preferences/Account.RelatedContactList',
        {
          columnWidths: { Name: 200 },
          columnWrap: { Title: true },
          orderedBy: [{ fieldApiName: 'Title', isAscending: false }],
        },
        admin,
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        columnWidths: { Name: 200 },
        columnWrap: { Title: true },
        orderedBy: [{ fieldApiName: 'Title', isAscending: false, label: 'Title' }],
        preferencesId: 'Account.RelatedContactList',
      });
      // By related list id too; the record pages come in the caller's order.
      expect(
        (await get<Preferences>('getRelatedListPreferences', '/related-list-preferences/Account.Contacts', admin)).body
          .columnWidths,
      ).toEqual({
        Name: 200,
      });
      // Titles descending: Procurement, Finance, Customer Service.
      expect(names((await records(ACCOUNT_ID, 'Contacts', {})).body)).toEqual([
        'Purchasing Office',
        'Accounts Payable',
        'Service Desk',
      ]);
      const shown = await info('Account', 'Contacts');
      expect(shown.body.userPreferences).toEqual({ columnWidths: { Name: 200 }, columnWrap: { Title: true } });
      expect(shown.body.orderedByInfo).toEqual([{ fieldApiName: 'Title', isAscending: false, label: 'Title' }]);
      // The standard user's are its own.
      expect(
        (
          await get<Preferences>(
            'getRelatedListPreferences',
            '/related-list-preferences/Account.RelatedContactList',
            standard,
          )
        ).body.columnWidths,
      ).toEqual({});
    });

    it('changes the order and merges the columns through updateRelatedListInfo', async () => {
      const { status, body } = await send<Info>(
        'updateRelatedListInfo',
        'PATCH',
        '/related-list-info/Account/Cases',
        {
          orderedByInfo: [{ fieldApiName: 'CaseNumber', isAscending: true }],
          userPreferences: { columnWidths: { Subject: 300 } },
        },
        standard,
      );
      expect(status).toBe(200);
      expect(body.orderedByInfo).toEqual([{ fieldApiName: 'CaseNumber', isAscending: true, label: 'Case Number' }]);
      expect(body.userPreferences.columnWidths).toEqual({ Subject: 300 });
      const merged = await send<Info>(
        'updateRelatedListInfo',
        'PATCH',
        '/related-list-info/Account/Cases',
        { userPreferences: { columnWidths: { Status: 80 } } },
        standard,
      );
      expect(merged.body.userPreferences.columnWidths).toEqual({ Status: 80, Subject: 300 });
      expect(merged.body.orderedByInfo[0].fieldApiName).toBe('CaseNumber');
      expect((await info('Account', 'Cases', '', standard)).body.eTag).toBe(merged.body.eTag);
      expect((await info('Account', 'Cases', '', admin)).body.orderedByInfo[0]).toMatchObject({
        fieldApiName: 'CreatedDate',
        isAscending: false,
      });
    });

    it('keeps every change of saves sent at once, through either operation', async () => {
      const path = '/related-list-preferences/Account.RelatedCaseList';
      const before = (await get<Preferences>('getRelatedListPreferences', path, admin)).body.columnWidths;
      const columns = ['CaseNumber', 'Subject', 'Status', 'Priority', 'Origin', 'Type', 'Reason', 'SuppliedName'];
      // Each save merges into the preferences it reads: without a lock, two at once both read the same and
      // the second saved over the first's column.
      const saves = await Promise.all(
        columns.map((column, index) =>
          index % 2 === 0
            ? send('updateRelatedListPreferences', 'PATCH', path, { columnWidths: { [column]: 100 + index } }, admin)
            : send(
                'updateRelatedListInfo',
                'PATCH',
                '/related-list-info/Account/Cases',
                { userPreferences: { columnWidths: { [column]: 100 + index } } },
                admin,
              ),
        ),
      );
      expect(saves.map((save) => save.status)).toEqual(columns.map(() => 200));
      const kept = await get<Preferences>('getRelatedListPreferences', path, admin);
      expect(kept.body.columnWidths).toEqual({
        ...before,
        ...Object.fromEntries(columns.map((column, index) => [column, 100 + index])),
      });
    });

    it('answers a batch per id and refuses columns that do not exist', async () => {
      const batch = await get<PreferencesBatch>(
        'getRelatedListPreferencesBatch',
        '/related-list-preferences/batch/Account.RelatedContactList,Account.NoSuchList,Account.RelatedCaseList',
        admin,
      );
      expect(batch.status).toBe(200);
      expect(batch.body.results.map((result) => result.statusCode)).toEqual([200, 404, 200]);
      expect(batch.body.results[1].result).toEqual([NOT_FOUND]);
      const bad = await send(
        'updateRelatedListPreferences',
        'PATCH',
        '/related-list-preferences/Account.RelatedContactList',
        { columnWidths: { NoSuchField: 10 } },
        admin,
      );
      expect(bad.status).toBe(400);
      const badWidth = await send(
        'updateRelatedListPreferences',
        'PATCH',
        '/related-list-preferences/Account.RelatedContactList',
        { columnWidths: { Name: 'wide' } },
        admin,
      );
      expect(badWidth.status).toBe(400);
      const missing = await send(
        'updateRelatedListPreferences',
        'PATCH',
        '/related-list-preferences/Account.NoSuchList',
        { columnWrap: { Name: true } },
        admin,
      );
      expect(missing.status).toBe(404);
      const badInfo = await send(
        'updateRelatedListInfo',
        'PATCH',
        '/related-list-info/Account/Contacts',
        { orderedByInfo: [{ fieldApiName: 'NoSuchField' }] },
        admin,
      );
      expect(badInfo.status).toBe(400);
    });
  });

  it("has, for each related list, an index of the child object on the parent reference then the list's default order", async () => {
    const { rows } = await server.db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'record'`,
    );
    // The column list and predicate of each index, as PostgreSQL writes them back.
    const definitions = rows.map((row) => row.indexdef.replace(/^.* USING btree /, ''));
    let checked = 0;
    for (const file of relatedListFiles) {
      const parent = await get<ObjectInfo>('getObjectInfo', `/object-info/${file.parentObjectApiName}`, admin);
      expect(parent.status).toBe(200);
      for (const entry of file.layouts.flatMap((layout) => layout.relatedLists)) {
        const relationshipName = (entry.relationshipName ?? entry.relatedListId).toLowerCase();
        const relationship = parent.body.childRelationships.find(
          (one) => one.relationshipName.toLowerCase() === relationshipName,
        );
        expect(relationship, entry.relatedListId).toBeDefined();
        const order = (entry.orderedBy ?? []).map(({ fieldApiName, isAscending }) => {
          const value = SYSTEM_COLUMNS[fieldApiName] ?? `lower((fields ->> '${fieldApiName}'::text))`;
          return isAscending ? `${value} NULLS FIRST` : `${value} DESC NULLS LAST`;
        });
        const wanted = `(((fields ->> '${relationship!.fieldName}'::text)), ${[...order, 'id'].join(', ')}) WHERE (object_api_name = '${relationship!.childObjectApiName}'::text)`;
        expect(definitions, `${file.parentObjectApiName} ${entry.relatedListId}`).toContain(wanted);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('follows every child-relationship page URL getRecord gives, each answering 200', async () => {
    const record = await callOperation<RecordRep>(
      'getRecord',
      url(
        `/records/${ACCOUNT_ID}?fields=Account.Name&childRelationships=Account.Contacts,Account.Cases,Account.ChildAccounts&pageSize=2`,
      ),
      { headers: admin.headers },
    );
    expect(record.status).toBe(200);
    let followed = 0;
    for (const [name, first] of Object.entries(record.body.childRelationships) as [string, ChildPage][]) {
      const seen: string[] = [];
      let page: ChildPage | undefined = first;
      const total = name === 'Contacts' ? 3 : name === 'Cases' ? CASES.length : 0;
      while (page) {
        seen.push(...page.records.map((one) => one.id));
        const current = await callOperation<ChildPage>('getChildRecords', `${server.baseUrl}${page.currentPageUrl}`, {
          headers: admin.headers,
        });
        expect(current.status).toBe(200);
        expect(current.body.records.map((one) => one.id)).toEqual(page.records.map((one) => one.id));
        followed += 1;
        if (!page.nextPageUrl) break;
        const next: CheckedResponse<ChildPage> = await callOperation<ChildPage>(
          'getChildRecords',
          `${server.baseUrl}${page.nextPageUrl}`,
          {
            headers: admin.headers,
          },
        );
        expect(next.status).toBe(200);
        page = next.body;
      }
      expect(new Set(seen).size).toBe(total);
    }
    expect(followed).toBeGreaterThan(4);
  });
});
