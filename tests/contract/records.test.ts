/**
 * The record API over real HTTP, on every test database: get one and a batch, create, update, delete and
 * batch writes, signed in as the administrator and as the standard user; every answer checked against the
 * contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTACT_US,
  contactsUrl,
  DEFAULT_CONTACT_ID,
  MASTER_RECORD_TYPE_ID,
  NOT_FOUND_BODY,
  query,
  UI_API,
  type RecordError,
  type RecordRep,
  type ErrorList,
} from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const ADMIN_ID = '0058d0000000001AAA';
const NEW_CONTACT = {
  apiName: CONTACT_US,
  fields: {
    APT_Company_Name__c: 'Harborline Cable Supply',
    APT_City__c: 'Duluth',
    APT_Country__c: 'United States',
    APT_Primary_State__c: 'Minnesota',
    APT_Phone__c: '218-555-0150',
    APT_Email__c: 'sales@harborline.example',
    APT_Brand__c: 'Arcline;Ironspan',
  },
};

describe.each(databases())('records on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const get = <T>(
    operationId: string,
    path: string,
    session: TestSession | null,
    headers: Record<string, string> = {},
  ) => callOperation<T>(operationId, url(path), { headers: { ...(session?.headers ?? {}), ...headers } });
  const send = <T>(
    operationId: string,
    method: string,
    path: string,
    session: TestSession,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    callOperation<T>(operationId, url(path), {
      method,
      headers: {
        ...session.headers,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const getRecord = (
    id: string,
    params: string,
    session: TestSession | null = admin,
    headers: Record<string, string> = {},
  ) => get<RecordRep | ErrorList>('getRecord', `/records/${id}?${params}`, session, headers);
  const create = (body: unknown, session = admin, params = '') =>
    send<RecordRep | RecordError | ErrorList>('createRecord', 'POST', `/records${params}`, session, body);
  const update = (id: string, body: unknown, session = admin, headers: Record<string, string> = {}) =>
    send<RecordRep | RecordError | ErrorList>('updateRecord', 'PATCH', `/records/${id}`, session, body, headers);
  const remove = (id: string, session = admin) =>
    send<RecordError | ErrorList>('deleteRecord', 'DELETE', `/records/${id}`, session);
  const batch = (body: unknown, session = admin) =>
    send<{ hasErrors: boolean; results: { statusCode: number; result: unknown }[] } | ErrorList>(
      'executeBatchRecordOperations',
      'POST',
      '/records/batch',
      session,
      body,
    );
  const contactsTotal = async (country: string, state: string) => {
    const response = await fetch(contactsUrl(server.baseUrl, query({ country, state })));
    return ((await response.json()) as { totalRecords: number }).totalRecords;
  };

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 20 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  describe('getRecord', () => {
    it('returns the fields asked for, with the system fields, eTag and the ETag header', async () => {
      const { status, body, headers } = await getRecord(
        DEFAULT_CONTACT_ID,
        `fields=${CONTACT_US}.Name,${CONTACT_US}.APT_Company_Name__c&optionalFields=${CONTACT_US}.APT_Country__c,${CONTACT_US}.No_Such_Field__c`,
      );
      expect(status).toBe(200);
      const record = body as RecordRep;
      expect(record).toMatchObject({
        apiName: CONTACT_US,
        id: DEFAULT_CONTACT_ID,
        recordTypeId: MASTER_RECORD_TYPE_ID,
        recordTypeInfo: null,
        lastModifiedById: ADMIN_ID,
      });
      expect(Object.keys(record.fields).sort()).toEqual(['APT_Company_Name__c', 'APT_Country__c', 'Name']);
      expect(record.fields.Name).toEqual({ displayValue: null, value: 'CU-000001' });
      expect(record.fields.APT_Country__c).toEqual({ displayValue: 'United States', value: 'United States' });
      expect(record.eTag).toMatch(/^[0-9a-f]{32}$/);
      expect(record.weakEtag).toBe(Date.parse(record.lastModifiedDate!));
      expect(headers.get('etag')).toBe(`"${record.eTag}"`);
      const again = await getRecord(
        DEFAULT_CONTACT_ID,
        `fields=${CONTACT_US}.Name,${CONTACT_US}.APT_Company_Name__c&optionalFields=${CONTACT_US}.APT_Country__c,${CONTACT_US}.No_Such_Field__c`,
        admin,
        { 'If-None-Match': `"${record.eTag}"` },
      );
      expect(again.status).toBe(304);
    });

    it('accepts a 15-character id and answers with the 18-character one', async () => {
      const { status, body } = await getRecord(DEFAULT_CONTACT_ID.slice(0, 15), `fields=${CONTACT_US}.Name`);
      expect(status).toBe(200);
      expect((body as RecordRep).id).toBe(DEFAULT_CONTACT_ID);
    });

    it('nests related records, with their companion fields', async () => {
      const { status, body } = await getRecord(DEFAULT_CONTACT_ID, `fields=${CONTACT_US}.LastModifiedBy.Name`);
      expect(status).toBe(200);
      const user = (body as RecordRep).fields.LastModifiedBy;
      expect(user.displayValue).toEqual(expect.any(String));
      const nested = user.value as RecordRep;
      expect(nested).toMatchObject({ apiName: 'User', id: ADMIN_ID });
      expect(Object.keys(nested.fields)).toEqual(
        expect.arrayContaining(['Id', 'Name', 'LastModifiedDate', 'SystemModstamp']),
      );
    });

    it('adds the fields of the layouts asked for', async () => {
      const { status, body } = await getRecord(DEFAULT_CONTACT_ID, 'layoutTypes=Full&modes=View');
      expect(status).toBe(200);
      expect(Object.keys((body as RecordRep).fields)).toEqual(
        expect.arrayContaining(['APT_Company_Name__c', 'APT_Phone__c']),
      );
    });

    it('rejects unknown required fields, unqualified names, too-deep paths and a request without fields', async () => {
      const unknown = await getRecord(DEFAULT_CONTACT_ID, `fields=${CONTACT_US}.No_Such_Field__c`);
      expect(unknown.status).toBe(400);
      expect((unknown.body as ErrorList)[0].errorCode).toBe('INVALID_FIELD');
      expect((await getRecord(DEFAULT_CONTACT_ID, 'fields=Name')).status).toBe(400);
      expect((await getRecord(DEFAULT_CONTACT_ID, `fields=${CONTACT_US}.A.B.C.D.E.F`)).status).toBe(400);
      const none = await getRecord(DEFAULT_CONTACT_ID, 'pageSize=5');
      expect(none.status).toBe(400);
      expect((none.body as ErrorList)[0].message).toContain('At least one of');
    });

    it('leaves out optional paths deeper than 6 levels', async () => {
      const { status, body } = await getRecord(
        DEFAULT_CONTACT_ID,
        `fields=${CONTACT_US}.Name&optionalFields=${CONTACT_US}.Owner.CreatedBy.CreatedBy.CreatedBy.CreatedBy.Name`,
      );
      expect(status).toBe(200);
      expect(Object.keys((body as RecordRep).fields)).toEqual(['Name']);
    });

    it('answers 400 INVALID_ID_FIELD to a bad id and 404 to a missing record', async () => {
      const bad = await getRecord('a1C8d0000000001XYZ', `fields=${CONTACT_US}.Name`);
      expect(bad.status).toBe(400);
      expect((bad.body as ErrorList)[0].errorCode).toBe('INVALID_ID_FIELD');
      const missing = await getRecord('a1C8d000000zzzzEAA', `fields=${CONTACT_US}.Name`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(NOT_FOUND_BODY);
    });

    it('pages child relationships and hides private records from users who do not own them', async () => {
      const { status, body } = await getRecord(
        '0018d0000000001AAA',
        'fields=Account.Name&childRelationships=Account.Contacts.Title&pageSize=2',
      );
      expect(status).toBe(200);
      const contacts = (body as RecordRep).childRelationships.Contacts;
      expect(contacts.count).toBe(2);
      expect(contacts.nextPageToken).toBe('2');
      expect(contacts.records[0].fields).toMatchObject({
        Name: { value: 'Service Desk' },
        Title: { value: 'Customer Service' },
      });
      const hidden = await getRecord('0018d0000000001AAA', 'fields=Account.Name', standard);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND_BODY);
      const own = await getRecord('0018d0000000003AAA', 'fields=Account.Name', standard);
      expect(own.status).toBe(200);
    });

    it('leaves out fields the caller may not read, and fails on them when required', async () => {
      const optional = await getRecord(
        DEFAULT_CONTACT_ID,
        'fields=APT_Contact_Us__c.Name&optionalFields=APT_Contact_Us__c.CreatedBy.Email,APT_Contact_Us__c.CreatedBy.Username',
        standard,
      );
      expect(optional.status).toBe(200);
      expect(Object.keys(((optional.body as RecordRep).fields.CreatedBy.value as RecordRep).fields)).not.toContain(
        'Email',
      );
      const required = await getRecord(DEFAULT_CONTACT_ID, 'fields=APT_Contact_Us__c.CreatedBy.Email', standard);
      expect(required.status).toBe(400);
    });
  });

  describe('getRecords', () => {
    it('answers one result per id: 200, 404 and 400 items', async () => {
      const { status, body, headers } = await get<{
        hasErrors: boolean;
        results: { statusCode: number; result: unknown }[];
      }>(
        'getRecords',
        `/records/batch/${DEFAULT_CONTACT_ID},a1C8d000000zzzzEAA,a1C8d0000000001XYZ?fields=${CONTACT_US}.Name`,
        admin,
      );
      expect(status).toBe(200);
      expect(body.hasErrors).toBe(true);
      expect(body.results.map((result) => result.statusCode)).toEqual([200, 404, 400]);
      expect(headers.get('etag')).toBeTruthy();
    });

    it('requires fields or optionalFields', async () => {
      const { status } = await get('getRecords', `/records/batch/${DEFAULT_CONTACT_ID}`, admin);
      expect(status).toBe(400);
    });
  });

  describe('createRecord, updateRecord, deleteRecord', () => {
    it('creates a contact with the next auto-number, changes it, refuses stale writes, deletes it; the locator follows at once', async () => {
      const before = await contactsTotal('United States', 'Minnesota');
      const created = await create(NEW_CONTACT, admin, '?includeFieldsInBody=true');
      expect(created.status).toBe(201);
      const record = created.body as RecordRep;
      expect(record.id).toMatch(/^a1C8d/);
      expect(record.fields.Name.value).toBe('CU-000021');
      expect(record.fields.APT_Company_Name__c.value).toBe('Harborline Cable Supply');
      expect(record.lastModifiedById).toBe(ADMIN_ID);
      expect(await contactsTotal('United States', 'Minnesota')).toBe(before + 1);

      const readBack = await getRecord(record.id, `fields=${CONTACT_US}.APT_Phone__c,${CONTACT_US}.OwnerId`);
      expect((readBack.body as RecordRep).fields.OwnerId.value).toBe(ADMIN_ID);

      const stamp = new Date(Date.parse(record.lastModifiedDate!) - 60_000).toUTCString();
      const stale = await update(record.id, { fields: { APT_Phone__c: '218-555-0199' } }, admin, {
        'If-Unmodified-Since': stamp,
      });
      expect(stale.status).toBe(412);
      expect((stale.body as ErrorList)[0].errorCode).toBe('PRECONDITION_FAILED');

      const fresh = new Date(Date.parse(record.lastModifiedDate!) + 1000).toUTCString();
      const updated = await update(
        record.id,
        { fields: { Id: record.id, APT_Phone__c: '218-555-0199', APT_Primary_State__c: 'Wisconsin' } },
        admin,
        {
          'If-Unmodified-Since': fresh,
        },
      );
      expect(updated.status).toBe(200);
      const after = updated.body as RecordRep;
      expect(after.weakEtag).toBeGreaterThan(record.weakEtag);
      expect(after.eTag).not.toBe(record.eTag);
      expect(await contactsTotal('United States', 'Minnesota')).toBe(before);

      const deleted = await remove(record.id);
      expect(deleted.status).toBe(204);
      expect((await getRecord(record.id, `fields=${CONTACT_US}.Name`)).status).toBe(404);
      expect((await remove(record.id)).status).toBe(404);
    });

    it('answers field errors in the record-error shape', async () => {
      const missing = await create({ apiName: CONTACT_US, fields: { APT_City__c: 'Duluth' } });
      expect(missing.status).toBe(400);
      const error = missing.body as RecordError;
      expect(error.enhancedErrorType).toBe('RecordError');
      expect(error.output.fieldErrors.APT_Company_Name__c[0].errorCode).toBe('REQUIRED_FIELD_MISSING');

      const readOnly = await create({
        apiName: CONTACT_US,
        fields: { ...NEW_CONTACT.fields, Name: 'CU-999999', APT_Email__c: 'not-an-email', APT_Brand__c: 'Nonesuch' },
      });
      expect(readOnly.status).toBe(400);
      const fieldErrors = (readOnly.body as RecordError).output.fieldErrors;
      expect(fieldErrors.Name[0].errorCode).toBe('INVALID_FIELD_FOR_INSERT_UPDATE');
      expect(fieldErrors.APT_Email__c[0].errorCode).toBe('INVALID_EMAIL_ADDRESS');
      expect(fieldErrors.APT_Brand__c[0].errorCode).toBe('INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST');

      const unknown = await create({ apiName: CONTACT_US, fields: { ...NEW_CONTACT.fields, No_Such__c: 'x' } });
      expect((unknown.body as RecordError).output.errors[0].errorCode).toBe('INVALID_FIELD');

      const wrongState = await update(DEFAULT_CONTACT_ID, { fields: { APT_Primary_State__c: 'Ontario' } });
      expect(wrongState.status).toBe(400);
      expect((wrongState.body as RecordError).output.fieldErrors.APT_Primary_State__c[0].errorCode).toBe(
        'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
      );

      const noObject = await create({ apiName: 'No_Such_Object__c', fields: {} });
      expect(noObject.status).toBe(400);
      const badJson = await create('{not json');
      expect(badJson.status).toBe(400);
    });

    it('lets the standard user write only the fields and records its profile allows', async () => {
      const hidden = await update(DEFAULT_CONTACT_ID, { fields: { APT_Default_Contact__c: false } }, standard);
      expect(hidden.status).toBe(400);
      expect((hidden.body as RecordError).output.fieldErrors.APT_Default_Contact__c[0].errorCode).toBe(
        'INVALID_FIELD_FOR_INSERT_UPDATE',
      );
      const notOwner = await remove(DEFAULT_CONTACT_ID, standard);
      expect(notOwner.status).toBe(400);
      expect((notOwner.body as RecordError).output.errors[0].errorCode).toBe('INSUFFICIENT_ACCESS_OR_READONLY');
      const someoneElses = await update('0018d0000000001AAA', { fields: { Phone: '216-555-0100' } }, standard);
      expect(someoneElses.status).toBe(404);

      const account = await create(
        { apiName: 'Account', fields: { Name: 'Cascade Motor & Drive Co.', Industry: 'Manufacturing' } },
        standard,
      );
      expect(account.status).toBe(201);
      const accountId = (account.body as RecordRep).id;
      const contact = await create(
        { apiName: 'Contact', fields: { LastName: 'Service Desk', AccountId: accountId } },
        standard,
      );
      expect(contact.status).toBe(201);
      const contactId = (contact.body as RecordRep).id;
      const read = await getRecord(contactId, 'fields=Contact.Name,Contact.Account.Name', standard);
      expect((read.body as RecordRep).fields.Account).toMatchObject({
        displayValue: 'Cascade Motor & Drive Co.',
        value: { id: accountId },
      });
      const foreignAccount = await update(contactId, { fields: { AccountId: '0018d0000000001AAA' } }, standard);
      expect(foreignAccount.status).toBe(400);
      expect((foreignAccount.body as RecordError).output.fieldErrors.AccountId[0].errorCode).toBe(
        'INVALID_CROSS_REFERENCE_KEY',
      );
      expect((await remove(accountId, standard)).status).toBe(204);
      const orphan = await getRecord(contactId, 'fields=Contact.AccountId', standard);
      expect((orphan.body as RecordRep).fields.AccountId.value).toBeNull();
    });
  });

  describe('executeBatchRecordOperations', () => {
    it('creates, updates and deletes, one result per record', async () => {
      const seed = await create({ apiName: 'Account', fields: { Name: 'Batch Target Supply' } });
      const targetId = (seed.body as RecordRep).id;
      const { status, body } = await batch({
        allOrNone: false,
        operations: [
          {
            type: 'create',
            records: [
              { apiName: 'Account', fields: { Name: 'Northwind Switchgear' } },
              { apiName: 'Account', fields: {} },
            ],
          },
          { type: 'Update', records: [{ fields: { Id: DEFAULT_CONTACT_ID, APT_Phone__c: '414-555-0101' } }] },
          { type: 'DELETE', records: [{ fields: { Id: targetId } }, { fields: { Id: 'a1C8d000000zzzzEAA' } }] },
        ],
      });
      expect(status).toBe(200);
      const results = (body as { hasErrors: boolean; results: { statusCode: number; result: unknown }[] }).results;
      expect(results.map((result) => result.statusCode)).toEqual([201, 400, 200, 204, 404]);
      expect((results[1].result as ErrorList)[0].errorCode).toBe('REQUIRED_FIELD_MISSING');
    });

    it('rolls everything back on one failure with allOrNone', async () => {
      const before = await get<RecordRep>(
        'getRecord',
        `/records/${DEFAULT_CONTACT_ID}?fields=${CONTACT_US}.APT_City__c`,
        admin,
      );
      const { status, body } = await batch({
        allOrNone: true,
        operations: [
          { type: 'UPDATE', records: [{ fields: { Id: DEFAULT_CONTACT_ID, APT_City__c: 'Rolled Back' } }] },
          { type: 'CREATE', records: [{ apiName: CONTACT_US, fields: { APT_City__c: 'No company' } }] },
        ],
      });
      expect(status).toBe(200);
      const results = (body as { results: { statusCode: number; result: ErrorList }[] }).results;
      expect(results.map((result) => result.statusCode)).toEqual([400, 400]);
      expect(results[0].result[0].errorCode).toBe('ALL_OR_NONE_OPERATION_ROLLED_BACK');
      const after = await get<RecordRep>(
        'getRecord',
        `/records/${DEFAULT_CONTACT_ID}?fields=${CONTACT_US}.APT_City__c`,
        admin,
      );
      expect(after.body.fields.APT_City__c.value).toBe(before.body.fields.APT_City__c.value);
    });

    it('rejects a bad operation type, a missing allOrNone and a record named twice', async () => {
      expect(
        (await batch({ allOrNone: true, operations: [{ type: 'UPSERT', records: [{ fields: {} }] }] })).status,
      ).toBe(400);
      expect(
        (await batch({ operations: [{ type: 'CREATE', records: [{ apiName: 'Account', fields: { Name: 'x' } }] }] }))
          .status,
      ).toBe(400);
      const twice = await batch({
        allOrNone: false,
        operations: [
          { type: 'DELETE', records: [{ fields: { Id: DEFAULT_CONTACT_ID } }] },
          { type: 'UPDATE', records: [{ fields: { Id: DEFAULT_CONTACT_ID } }] },
        ],
      });
      expect(twice.status).toBe(400);
    });
  });
});
