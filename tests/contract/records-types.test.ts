/**
 * Record types, picklist labels and child pages over real HTTP, on every test database: a new Case chooses
 * its record type (RecordTypeId), its picklists are checked against that record type's values, picklist
 * displayValues are the values' labels, getRecord's child relationship pages link their neighbours, and
 * getChildRecords answers those links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_API, type RecordError, type RecordPage as Page, type RecordRep } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const PRODUCT_SUPPORT = '0128d0000000001AAA';
const SALES_INQUIRY = '0128d0000000002AAA';
const MASTER = '012000000000000AAA';
const ACCOUNT_ID = '0018d0000000001AAA';

describe.each(databases())('record types, picklist labels and child pages on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const send = <T>(operationId: string, method: string, path: string, body: unknown) =>
    callOperation<T>(operationId, url(path), {
      method,
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const create = (body: unknown) => send<RecordRep | RecordError>('createRecord', 'POST', '/records', body);
  const update = (id: string, body: unknown) =>
    send<RecordRep | RecordError>('updateRecord', 'PATCH', `/records/${id}`, body);
  const getRecord = (id: string, params: string) =>
    callOperation<RecordRep>('getRecord', url(`/records/${id}?${params}`), { headers: admin.headers });
  const newCase = (fields: Record<string, unknown>) =>
    create({ apiName: 'Case', fields: { Subject: 'Breaker panel quote', Status: 'New', ...fields } });
  const fieldErrorCode = (body: unknown, field: string) =>
    (body as RecordError).output.fieldErrors[field]?.[0]?.errorCode;

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 3 });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  describe('RecordTypeId of a new record', () => {
    it('creates a Case of the record type named, its picklists checked against that record type', async () => {
      const sales = await newCase({ RecordTypeId: SALES_INQUIRY, Type: 'Pricing', Reason: 'Quote Request' });
      expect(sales.status, JSON.stringify(sales.body)).toBe(201);
      const record = sales.body as RecordRep;
      expect(record.recordTypeId).toBe(SALES_INQUIRY);
      expect(record.recordTypeInfo).toMatchObject({
        name: 'Sales Inquiry',
        recordTypeId: SALES_INQUIRY,
        defaultRecordTypeMapping: false,
      });
      const read = await getRecord(record.id, 'fields=Case.Type,Case.Subject');
      expect(read.body).toMatchObject({ recordTypeId: SALES_INQUIRY, fields: { Type: { value: 'Pricing' } } });

      // Product Support, the default record type, does not offer Pricing.
      const defaulted = await newCase({ Type: 'Pricing' });
      expect(defaulted.status).toBe(400);
      expect(fieldErrorCode(defaulted.body, 'Type')).toBe('INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST');
      // Sales Inquiry does not offer Phone as an origin; Product Support does.
      expect(fieldErrorCode((await newCase({ RecordTypeId: SALES_INQUIRY, Origin: 'Phone' })).body, 'Origin')).toBe(
        'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
      );
    });

    it('gives a record that names none the default record type; accepts a 15-character id', async () => {
      const support = await newCase({ Type: 'Problem', Origin: 'Phone' });
      expect(support.status, JSON.stringify(support.body)).toBe(201);
      expect((support.body as RecordRep).recordTypeId).toBe(PRODUCT_SUPPORT);
      const short = await newCase({ RecordTypeId: SALES_INQUIRY.slice(0, 15) });
      expect(short.status).toBe(201);
      expect((short.body as RecordRep).recordTypeId).toBe(SALES_INQUIRY);
    });

    it('answers 400 in the record-error shape to a record type the object does not offer', async () => {
      for (const bad of ['0128d0000000009AAA', MASTER, 'Sales_Inquiry', '0018d0000000001AAA']) {
        const { status, body } = await newCase({ RecordTypeId: bad });
        expect(status, bad).toBe(400);
        expect((body as RecordError).enhancedErrorType).toBe('RecordError');
        expect((body as RecordError).output.fieldErrors.RecordTypeId[0]).toMatchObject({
          errorCode: 'INVALID_CROSS_REFERENCE_KEY',
          field: 'RecordTypeId',
        });
      }
      const account = await create({
        apiName: 'Account',
        fields: { Name: 'Record Type Supply', RecordTypeId: MASTER },
      });
      expect(account.status).toBe(400);
      expect((account.body as RecordError).output.errors[0].errorCode).toBe('INVALID_FIELD');
    });

    it('checks updates against the record type of the record, and does not change it', async () => {
      const sales = (await newCase({ RecordTypeId: SALES_INQUIRY })).body as RecordRep;
      const escalated = await update(sales.id, { fields: { Status: 'Escalated' } });
      expect(escalated.status).toBe(400);
      expect(fieldErrorCode(escalated.body, 'Status')).toBe('INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST');
      expect((await update(sales.id, { fields: { Status: 'Working', RecordTypeId: SALES_INQUIRY } })).status).toBe(200);
      const moved = await update(sales.id, { fields: { RecordTypeId: PRODUCT_SUPPORT } });
      expect(moved.status).toBe(400);
      expect(fieldErrorCode(moved.body, 'RecordTypeId')).toBe('INVALID_FIELD_FOR_INSERT_UPDATE');
    });

    it('chooses record types in batch creates, one result per record', async () => {
      const { status, body } = await send<{ hasErrors: boolean; results: { statusCode: number; result: unknown }[] }>(
        'executeBatchRecordOperations',
        'POST',
        '/records/batch',
        {
          allOrNone: false,
          operations: [
            {
              type: 'CREATE',
              records: [
                {
                  apiName: 'Case',
                  fields: { Subject: 'Volume pricing', Status: 'New', RecordTypeId: SALES_INQUIRY, Type: 'Pricing' },
                },
                { apiName: 'Case', fields: { Subject: 'Volume pricing', Status: 'New', Type: 'Pricing' } },
                {
                  apiName: 'Case',
                  fields: { Subject: 'Volume pricing', Status: 'New', RecordTypeId: '0128d0000000009AAA' },
                },
              ],
            },
          ],
        },
      );
      expect(status).toBe(200);
      expect(body.results.map((result) => result.statusCode)).toEqual([201, 400, 400]);
      expect((body.results[0].result as RecordRep).recordTypeId).toBe(SALES_INQUIRY);
      expect(body.results[2].result).toEqual([
        expect.objectContaining({ errorCode: 'INVALID_CROSS_REFERENCE_KEY', fields: ['RecordTypeId'] }),
      ]);
    });
  });

  describe('picklist displayValue', () => {
    it('is the label of the value, not the stored value', async () => {
      const file = await callOperation<{ contentDocument: { id: string } }>(
        'createContentDocumentAndVersion',
        url('/records/content-documents/content-versions'),
        {
          method: 'POST',
          headers: { ...admin.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            fileData: {
              name: 'distributor-price-list.pdf',
              type: 'application/pdf',
              content: Buffer.from('%PDF-1.7\nprice list\n').toString('base64'),
            },
          }),
        },
      );
      expect(file.status, file.text).toBe(201);
      const { status, body } = await getRecord(file.body.contentDocument.id, 'fields=ContentDocument.PublishStatus');
      expect(status).toBe(200);
      expect(body.fields.PublishStatus).toEqual({ displayValue: 'Public', value: 'P' });
      // A picklist whose labels are its values displays the value.
      const support = (await newCase({ Type: 'Problem' })).body as RecordRep;
      expect((await getRecord(support.id, 'fields=Case.Type')).body.fields.Type).toEqual({
        displayValue: 'Problem',
        value: 'Problem',
      });
    });
  });

  describe('picklist defaults of a new record', () => {
    it("gives a new record its record type's default for every picklist it does not name, and keeps the ones it names", async () => {
      const plain = await create({ apiName: 'Case', fields: { Subject: 'Relay chatter' } });
      expect(plain.status).toBe(201);
      const master = (await getRecord((plain.body as RecordRep).id, 'fields=Case.Status,Case.Priority,Case.Origin'))
        .body;
      expect([master.fields.Status.value, master.fields.Priority.value, master.fields.Origin.value]).toEqual([
        'New',
        'Medium',
        null,
      ]);
      const sales = await create({
        apiName: 'Case',
        fields: { Subject: 'Quote for 40 breakers', RecordTypeId: SALES_INQUIRY, Priority: 'High' },
      });
      const created = (await getRecord((sales.body as RecordRep).id, 'fields=Case.Status,Case.Priority,Case.Origin'))
        .body;
      expect([created.fields.Status.value, created.fields.Priority.value, created.fields.Origin.value]).toEqual([
        'New',
        'High',
        'Web',
      ]);
    });

    it('still refuses a required picklist set to nothing', async () => {
      const blank = await create({ apiName: 'Case', fields: { Subject: 'No status', Status: null } });
      expect(blank.status).toBe(400);
      expect(fieldErrorCode(blank.body, 'Status')).toBe('REQUIRED_FIELD_MISSING');
    });
  });

  describe('the owner of a record', () => {
    it('may be changed, never emptied, though the field is not required', async () => {
      const created = await newCase({});
      const id = (created.body as RecordRep).id;
      const emptied = await update(id, { fields: { OwnerId: null } });
      expect(emptied.status).toBe(400);
      expect(fieldErrorCode(emptied.body, 'OwnerId')).toBe('REQUIRED_FIELD_MISSING');
      const kept = (await getRecord(id, 'fields=Case.OwnerId')).body;
      expect(kept.fields.OwnerId.value).toBe(admin.userId);
    });
  });

  describe('child relationship pages', () => {
    const fieldsOf = (url: string) => new URL(url, 'http://x').searchParams.get('fields')?.split(',') ?? [];

    it('answers one page per relationship, with the URLs of its neighbours on the Get Child Records resource', async () => {
      const { status, body } = await getRecord(
        ACCOUNT_ID,
        'fields=Account.Name&childRelationships=Account.Contacts.Title,Account.ChildAccounts&pageSize=2',
      );
      expect(status).toBe(200);
      const contacts = body.childRelationships.Contacts;
      const base = `${UI_API}/records/${ACCOUNT_ID}/child-relationships/Contacts?fields=`;
      expect(contacts).toMatchObject({
        count: 2,
        currentPageToken: '0',
        nextPageToken: '2',
        previousPageToken: null,
        previousPageUrl: null,
      });
      expect(contacts.currentPageUrl.startsWith(base)).toBe(true);
      expect(contacts.currentPageUrl).toMatch(/&pageSize=2&pageToken=0$/);
      expect(contacts.nextPageUrl).toBe(contacts.currentPageUrl.replace(/pageToken=0$/, 'pageToken=2'));
      expect(fieldsOf(contacts.currentPageUrl)).toEqual(
        expect.arrayContaining(['Contact.Id', 'Contact.Name', 'Contact.AccountId', 'Contact.Title']),
      );
      expect(contacts.currentPageUrl).toContain('%2C');
      expect(body.childRelationships.ChildAccounts).toMatchObject({
        count: 0,
        records: [],
        nextPageToken: null,
        nextPageUrl: null,
        currentPageToken: '0',
      });
      expect(
        body.childRelationships.ChildAccounts.currentPageUrl.startsWith(
          `${UI_API}/records/${ACCOUNT_ID}/child-relationships/ChildAccounts?fields=`,
        ),
      ).toBe(true);
    });

    it('has no next page when the page holds every child; the default page size is 5', async () => {
      const all = await getRecord(ACCOUNT_ID, 'fields=Account.Name&childRelationships=Account.Contacts');
      expect(all.body.childRelationships.Contacts).toMatchObject({ count: 3, nextPageToken: null, nextPageUrl: null });
      expect(all.body.childRelationships.Contacts.currentPageUrl).toMatch(/&pageSize=5&pageToken=0$/);
      const one = await getRecord(ACCOUNT_ID, 'fields=Account.Name&childRelationships=Account.Contacts&pageSize=1');
      expect(one.body.childRelationships.Contacts).toMatchObject({ count: 1, nextPageToken: '1' });
      expect(one.body.childRelationships.Contacts.nextPageUrl).toMatch(/&pageSize=1&pageToken=1$/);
    });
  });

  describe('getChildRecords', () => {
    const childRecords = <T = Page>(path: string, session: TestSession | null = admin) =>
      callOperation<T>('getChildRecords', `${server.baseUrl}${path}`, { headers: session?.headers ?? {} });

    it('answers the pages getRecord links to, following them to the last and back', async () => {
      const first = (
        await getRecord(ACCOUNT_ID, 'fields=Account.Name&childRelationships=Account.Contacts.Title&pageSize=2')
      ).body.childRelationships.Contacts;
      const again = await childRecords(first.currentPageUrl);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first);
      const second = await childRecords(first.nextPageUrl!);
      expect(second.body).toMatchObject({
        count: 1,
        currentPageToken: '2',
        nextPageToken: null,
        nextPageUrl: null,
        previousPageToken: '0',
      });
      expect(second.body.previousPageUrl).toBe(first.currentPageUrl);
      expect(Object.keys(second.body.records[0].fields).sort()).toEqual(Object.keys(first.records[0].fields).sort());
      const ids = [...first.records, ...second.body.records].map((record) => record.id);
      expect(ids).toEqual([...ids].sort());
      expect(new Set(ids).size).toBe(3);
    });

    it('takes fields, optional fields with relationships, page numbers and any case of the relationship', async () => {
      const base = `${UI_API}/records/${ACCOUNT_ID}/child-relationships/contacts`;
      const { status, body } = await childRecords(
        `${base}?fields=Contact.Email&optionalFields=Contact.Account.Name,Contact.NoSuchField__c&pageSize=1&page=1`,
      );
      expect(status).toBe(200);
      expect(body).toMatchObject({ count: 1, currentPageToken: '1', nextPageToken: '2', previousPageToken: '0' });
      const [contact] = body.records;
      expect(Object.keys(contact.fields).sort()).toEqual(['Account', 'Email']);
      expect(contact.fields.Account.value).toMatchObject({ apiName: 'Account', id: ACCOUNT_ID });
      expect(body.currentPageUrl).toContain('/child-relationships/Contacts?');
      // A page token wins over the page number.
      expect((await childRecords(`${base}?pageSize=1&page=2&pageToken=0`)).body.currentPageToken).toBe('0');
      const defaults = (await childRecords(base)).body;
      expect(defaults.count).toBe(3);
      expect(Object.keys(defaults.records[0].fields)).toEqual(
        expect.arrayContaining(['Name', 'AccountId', 'CreatedDate']),
      );
    });

    it.each([
      ['an unknown relationship', `/records/${ACCOUNT_ID}/child-relationships/Opportunities`, 400, 'INVALID_FIELD'],
      [
        'a field the child object lacks',
        `/records/${ACCOUNT_ID}/child-relationships/Contacts?fields=Contact.NoSuchField__c`,
        400,
        'INVALID_FIELD',
      ],
      ['a bad record id', '/records/001-not-an-id/child-relationships/Contacts', 400, 'INVALID_ID_FIELD'],
      ['a record that does not exist', '/records/0018d0000000999AAA/child-relationships/Contacts', 404, 'NOT_FOUND'],
      [
        'a page token that is not an offset',
        `/records/${ACCOUNT_ID}/child-relationships/Contacts?pageToken=abc`,
        400,
        'ILLEGAL_QUERY_PARAMETER_VALUE',
      ],
    ])('answers %s with %i %s', async (_name, path, status, errorCode) => {
      const response = await childRecords<{ errorCode: string }[]>(`${UI_API}${path}`);
      expect(response.status).toBe(status);
      expect(response.body[0].errorCode).toBe(errorCode);
    });

    it('counts only the children the caller may see, and still counts on a page past the end', async () => {
      const standard = await signIn(server, 'standard');
      const asStandard = (body: unknown) =>
        callOperation<RecordRep>('createRecord', url('/records'), {
          method: 'POST',
          headers: { ...standard.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const account = (await asStandard({ apiName: 'Account', fields: { Name: 'Brightline Panels' } })).body.id;
      for (const name of ['Ames', 'Baird'])
        expect((await asStandard({ apiName: 'Contact', fields: { LastName: name, AccountId: account } })).status).toBe(
          201,
        );
      // Contacts are private: the admin's contact under the standard user's account is not the standard user's to see.
      expect((await create({ apiName: 'Contact', fields: { LastName: 'Crane', AccountId: account } })).status).toBe(
        201,
      );
      const path = (query: string) =>
        `${UI_API}/records/${account}/child-relationships/Contacts?fields=Contact.LastName&${query}`;
      const own = await childRecords(path('pageSize=2'), standard);
      expect(own.body).toMatchObject({ count: 2, nextPageToken: null, nextPageUrl: null });
      expect(own.body.records.map((record) => record.fields.LastName.value)).toEqual(
        expect.arrayContaining(['Ames', 'Baird']),
      );
      const all = await childRecords(path('pageSize=2'));
      expect(all.body).toMatchObject({ count: 2, nextPageToken: '2' });
      expect(
        (await childRecords(all.body.nextPageUrl!)).body.records.map((record) => record.fields.LastName.value),
      ).toHaveLength(1);
      // Past the end: no records, and the way back to the last page.
      const past = await childRecords(path('pageSize=2&pageToken=6'));
      expect(past.status).toBe(200);
      expect(past.body).toMatchObject({ count: 0, records: [], nextPageToken: null, previousPageToken: '4' });
    });

    it('needs a session, and hides what the caller may not see', async () => {
      expect((await childRecords(`${UI_API}/records/${ACCOUNT_ID}/child-relationships/Contacts`, null)).status).toBe(
        401,
      );
      const standard = await signIn(server, 'standard');
      // Accounts are private: another owner's account answers like a missing one.
      expect(
        (await childRecords(`${UI_API}/records/${ACCOUNT_ID}/child-relationships/Contacts`, standard)).status,
      ).toBe(404);
    });
  });
});
