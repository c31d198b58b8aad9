/**
 * Field history of Contact Us records (migration 027) over real HTTP, on every test database: each write path
 * (createRecord, updateRecord, deleteRecord, executeBatchRecordOperations, an update quick action) keeps its
 * history rows, read back as the record's Histories related list and by getRecord; the history is read-only
 * through the record API. Every answer checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../generated/types.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { CONTACT_US, UI_API, type ErrorList, type RecordError, type RecordRep } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Page = Schemas['RelatedListRecordCollectionRepresentation'];
type Info = Schemas['RelatedListInfoRepresentation'];

const HISTORY = 'APT_Contact_Us__History';
const ADMIN_ID = '0058d0000000001AAA';
const STANDARD_ID = '0058d0000000002AAA';
const HISTORY_FIELDS = ['Field', 'OldValue', 'NewValue', 'DataType', 'CreatedById', 'CreatedDate', 'ParentId'].map(
  (name) => `${HISTORY}.${name}`,
);
const NEW_CONTACT = {
  APT_Company_Name__c: 'Lakeshore Relay Works',
  APT_City__c: 'Erie',
  APT_Country__c: 'United States',
  APT_Primary_State__c: 'Pennsylvania',
  APT_Phone__c: '814-555-0142',
};

/** One history row as the related list answers it: the values that say what changed, who changed it and when. */
interface Change {
  field: unknown;
  oldValue: unknown;
  newValue: unknown;
  who: unknown;
  when: unknown;
}

