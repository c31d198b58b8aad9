/**
 * Many updates of one record at once, over real HTTP on every test database: each is written whole, in turn, and
 * none undoes another, also when a write that does not take the process's turns (a batch) comes between them. One
 * after another, each is checked on the record as the one before left it, unless it changed since.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_API, type ErrorList, type RecordError, type RecordRep } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { writeTurnsOf } from '../../server/platform/records/write-turns.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

describe.each(databases())('updates of one record at once on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const update = (id: string, fields: Record<string, unknown>) =>
    callOperation<RecordRep | RecordError | ErrorList>('updateRecord', url(`/records/${id}`), {
      method: 'PATCH',
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields }),
    });
  const read = async (id: string) =>
    (
      await callOperation<RecordRep>(
        'getRecord',
        url(`/records/${id}?fields=Account.Description,Account.Phone,Account.Industry`),
        { headers: admin.headers },
      )
    ).body;
  /** An update of another kind, which takes no turn: a batch. */
  const batch = (id: string, fields: Record<string, unknown>) =>
    callOperation<{ results: { statusCode: number }[] }>('executeBatchRecordOperations', url('/records/batch'), {
      method: 'POST',
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        allOrNone: true,
        operations: [{ type: 'Update', records: [{ fields: { Id: id, ...fields } }] }],
      }),
    });
  const createAccount = async (name: string) => {
    const { status, body } = await callOperation<RecordRep>('createRecord', url('/records'), {
      method: 'POST',
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: 'Account', fields: { Name: name } }),
    });
    expect(status).toBe(201);
    return body.id;
  };

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('writes every update, one after another, each answered with the record as it left it', async () => {
    const id = await createAccount('Concurrent Breaker Supply');
    const count = 16;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        update(
          id,
          i % 2
            ? { Description: `update ${i}` }
            : { Description: `update ${i}`, Phone: `555-01${String(i).padStart(2, '0')}` },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(count).fill(200));
    const records = answers.map((answer) => answer.body as RecordRep);
    records.forEach((record, i) => expect(record.fields.Description.value).toBe(`update ${i}`));
    // One after another: every update has its own SystemModstamp and version.
    expect(new Set(records.map((record) => record.systemModstamp)).size).toBe(count);
    expect(new Set(records.map((record) => record.weakEtag)).size).toBe(count);
    // The record is as the last one written left it, and that one holds the Phone of the last update that set one.
    const last = records.reduce((a, b) => (b.weakEtag > a.weakEtag ? b : a));
    const now = await read(id);
    expect(now.fields.Description.value).toBe(last.fields.Description.value);
    expect(now.weakEtag).toBe(last.weakEtag);
    const phones = records.filter((record, i) => i % 2 === 0 && record.weakEtag <= last.weakEtag);
    const lastPhone = phones.reduce((a, b) => (b.weakEtag > a.weakEtag ? b : a));
    expect(now.fields.Phone.value).toBe(lastPhone.fields.Phone.value);
    expect(writeTurnsOf(server.db).size).toBe(0);
  });

  it('refuses an invalid update among them and writes the others', async () => {
    const id = await createAccount('Concurrent Relay Works');
    const answers = await Promise.all([
      update(id, { Description: 'first' }),
      update(id, { No_Such_Field__c: 'x' }),
      update(id, { Description: 'third' }),
      update(id, { Name: '' }),
      update(id, { Description: 'fifth' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 200, 400, 200]);
    expect((answers[3].body as RecordError).output.fieldErrors.Name[0].errorCode).toBe('REQUIRED_FIELD_MISSING');
    const now = await read(id);
    expect(['first', 'third', 'fifth']).toContain(now.fields.Description.value);
    expect(writeTurnsOf(server.db).size).toBe(0);
  });

  it('loses no write of another kind that comes between them', async () => {
    const id = await createAccount('Concurrent Drive Systems');
    const [batched, ...updates] = await Promise.all([
      batch(id, { Industry: 'Energy' }),
      ...Array.from({ length: 8 }, (_, i) => update(id, { Description: `update ${i}` })),
    ]);
    expect(batched.status).toBe(200);
    expect(batched.body.results[0].statusCode).toBe(200);
    expect(updates.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    // Every update made after the batch's was checked and merged on the record as the batch left it.
    const now = await read(id);
    expect(now.fields.Industry.value).toBe('Energy');
    const last = updates.map((answer) => answer.body as RecordRep).reduce((a, b) => (b.weakEtag > a.weakEtag ? b : a));
    expect(now.fields.Description.value).toBe(last.fields.Description.value);
  });

  it('makes an update one statement, without locking the row, while nothing else wrote the record', async () => {
    const id = await createAccount('Single Statement Controls');
    expect((await update(id, { Description: 'first' })).status).toBe(200);
    // The statements of every transaction the next updates make (an update under the row lock reads it FOR UPDATE).
    const statements: string[] = [];
    const transaction = server.db.transaction.bind(server.db);
    server.db.transaction = (fn) =>
      transaction((tx) =>
        fn({ query: (sql, params, options) => (statements.push(sql), tx.query(sql, params, options)) }),
      );
    try {
      for (const description of ['second', 'third', 'fourth'])
        expect((await update(id, { Description: description })).status).toBe(200);
    } finally {
      server.db.transaction = transaction;
    }
    expect(statements.filter((sql) => /FOR UPDATE/i.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /^\s*(WITH[\s\S]*)?UPDATE record\b/i.test(sql))).toHaveLength(3);
    expect((await read(id)).fields.Description.value).toBe('fourth');
  });

  it.skipIf(!CACHES_ON)(
    'checks an update, one after another, on the record as the update before left it, unless it changed since (needs the caches on: not CACHES=off)',
    async () => {
      const id = await createAccount('Sequential Panel Makers');
      expect((await update(id, { Description: 'one' })).status).toBe(200);
      const turns = writeTurnsOf(server.db);
      const kept = turns.lastWritten(id);
      expect(kept?.fields.Description).toBe('one');
      expect((await update(id, { Description: 'two' })).status).toBe(200);
      expect(turns.lastWritten(id)?.fields.Description).toBe('two');

      // A change of another kind, heard of: the record as the last update left it is no longer kept.
      const batched = await batch(id, { Industry: 'Energy' });
      expect(batched.body.results[0].statusCode).toBe(200);
      expect(turns.lastWritten(id)).toBeUndefined();
      expect((await update(id, { Description: 'three' })).status).toBe(200);
      expect((await read(id)).fields.Industry.value).toBe('Energy');

      // A change not heard of yet (another server's, its notification on its way): the record as this process
      // last left it is kept still, so the update is checked on that; it is written only if the record is still
      // that, and here it is not: it is made on the record as it is.
      const stale = turns.lastWritten(id)!;
      expect((await batch(id, { Industry: 'Construction' })).body.results[0].statusCode).toBe(200);
      turns.written({ ...stale, system_modstamp: new Date(Date.now() + 60_000) });
      const answer = await update(id, { Description: 'four' });
      expect(answer.status).toBe(200);
      expect((answer.body as RecordRep).fields.Description.value).toBe('four');
      const now = await read(id);
      expect(now.fields.Industry.value).toBe('Construction');
      expect(now.fields.Description.value).toBe('four');
    },
  );
});
