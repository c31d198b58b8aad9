/**
 * The storefront's server methods over the Apex transport, over real HTTP, on every test database:
 * getDefaultContacts, getDependentStatePicklistsValues, getContacts, and the generic transport
 * (invokeApexCacheable by GET, invokeApexImperative by POST). Every answer is checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apexUrl,
  BRANDS,
  cardOf,
  CARD_FIELDS,
  compareBytes,
  contactsUrl,
  CONTACT_US,
  CONTROLLER,
  DEFAULT_CONTACT_ID,
  matches,
  MASTER_RECORD_TYPE_ID,
  postJson,
  query,
  storedContacts,
  type ApexErrorBody,
  type ContactsQuery,
  type StoredContact,
} from '../support/api.ts';
import { callOperation, contract } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn } from '../support/session.ts';

interface Card extends Record<string, string | null> {
  Id: string;
}
interface ContactsResult {
  contacts: Card[];
  totalRecords: number;
}

/** The chunk size, from the contract (ContactsResult.contacts.maxItems). */
const CHUNK = (
  contract as { components: { schemas: { ContactsResult: { properties: { contacts: { maxItems: number } } } } } }
).components.schemas.ContactsResult.properties.contacts.maxItems;
/** Several chunks of contacts (and enough for the filters below), so that a filter matching all of them needs several calls. */
const CONTACTS = Math.max(270, 2 * CHUNK + Math.floor(CHUNK / 2));

