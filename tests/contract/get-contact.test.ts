/**
 * getContact, one representative for its own page, over real HTTP on every test database: its fields by an
 * 18- or 15-character Id, for a guest and for a signed-in user; a 404 in the Apex transport's shape for an Id
 * that names no representative (none, or a record of another object); a 400 for one that is no Id; and its
 * answer kept like the locator's, until a change of that record (and only that record) evicts it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactUsRepresentative } from '../../generated/schemas.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';
import {
  apexUrl,
  CONTROLLER,
  DEFAULT_CONTACT_ID,
  postJson,
  storedContacts,
  type ApexErrorBody,
  type StoredContact,
} from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn } from '../support/session.ts';

type Representative = Record<string, string | null> & { Id: string };

/** The representative's fields, as the contract lists them. */
const FIELDS = Object.keys(ContactUsRepresentative.shape).filter((name) => name !== 'Id');

const representativeOf = (contact: StoredContact) => ({
  Id: contact.id,
  ...Object.fromEntries(FIELDS.map((name) => [name, contact.fields[name] ?? null])),
});

describe.each(databases())('getContact on %s', (kind) => {
  let server: TestServer;
  let all: StoredContact[];
  const url = (recordId: unknown) => apexUrl(server.baseUrl, CONTROLLER, 'getContact', { recordId });
  const getContact = (recordId: unknown, init?: RequestInit) =>
    callOperation<Representative | ApexErrorBody>('getContact', url(recordId), init);

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 40 });
    all = await storedContacts(server.db);
  });
  afterAll(() => server?.close());

  it('answers a representative by its 18-character Id with its card fields, country and brands', async () => {
    for (const contact of [all[0], all[7], all[39]]) {
      const { status, body } = await getContact(contact.id);
      expect(status).toBe(200);
      expect(body).toEqual(representativeOf(contact));
    }
    const { body } = await getContact(DEFAULT_CONTACT_ID);
    expect((body as Representative).APT_Company_Name__c).toBe('Northgate Electrical Products, Inc.');
  });

  it('answers the same representative by its 15-character Id, with the 18-character one', async () => {
    const contact = all[3];
    const { status, body } = await getContact(contact.id.slice(0, 15));
    expect(status).toBe(200);
    expect(body).toEqual(representativeOf(contact));
  });

  it('accepts an 18-character Id whose suffix is in another case', async () => {
    const contact = all[5];
    const { status, body } = await getContact(contact.id.slice(0, 15) + contact.id.slice(15).toLowerCase());
    expect(status).toBe(200);
    expect((body as Representative).Id).toBe(contact.id);
  });

  it('answers 404 {errorMessage} to an Id that names no representative', async () => {
    const unknown = makeId('a1C', 999_999);
    const { status, body } = await getContact(unknown);
    expect(status).toBe(404);
    expect(body).toEqual({ errorMessage: `No representative has the Id ${unknown}` });
  });

  it('answers 404 to the Id of a record of another object (a user), not showing it', async () => {
    const { status, body } = await getContact(DEMO_USERS.standard.userId);
    expect(status).toBe(404);
    expect(body).toEqual({ errorMessage: `No representative has the Id ${DEMO_USERS.standard.userId}` });
  });

  it('answers 400 {errorMessage} to an Id whose suffix does not match, or that is not an Id', async () => {
    const wrongSuffix = all[0].id.slice(0, 15) + 'ZZZ';
    const { status, body } = await getContact(wrongSuffix);
    expect(status).toBe(400);
    expect(body).toEqual({ errorMessage: `Invalid recordId: ${wrongSuffix}` });
    for (const bad of ['abc', 'a1C8d00000000!2EAA', '', 42, null, all[0].id + 'X']) {
      const answer = await getContact(bad);
      expect(answer.status, String(bad)).toBe(400);
      expect(typeof (answer.body as ApexErrorBody).errorMessage).toBe('string');
    }
  });

  it('answers 400 without methodParams, with other arguments, or with methodParams that is not JSON', async () => {
    const base = apexUrl(server.baseUrl, CONTROLLER, 'getContact');
    for (const target of [
      base,
      `${base}?methodParams=${encodeURIComponent(JSON.stringify({ recordId: all[0].id, extra: 1 }))}`,
      `${base}?methodParams=${encodeURIComponent('{"recordId":')}`,
      `${base}?methodParams=${encodeURIComponent(JSON.stringify([all[0].id]))}`,
    ]) {
      const { status, body } = await callOperation<ApexErrorBody>('getContact', target);
      expect(status, target).toBe(400);
      expect(typeof body.errorMessage).toBe('string');
    }
  });

  it('answers a signed-in user the same representative', async () => {
    const session = await signIn(server, 'standard');
    const contact = all[2];
    const { status, body } = await getContact(contact.id, { headers: { Cookie: session.cookie } });
    expect(status).toBe(200);
    expect(body).toEqual(representativeOf(contact));
    const unknown = await getContact(makeId('a1C', 999_998), { headers: { Cookie: session.cookie } });
    expect(unknown.status).toBe(404);
  });

  it('answers 304 to If-None-Match with its ETag', async () => {
    const first = await fetch(url(all[4].id));
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const { status } = await callOperation('getContact', url(all[4].id), { headers: { 'If-None-Match': etag! } });
    expect(status).toBe(304);
  });

  it('is not listed by the generic transport, whose answers it would widen', async () => {
    const { status, body } = await callOperation<ApexErrorBody>(
      'invokeApexImperative',
      `${server.baseUrl}/lwr/apex/v65.0/${CONTROLLER}/getContact`,
      postJson({ recordId: all[6].id }),
    );
    expect(status).toBe(404);
    expect(body).toEqual({ errorMessage: `No such method: ${CONTROLLER}.getContact` });
  });

  it.skipIf(!CACHES_ON)(
    'keeps the answer until that record changes; a change of another keeps it (needs the caches on: not CACHES=off)',
    async () => {
      const cache = server.app.locatorCache;
      const [mine, other] = [all[10], all[11]];
      const kept = async (id: string) => {
        const before = { ...cache.stats };
        const { status } = await getContact(id);
        expect(status).toBe(200);
        return cache.stats.hits + cache.stats.replayed - before.hits - before.replayed > 0;
      };
      await kept(mine.id);
      expect(await kept(mine.id)).toBe(true);
      await server.db.query(`UPDATE record SET fields = fields || '{"APT_Fax__c":"1"}'::jsonb WHERE id = $1`, [
        other.id,
      ]);
      expect(await kept(mine.id)).toBe(true);
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Phone__c', '512-555-0111') WHERE id = $1`,
        [mine.id],
      );
      expect(await kept(mine.id)).toBe(false);
      const { body } = await getContact(mine.id);
      expect((body as Representative).APT_Phone__c).toBe('512-555-0111');
      // Asked by its 15-character Id, kept under that key: the change still evicts it.
      await kept(mine.id.slice(0, 15));
      expect(await kept(mine.id.slice(0, 15))).toBe(true);
      await server.db.query(`DELETE FROM record WHERE id = $1`, [mine.id]);
      const gone = await getContact(mine.id.slice(0, 15));
      expect(gone.status).toBe(404);
    },
  );
});