describe.each(databases())('field history on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const send = <T>(operationId: string, method: string, path: string, session: TestSession, body?: unknown) =>
    callOperation<T>(operationId, url(path), {
      method,
      headers: { ...session.headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const get = <T>(operationId: string, path: string, session: TestSession = admin) =>
    callOperation<T>(operationId, url(path), { headers: session.headers });

  const create = async (fields: Record<string, unknown> = NEW_CONTACT, session = admin) => {
    const { status, body } = await send<RecordRep>('createRecord', 'POST', '/records', session, {
      apiName: CONTACT_US,
      fields,
    });
    expect(status).toBe(201);
    return body;
  };
  const update = (id: string, fields: Record<string, unknown>, session = admin) =>
    send<RecordRep | RecordError | ErrorList>('updateRecord', 'PATCH', `/records/${id}`, session, { fields });

  /** The record's history, newest first, as its Histories related list answers it. */
  const history = async (parentId: string, session = admin): Promise<Change[]> => {
    const { status, body } = await send<Page>(
      'getRelatedListRecords',
      'POST',
      `/related-list-records/${parentId}/Histories`,
      session,
      { fields: HISTORY_FIELDS, pageSize: 100 },
    );
    expect(status).toBe(200);
    return body.records.map((record) => ({
      field: record.fields.Field.value,
      oldValue: record.fields.OldValue.value,
      newValue: record.fields.NewValue.value,
      who: record.fields.CreatedById.value,
      when: record.fields.CreatedDate.value,
    }));
  };

  /** Every history row of a record, read from the database (a deleted record's history has no related list). */
  const storedHistory = async (parentId: string) =>
    (
      await server.db.query<{ id: string; fields: Record<string, unknown>; created_by_id: string | null }>(
        `SELECT id, fields, created_by_id FROM record WHERE object_api_name = $1 AND fields ->> 'ParentId' = $2 ORDER BY id`,
        [HISTORY, parentId],
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 10 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('writes a "created" row for a record created by createRecord', async () => {
    const created = await create();
    expect(await history(created.id)).toEqual([
      {
        field: 'created',
        oldValue: null,
        newValue: null,
        who: ADMIN_ID,
        when: created.fields.CreatedDate?.value ?? expect.any(String),
      },
    ]);
  });

  it('writes one row per changed field of an update, with the old and new values, who and when', async () => {
    const created = await create();
    const changed = await update(
      created.id,
      { APT_City__c: 'Meadville', APT_Phone__c: '814-555-0199', APT_Zip__c: null },
      standard,
    );
    expect(changed.status).toBe(200);
    const when = (changed.body as RecordRep).fields.LastModifiedDate.value;
    const rows = await history(created.id);
    // Newest first: the update's two rows (one time, in either order), then the creation. The Zip was empty
    // and stays empty: no row; nor for the fields the update did not name.
    expect(rows).toHaveLength(3);
    expect(rows.slice(0, 2)).toEqual(
      expect.arrayContaining([
        { field: 'APT_City__c', oldValue: 'Erie', newValue: 'Meadville', who: STANDARD_ID, when },
        { field: 'APT_Phone__c', oldValue: '814-555-0142', newValue: '814-555-0199', who: STANDARD_ID, when },
      ]),
    );
    expect(rows[2].field).toBe('created');
  });

  it('writes nothing for an update that changes no tracked value', async () => {
    const created = await create();
    const before = await history(created.id);
    const same = await update(created.id, { APT_City__c: 'Erie', APT_Phone__c: '814-555-0142' });
    expect(same.status).toBe(200);
    expect(await history(created.id)).toEqual(before);
  });

  it('writes a "deleted" row for a record deleted by deleteRecord, which outlives the record', async () => {
    const created = await create(NEW_CONTACT, standard);
    const removed = await send('deleteRecord', 'DELETE', `/records/${created.id}`, standard);
    expect(removed.status).toBe(204);
    const rows = await storedHistory(created.id);
    expect(rows.map((row) => [row.fields.Field, row.created_by_id])).toEqual([
      ['created', STANDARD_ID],
      ['deleted', STANDARD_ID],
    ]);
  });

  it('writes the rows of a batch, identifiable by their transaction (a savepoint per item)', async () => {
    const first = await create();
    const second = await create({ ...NEW_CONTACT, APT_Company_Name__c: 'Second Relay Works' });
    const { status, body } = await send<{ hasErrors: boolean }>(
      'executeBatchRecordOperations',
      'POST',
      '/records/batch',
      admin,
      {
        allOrNone: false,
        operations: [
          {
            type: 'UPDATE',
            records: [
              { fields: { Id: first.id, APT_Email__c: 'one@lakeshore.example' } },
              { fields: { Id: second.id, APT_Default_Contact__c: false, APT_Brand__c: 'Arcline' } },
            ],
          },
        ],
      },
    );
    expect(status).toBe(200);
    expect(body.hasErrors).toBe(false);
    expect((await history(first.id))[0]).toMatchObject({
      field: 'APT_Email__c',
      oldValue: null,
      newValue: 'one@lakeshore.example',
      who: ADMIN_ID,
    });
    // The Default Contact flag was false already: only the brand changed.
    expect((await history(second.id)).map((row) => row.field)).toEqual(['APT_Brand__c', 'created']);
    const written = [...(await storedHistory(first.id)), ...(await storedHistory(second.id))].filter(
      (row) => row.fields.Field !== 'created',
    );
    expect(written).toHaveLength(2);
    expect(written[0].fields.TransactionId).toEqual(expect.any(String));
    expect(written[1].fields.TransactionId).toBe(written[0].fields.TransactionId);
  });

  it('writes the rows of an update quick action', async () => {
    const created = await create();
    const { status } = await send(
      'performUpdateRecordQuickAction',
      'PATCH',
      `/actions/perform-quick-action/${CONTACT_US}.Update_Phone`,
      standard,
      { apiName: CONTACT_US, contextId: created.id, fields: { APT_Phone__c: '814-555-0100' } },
    );
    expect(status).toBe(200);
    expect((await history(created.id))[0]).toMatchObject({
      field: 'APT_Phone__c',
      oldValue: '814-555-0142',
      newValue: '814-555-0100',
      who: STANDARD_ID,
    });
  });

  it('answers a history row by getRecord, its field named by its label', async () => {
    const created = await create();
    await update(created.id, { APT_City__c: 'Corry' });
    const [row] = await storedHistory(created.id).then((rows) => rows.filter((one) => one.fields.Field !== 'created'));
    const { status, body } = await get<RecordRep>('getRecord', `/records/${row.id}?fields=${HISTORY_FIELDS.join(',')}`);
    expect(status).toBe(200);
    expect(body.apiName).toBe(HISTORY);
    expect(body.fields.Field).toEqual({ displayValue: 'City', value: 'APT_City__c' });
    expect(body.fields.ParentId.value).toBe(created.id);
    expect(body.fields.DataType.value).toBe('Text');
    // Not searched: no search document is made for it.
    const { rows } = await server.db.query<{ searchable: boolean }>(
      'SELECT search_document IS NOT NULL AS searchable FROM record WHERE id = $1',
      [row.id],
    );
    expect(rows).toEqual([{ searchable: false }]);
  });

  it('is read-only through the record API', async () => {
    const created = await create();
    const [row] = await storedHistory(created.id);
    const createAttempt = await send<ErrorList>('createRecord', 'POST', '/records', admin, {
      apiName: HISTORY,
      fields: { ParentId: created.id, Field: 'APT_City__c' },
    });
    expect(createAttempt.status).toBe(403);
    expect(createAttempt.body[0].errorCode).toBe('INSUFFICIENT_ACCESS_OR_READONLY');
    const updateAttempt = await update(row.id, { NewValue: 'Forged' });
    expect(updateAttempt.status).toBe(403);
    expect((updateAttempt.body as ErrorList)[0].errorCode).toBe('INSUFFICIENT_ACCESS_OR_READONLY');
    const deleteAttempt = await send<ErrorList>('deleteRecord', 'DELETE', `/records/${row.id}`, admin);
    expect(deleteAttempt.status).toBe(403);
    expect(deleteAttempt.body[0].errorCode).toBe('INSUFFICIENT_ACCESS_OR_READONLY');
    expect((await storedHistory(created.id)).map((one) => one.fields.NewValue)).toEqual([null]);
  });

  it('makes history ids in SQL as the server makes record ids', async () => {
    const sequences = [0, 1, 61, 62, 3_844, 916_132_831, 9_007_199_254_740_991];
    const { rows } = await server.db.query<{ id: string; sequence: string }>(
      `SELECT record_id_of('017', n) AS id, record_sequence_of(record_id_of('017', n))::text AS sequence
       FROM unnest($1::bigint[]) WITH ORDINALITY AS t(n, position) ORDER BY position`,
      [sequences.map(String)],
    );
    expect(rows.map((row) => row.id)).toEqual(sequences.map((sequence) => makeId('017', sequence)));
    expect(rows.map((row) => Number(row.sequence))).toEqual(sequences);
  });

  it('describes the Histories related list of a Contact Us record, newest first', async () => {
    const { status, body } = await get<Info>('getRelatedListInfo', `/related-list-info/${CONTACT_US}/Histories`);
    expect(status).toBe(200);
    expect(body.label).toBe('Contact Us History');
    expect(body.listReference.objectApiName).toBe(HISTORY);
    expect(body.displayColumns.map((column) => column.fieldApiName)).toEqual([
      'CreatedDate',
      'Field',
      'CreatedBy.Name',
      'OldValue',
      'NewValue',
    ]);
    expect(body.orderedByInfo).toEqual([expect.objectContaining({ fieldApiName: 'CreatedDate', isAscending: false })]);
    const objectInfo = await get<Schemas['ObjectInfoRepresentation']>('getObjectInfo', `/object-info/${CONTACT_US}`);
    expect(objectInfo.body.childRelationships).toContainEqual(
      expect.objectContaining({ childObjectApiName: HISTORY, fieldName: 'ParentId', relationshipName: 'Histories' }),
    );
    const historyInfo = await get<Schemas['ObjectInfoRepresentation']>('getObjectInfo', `/object-info/${HISTORY}`);
    expect(historyInfo.body).toMatchObject({ createable: false, updateable: false, deletable: false });
  });
});