describe.each(databases())('storefront server methods on %s', (kind) => {
  let server: TestServer;
  let all: StoredContact[];
  const getContacts = (params: unknown, init?: RequestInit) =>
    callOperation<ContactsResult>('getContacts', contactsUrl(server.baseUrl, params), init);
  const expectedFor = (q: ContactsQuery) => all.filter((contact) => matches(contact, q));

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: CONTACTS });
    all = await storedContacts(server.db);
  });
  afterAll(() => server?.close());

  it('seeded the number of contacts asked for', () => {
    expect(all).toHaveLength(CONTACTS);
  });

  describe('getDefaultContacts', () => {
    const url = () => apexUrl(server.baseUrl, CONTROLLER, 'getDefaultContacts');

    it('returns the default-contact records, the company contact first', async () => {
      const { status, body } = await callOperation<Card[]>('getDefaultContacts', url());
      expect(status).toBe(200);
      const defaults = all.filter((contact) => contact.fields.APT_Default_Contact__c === true);
      expect(body.map((contact) => contact.Id)).toEqual(defaults.map((contact) => contact.id));
      expect(body[0]).toEqual({
        Id: DEFAULT_CONTACT_ID,
        APT_Company_Name__c: 'Northgate Electrical Products, Inc.',
        APT_Address_1__c: '1200 Commerce Drive, Suite 400',
        APT_Address_2__c: 'Milwaukee',
        APT_Primary_State__c: 'Wisconsin',
        APT_Country__c: 'United States',
        APT_Zip__c: '53202',
        APT_Phone__c: '414-555-0100',
      });
    });

    it('accepts X-SFDC-Allow-Continuation true and false', async () => {
      for (const value of ['true', 'false']) {
        const { status } = await callOperation('getDefaultContacts', url(), {
          headers: { 'X-SFDC-Allow-Continuation': value },
        });
        expect(status).toBe(200);
      }
    });

    it('answers 400 {errorMessage} to an X-SFDC-Allow-Continuation that is not true or false', async () => {
      const { status, body } = await callOperation<ApexErrorBody>('getDefaultContacts', url(), {
        headers: { 'X-SFDC-Allow-Continuation': 'maybe' },
      });
      expect(status).toBe(400);
      expect(body.errorMessage).toMatch(/x-sfdc-allow-continuation/i);
    });
  });

  describe('getDependentStatePicklistsValues', () => {
    const url = () => apexUrl(server.baseUrl, CONTROLLER, 'getDependentStatePicklistsValues');

    it('returns a JSON string that maps each country to its states, as the picklists in the database say', async () => {
      const { status, body } = await callOperation<string>('getDependentStatePicklistsValues', url());
      expect(status).toBe(200);
      expect(typeof body).toBe('string');
      const map = JSON.parse(body) as Record<string, string[]>;
      expect(map['United States']).toContain('Texas');
      expect(map.Canada).toContain('Ontario');
      expect(map.Canada).not.toContain('Texas');

      const picklist = async (field: string) =>
        (
          await server.db.query<{ value: string; valid_for: string[]; position: number }>(
            'SELECT value, valid_for, position FROM picklist_value WHERE object_api_name = $1 AND field_api_name = $2 AND record_type_id = $3',
            [CONTACT_US, field, MASTER_RECORD_TYPE_ID],
          )
        ).rows.sort((a, b) => a.position - b.position);
      const countries = await picklist('APT_Country__c');
      const states = await picklist('APT_Primary_State__c');
      expect(Object.keys(map)).toEqual(countries.map((country) => country.value));
      for (const country of countries) {
        expect(map[country.value], country.value).toEqual(
          states.filter((state) => state.valid_for.includes(country.value)).map((state) => state.value),
        );
      }
      // The text itself is JSON.stringify's, with no spaces: the platform's method serializes a map.
      expect(body).toBe(JSON.stringify(map));
    });

    it('writes values that JSON escapes as JSON.stringify does', async () => {
      const country = 'Q "quoted" \\ back\tslash\u0001 Ünïcødé ☃ 🌍';
      const state = 'S </script> \n line';
      const insert = `INSERT INTO picklist_value (object_api_name, field_api_name, record_type_id, position, value, label, valid_for)
                      VALUES ($1, $2, $3, $4, $5, $5, $6)`;
      await server.db.query(insert, [CONTACT_US, 'APT_Country__c', MASTER_RECORD_TYPE_ID, 1_000_000, country, []]);
      await server.db.query(insert, [
        CONTACT_US,
        'APT_Primary_State__c',
        MASTER_RECORD_TYPE_ID,
        1_000_000,
        state,
        [country, 'Canada'],
      ]);
      try {
        const { status, body } = await callOperation<string>('getDependentStatePicklistsValues', url());
        expect(status).toBe(200);
        expect(body).toContain(`${JSON.stringify(country)}:${JSON.stringify([state])}}`);
        const map = JSON.parse(body) as Record<string, string[]>;
        expect(map[country]).toEqual([state]);
        expect(map.Canada.at(-1)).toBe(state);
        expect(body).toBe(JSON.stringify(map));
      } finally {
        await server.db.query('DELETE FROM picklist_value WHERE object_api_name = $1 AND position = $2', [
          CONTACT_US,
          1_000_000,
        ]);
      }
    });

    it('answers 400 {errorMessage} to a bad X-SFDC-Allow-Continuation', async () => {
      const { status } = await callOperation('getDependentStatePicklistsValues', url(), {
        headers: { 'X-SFDC-Allow-Continuation': 'yes' },
      });
      expect(status).toBe(400);
    });
  });

  describe('getContacts', () => {
    it('returns no contacts and a total of 0 without any filter', async () => {
      const { status, body } = await getContacts(query({}));
      expect(status).toBe(200);
      expect(body).toEqual({ contacts: [], totalRecords: 0 });
    });

    it('filters by country and state: contacts ordered by Id with exactly the card fields, and the total', async () => {
      const q = query({ country: 'United States', state: 'Texas' });
      const expected = expectedFor(q);
      expect(expected.length, 'the demo data has contacts in Texas').toBeGreaterThan(0);
      const { status, body } = await getContacts(q);
      expect(status).toBe(200);
      expect(body.totalRecords).toBe(expected.length);
      const ids = body.contacts.map((contact) => contact.Id);
      expect(ids).toEqual([...ids].sort(compareBytes));
      for (const contact of body.contacts) expect(Object.keys(contact).sort()).toEqual([...CARD_FIELDS].sort());
      expect(body.contacts).toEqual(expected.map(cardOf));
    });

    it('filters by country alone and by state alone', async () => {
      for (const q of [
        query({ country: 'Canada' }),
        query({ state: 'Ontario' }),
        query({ country: 'Canada', state: 'Ontario' }),
      ]) {
        const expected = expectedFor(q);
        expect(expected.length, JSON.stringify(q)).toBeGreaterThan(0);
        const { body } = await getContacts(q);
        expect(body.totalRecords, JSON.stringify(q)).toBe(expected.length);
        expect(body.contacts.map((contact) => contact.Id)).toEqual(
          expected.slice(0, CHUNK).map((contact) => contact.id),
        );
      }
    });

    it('matches a contact that carries any of the requested brands', async () => {
      const q = query({ brands: ['Arcline', 'Ironspan'] });
      const expected = expectedFor(q);
      const carriesOnlyOthers = all.filter((contact) => !expected.includes(contact));
      expect(carriesOnlyOthers.length, 'some contacts carry neither brand').toBeGreaterThan(0);
      expect(
        expected.some((contact) => String(contact.fields.APT_Brand__c).split(';').length > 1),
        'some match carries several brands',
      ).toBe(true);
      const { body } = await getContacts(q);
      expect(body.totalRecords).toBe(expected.length);
      expect(body.contacts.map((contact) => contact.Id)).toEqual(expected.slice(0, CHUNK).map((contact) => contact.id));
    });

    it('combines brands with country and state', async () => {
      const q = query({ country: 'United States', state: 'Texas', brands: ['Arcline'] });
      const { body } = await getContacts(q);
      expect(body.totalRecords).toBe(expectedFor(q).length);
      expect(body.contacts).toEqual(expectedFor(q).map(cardOf));
    });

    it('pages by lastRecordId: the next chunk follows the last Id, without overlap, until none are left', async () => {
      const q = query({ brands: BRANDS });
      expect(expectedFor(q)).toHaveLength(CONTACTS);
      const ids: string[] = [];
      let lastRecordId: string | null = null;
      for (let call = 0; call <= Math.ceil(CONTACTS / CHUNK); call++) {
        const chunk: ContactsResult = (await getContacts({ ...q, lastRecordId })).body;
        expect(chunk.totalRecords).toBe(CONTACTS);
        expect(chunk.contacts).toHaveLength(Math.min(CHUNK, CONTACTS - ids.length));
        if (lastRecordId !== null && chunk.contacts.length > 0)
          expect(compareBytes(chunk.contacts[0].Id, lastRecordId)).toBe(1);
        if (chunk.contacts.length === 0) break;
        ids.push(...chunk.contacts.map((contact) => contact.Id));
        lastRecordId = ids.at(-1)!;
      }
      expect(new Set(ids).size).toBe(CONTACTS);
      expect(ids).toEqual(all.map((contact) => contact.id));
    });

    it('accepts a 15-character lastRecordId as its 18-character form', async () => {
      const q = query({ country: 'United States' });
      const expected = expectedFor(q);
      const after = expected[9].id;
      const long = (await getContacts({ ...q, lastRecordId: after })).body;
      const short = (await getContacts({ ...q, lastRecordId: after.slice(0, 15) })).body;
      expect(short).toEqual(long);
      expect(long.contacts.map((contact) => contact.Id)).toEqual(
        expected.slice(10, 10 + CHUNK).map((contact) => contact.id),
      );
    });

    describe('answers 400 {errorMessage} to', () => {
      const cases: [string, unknown, RegExp][] = [
        ['an unknown country', query({ country: 'Narnia' }), /Narnia/],
        ['an unknown state', query({ state: 'Atlantis' }), /Atlantis/],
        ['a state of another country', query({ country: 'Canada', state: 'Texas' }), /Texas/],
        ['an unknown brand', query({ brands: ['Arcline', 'Acme'] }), /Acme/],
        ['methodParams that are not JSON', '{"country":', /JSON/],
        ['methodParams that are not an object', '["United States"]', /./],
        ['a country that is not a string', { ...query({}), country: 5 }, /country/],
        ['brands that are not an array', { ...query({}), brands: 'Arcline' }, /brands/],
        ['an argument it does not take', { ...query({ country: 'Canada' }), city: 'Toronto' }, /city/],
        [
          'a lastRecordId that is not an id',
          query({ country: 'Canada', lastRecordId: 'a1C8d0000000001XYZ' }),
          /lastRecordId/,
        ],
      ];
      it.each(cases)('%s', async (_name, params, message) => {
        const { status, body } = await getContacts(params);
        expect(status).toBe(400);
        expect(body).toMatchObject({ errorMessage: expect.stringMatching(message) });
      });
    });

    describe("as the platform's client calls it", () => {
      it('takes an argument left out (JSON.stringify drops undefined) as null: lastRecordId absent is the first chunk', async () => {
        const q = query({ country: 'Canada' });
        const first = (await getContacts(q)).body;
        expect(first.contacts.length).toBeGreaterThan(0);
        const wire = JSON.stringify({ country: 'Canada', state: undefined, brands: [], lastRecordId: undefined });
        expect(wire).toBe('{"country":"Canada","brands":[]}');
        const { status, body } = await getContacts(wire);
        expect(status).toBe(200);
        expect(body).toEqual(first);
        // Only country, every other argument left out; brands null is no brand filter, like an empty list.
        expect((await getContacts({ country: 'Canada' })).body).toEqual(first);
        expect((await getContacts({ ...q, brands: null })).body).toEqual(first);
        // The next chunk, with lastRecordId given and the others left out.
        const last = first.contacts.at(-1)!.Id;
        const next = await getContacts({ country: 'Canada', lastRecordId: last });
        expect(next.status).toBe(200);
        expect(next.body).toEqual((await getContacts({ ...q, lastRecordId: last })).body);
      });

      it('answers a call without methodParams (no arguments: every one null) with no contacts', async () => {
        const { status, body } = await callOperation<ContactsResult>(
          'getContacts',
          apexUrl(server.baseUrl, CONTROLLER, 'getContacts'),
        );
        expect(status).toBe(200);
        expect(body).toEqual({ contacts: [], totalRecords: 0 });
      });
    });
  });

  describe('invokeApexCacheable (GET on the transport path)', () => {
    it('answers the known methods with the same value as their own operations, valid for the transport too', async () => {
      const q = query({ country: 'Canada', state: 'Ontario' });
      const cases: [string, string, unknown][] = [
        ['getDefaultContacts', 'getDefaultContacts', undefined],
        ['getDependentStatePicklistsValues', 'getDependentStatePicklistsValues', undefined],
        ['getContacts', 'getContacts', q],
      ];
      for (const [operationId, method, params] of cases) {
        const url = apexUrl(server.baseUrl, CONTROLLER, method, params);
        const own = await callOperation(operationId, url);
        // The concrete path is the transport's path too: the same answer must satisfy invokeApexCacheable.
        const transport = await callOperation('invokeApexCacheable', url);
        expect(transport.status).toBe(200);
        expect(transport.body).toEqual(own.body);
      }
    });

    it('answers 404 {errorMessage} to an unknown class or method', async () => {
      for (const [className, method] of [
        ['NoSuchController', 'getContacts'],
        [CONTROLLER, 'deleteEverything'],
      ]) {
        const { status, body } = await callOperation<ApexErrorBody>(
          'invokeApexCacheable',
          apexUrl(server.baseUrl, className, method),
        );
        expect(status).toBe(404);
        expect(body.errorMessage).toContain(`${className}.${method}`);
      }
    });

    it('answers 400 {errorMessage} to a class name that cannot be one', async () => {
      const { status, body } = await callOperation<ApexErrorBody>(
        'invokeApexCacheable',
        apexUrl(server.baseUrl, '9Controller', 'getContacts'),
      );
      expect(status).toBe(400);
      expect(body.errorMessage).toMatch(/apexClass/);
    });

    it('answers 400 {errorMessage} to methodParams that are not JSON, before looking the method up', async () => {
      const { status, body } = await callOperation<ApexErrorBody>(
        'invokeApexCacheable',
        apexUrl(server.baseUrl, 'OtherController', 'run', '{oops'),
      );
      expect(status).toBe(400);
      expect(body.errorMessage).toMatch(/JSON/);
    });

    it('answers 400 to methodParams longer than the contract allows (8192)', async () => {
      const long = JSON.stringify({ ...query({}), country: 'x'.repeat(8200) });
      const { status } = await callOperation(
        'invokeApexCacheable',
        apexUrl(server.baseUrl, 'OtherController', 'run', long),
      );
      expect(status).toBe(400);
    });
  });

  describe('invokeApexImperative (POST)', () => {
    const post = (className: string, method: string, init?: RequestInit) =>
      callOperation<unknown>('invokeApexImperative', apexUrl(server.baseUrl, className, method), {
        method: 'POST',
        ...init,
      });

    it('calls getContacts with the arguments as the JSON body, as GET does, never cached', async () => {
      const q = query({ country: 'United States', state: 'Texas', brands: ['Arcline', 'Gridmark'] });
      const response = await post(CONTROLLER, 'getContacts', postJson(q));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('etag')).toBeNull();
      expect(response.body).toEqual((await getContacts(q)).body);
      expect((response.body as ContactsResult).totalRecords).toBe(expectedFor(q).length);
    });

    it("calls a method without arguments with no body (with or without a JSON Content-Type, as the platform's client sends it) or an empty object", async () => {
      const expected = all
        .filter((contact) => contact.fields.APT_Default_Contact__c === true)
        .map((contact) => contact.id);
      const json = { 'Content-Type': 'application/json', 'X-SFDC-Allow-Continuation': 'false' };
      for (const init of [
        {},
        postJson({}),
        { headers: json },
        { headers: json, body: '' },
        { headers: { 'Content-Type': 'application/json; charset=utf-8' } },
      ]) {
        const { status, body } = await post(CONTROLLER, 'getDefaultContacts', init);
        expect(status).toBe(200);
        expect((body as Card[]).map((contact) => contact.Id)).toEqual(expected);
      }
      const states = await post(CONTROLLER, 'getDependentStatePicklistsValues');
      expect(states.status).toBe(200);
      expect(JSON.parse(states.body as string)).toHaveProperty('Canada');
    });

    it('takes an argument left out of the body as null, and getContacts with no body as a call with every argument null', async () => {
      const q = query({ country: 'United States', state: 'Texas' });
      const { status, body } = await post(
        CONTROLLER,
        'getContacts',
        postJson({ country: 'United States', state: 'Texas' }),
      );
      expect(status).toBe(200);
      expect(body).toEqual((await getContacts(q)).body);
      const none = await post(CONTROLLER, 'getContacts', { headers: { 'Content-Type': 'application/json' } });
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ contacts: [], totalRecords: 0 });
    });

    it("answers a signed-in user's call from the page itself without X-CSRF-Token, and refuses one with neither token nor proof", async () => {
      const session = await signIn(server, 'standard');
      const q = query({ country: 'Canada', state: 'Ontario' });
      const page = { Cookie: session.cookie, 'Content-Type': 'application/json', 'X-SFDC-Allow-Continuation': 'false' };
      const proofs: Record<string, string>[] = [{ 'Sec-Fetch-Site': 'same-origin' }, { Origin: server.baseUrl }];
      for (const proof of proofs) {
        const { status, body } = await post(CONTROLLER, 'getContacts', {
          headers: { ...page, ...proof },
          body: JSON.stringify(q),
        });
        expect(status).toBe(200);
        expect(body).toEqual((await getContacts(q)).body);
        const noBody = await post(CONTROLLER, 'getDefaultContacts', { headers: { ...page, ...proof } });
        expect(noBody.status).toBe(200);
      }
      // The token is still accepted, and a call with neither token nor proof is still refused.
      expect(
        (
          await post(CONTROLLER, 'getContacts', {
            headers: { ...page, 'X-CSRF-Token': session.csrfToken },
            body: JSON.stringify(q),
          })
        ).status,
      ).toBe(200);
      const refused = await post(CONTROLLER, 'getContacts', { headers: page, body: JSON.stringify(q) });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ errorMessage: expect.any(String) });
    });

    it('answers 400 {errorMessage} to a body that is not JSON', async () => {
      const { status, body } = await post(CONTROLLER, 'getContacts', postJson('{"country": "Canada",'));
      expect(status).toBe(400);
      expect((body as ApexErrorBody).errorMessage).toMatch(/JSON/i);
    });

    it('answers 415 {errorMessage} to a body that is not declared application/json', async () => {
      const init = { headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(query({ country: 'Canada' })) };
      const { status, body } = await post(CONTROLLER, 'getContacts', init);
      expect(status).toBe(415);
      expect((body as ApexErrorBody).errorMessage).toBe('The request body must be application/json, not text/plain');
    });

    it('answers 400 {errorMessage} to a body that is not an object of arguments', async () => {
      const { status } = await post(CONTROLLER, 'getContacts', postJson([1, 2]));
      expect(status).toBe(400);
    });

    it('answers 400 {errorMessage} to arguments of the wrong type, and to arguments a method does not take', async () => {
      const wrong = await post(CONTROLLER, 'getContacts', postJson({ ...query({}), brands: [1] }));
      expect(wrong.status).toBe(400);
      expect((wrong.body as ApexErrorBody).errorMessage).toMatch(/brands/);
      const extra = await post(CONTROLLER, 'getDefaultContacts', postJson({ country: 'Canada' }));
      expect(extra.status).toBe(400);
      expect((extra.body as ApexErrorBody).errorMessage).toMatch(/country/);
    });

    it('answers 400 {errorMessage} to an unknown country, as GET does', async () => {
      const { status, body } = await post(CONTROLLER, 'getContacts', postJson(query({ country: 'Narnia' })));
      expect(status).toBe(400);
      expect((body as ApexErrorBody).errorMessage).toMatch(/Narnia/);
    });

    it('answers 404 {errorMessage} to an unknown class or method', async () => {
      for (const [className, method] of [
        ['NoSuchController', 'getContacts'],
        [CONTROLLER, 'deleteEverything'],
      ]) {
        const { status, body } = await post(className, method, postJson({}));
        expect(status).toBe(404);
        expect((body as ApexErrorBody).errorMessage).toContain(`${className}.${method}`);
      }
    });

    it('answers 400 {errorMessage} to a method name that cannot be one', async () => {
      const { status, body } = await post(CONTROLLER, 'get-contacts', postJson({}));
      expect(status).toBe(400);
      expect((body as ApexErrorBody).errorMessage).toMatch(/apexMethod/);
    });
  });
});
