/**
 * Record UI, record defaults (create and clone) and the create and clone templates over real HTTP, on every test database:
 * valid and invalid input, every answer checked against the contract, conditional GETs.
 */
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import { CONTACT_US, DEFAULT_CONTACT_ID, MASTER_RECORD_TYPE_ID, UI_API, type ErrorList } from '../support/api.ts';
import { callOperation, expectValidResponse } from '../support/contract.ts';
import { rawGet } from '../support/raw-http.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

interface FieldValue {
  displayValue: string | null;
  value: unknown;
}
interface RecordUi {
  eTag: string;
  layoutUserStates: Record<string, { id: string; sectionUserStates: Record<string, { collapsed: boolean }> }>;
  layouts: Record<
    string,
    Record<string, Record<string, Record<string, { id: string | null; mode: string; layoutType: string }>>>
  >;
  objectInfos: Record<string, { apiName: string }>;
  records: Record<string, { id: string; apiName: string; eTag: string; fields: Record<string, FieldValue> }>;
}
interface Defaults {
  layout: { mode: string; layoutType: string; objectApiName: string } | null;
  objectInfos: Record<string, { apiName: string }>;
  record: {
    id: null;
    apiName: string;
    eTag: string;
    recordTypeId: string;
    weakEtag: number;
    fields: Record<string, FieldValue>;
  };
}
interface Template {
  objectInfos: Record<string, { apiName: string }>;
  record: { apiName: string; cloneSourceId?: string; recordTypeId: string; fields: Record<string, FieldValue> };
}

const ADMIN_ACCOUNT = makeId('001', 1);
const STANDARD_ACCOUNT = makeId('001', 3);
const FIRST_CONTACT = makeId('003', 1);

describe.each(databases())('record UI and record defaults on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;

  const get = <T>(
    operationId: string,
    path: string,
    session: TestSession | null,
    headers: Record<string, string> = {},
  ) =>
    callOperation<T>(operationId, `${server.baseUrl}${UI_API}${path}`, {
      headers: { ...(session?.headers ?? {}), ...headers },
    });
  const recordUi = (
    ids: string,
    query: string,
    session: TestSession | null = admin,
    headers: Record<string, string> = {},
  ) => get<RecordUi | ErrorList>('getRecordUi', `/record-ui/${ids}?${query}`, session, headers);

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  describe('getRecordUi', () => {
    it('answers records of two objects with their layouts, layout states and object infos; the eTag header agrees with the body', async () => {
      const { status, body, headers } = await recordUi(
        `${DEFAULT_CONTACT_ID},${ADMIN_ACCOUNT}`,
        'layoutTypes=Full&modes=View,Edit',
      );
      expect(status).toBe(200);
      const ui = body as RecordUi;
      expect(Object.keys(ui.records).sort()).toEqual([ADMIN_ACCOUNT, DEFAULT_CONTACT_ID].sort());
      expect(ui.records[ADMIN_ACCOUNT].apiName).toBe('Account');
      expect(ui.records[ADMIN_ACCOUNT].fields.Name.value).toBe('Lakeshore Switchgear Group');
      expect(ui.records[DEFAULT_CONTACT_ID].apiName).toBe(CONTACT_US);
      expect(Object.keys(ui.records[DEFAULT_CONTACT_ID].fields).length).toBeGreaterThan(3);
      const contactLayouts = ui.layouts[CONTACT_US][MASTER_RECORD_TYPE_ID].Full;
      expect(Object.keys(contactLayouts).sort()).toEqual(['Edit', 'View']);
      expect(contactLayouts.Edit.mode).toBe('Edit');
      expect(ui.layouts.Account[MASTER_RECORD_TYPE_ID].Full.View.layoutType).toBe('Full');
      expect(ui.objectInfos[CONTACT_US].apiName).toBe(CONTACT_US);
      expect(ui.objectInfos.Account.apiName).toBe('Account');
      // Account.OwnerId points at User: its object info comes along.
      expect(ui.objectInfos.User?.apiName).toBe('User');
      for (const state of Object.values(ui.layoutUserStates)) expect(typeof state.id).toBe('string');
      expect(ui.eTag).toMatch(/^[0-9a-f]{32}$/);
      expect(headers.get('etag')).toBe(`"${ui.eTag}"`);
      expect(headers.get('cache-control')).toBe('private, max-age=900');
    });

    it('answers 304 to If-None-Match with the eTag it gave', async () => {
      const first = await recordUi(DEFAULT_CONTACT_ID, 'layoutTypes=Compact&modes=View');
      expect(first.status).toBe(200);
      const again = await recordUi(DEFAULT_CONTACT_ID, 'layoutTypes=Compact&modes=View', admin, {
        'If-None-Match': first.headers.get('etag')!,
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    });

    it.skipIf(!CACHES_ON)(
      'answers the same record UI again as it was, in Brotli to a client that names br (needs the caches on: not CACHES=off)',
      async () => {
        const url = `${server.baseUrl}${UI_API}/record-ui/${ADMIN_ACCOUNT}?layoutTypes=Full&modes=View`;
        const headers = { Cookie: admin.cookie, 'Accept-Encoding': 'gzip, br' };
        // The first answer of these records may come after an equal one (another test's): asked without br, it is JSON.
        const first = await rawGet(url, { Cookie: admin.cookie });
        await rawGet(url, headers);
        const second = await rawGet(url, headers);
        expect(first.status).toBe(200);
        expect(first.headers['content-encoding']).toBeUndefined();
        expect(second.headers['content-encoding']).toBe('br');
        expect(second.headers.etag).toBe(`${first.headers.etag!.slice(0, -1)}-br"`);
        expect(second.headers.vary).toBe('Accept-Encoding, Cookie');
        const text = brotliDecompressSync(second.body).toString();
        expect(text).toBe(first.body.toString());
        expect(second.body.length).toBeLessThan(first.body.length / 4);
        expectValidResponse('getRecordUi', 200, JSON.parse(text));
        // Either coding's ETag revalidates it.
        expect((await rawGet(url, { ...headers, 'If-None-Match': second.headers.etag! })).status).toBe(304);
        expect((await rawGet(url, { Cookie: admin.cookie, 'If-None-Match': first.headers.etag! })).status).toBe(304);
        // Without br, the same JSON.
        expect((await rawGet(url, { Cookie: admin.cookie })).body.toString()).toBe(text);
      },
    );

    it('gives an eTag that changes when a record it shows changes, and the same one again when nothing did', async () => {
      const query = 'layoutTypes=Full&modes=View';
      const first = (await recordUi(FIRST_CONTACT, query)).body as RecordUi;
      expect((await recordUi(FIRST_CONTACT, query)).body).toMatchObject({ eTag: first.eTag });
      const department = first.records[FIRST_CONTACT].fields.Department.value;
      const update = (value: unknown) =>
        fetch(`${server.baseUrl}${UI_API}/records/${FIRST_CONTACT}`, {
          method: 'PATCH',
          headers: { ...admin.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ fields: { Department: value } }),
        });
      expect((await update('Field Service')).status).toBe(200);
      try {
        const changed = (await recordUi(FIRST_CONTACT, query)).body as RecordUi;
        expect(changed.records[FIRST_CONTACT].fields.Department.value).toBe('Field Service');
        expect(changed.eTag).not.toBe(first.eTag);
      } finally {
        expect((await update(department)).status).toBe(200);
      }
      // Changed back, the record still has another modstamp: another eTag, the same at every call.
      const restored = (await recordUi(FIRST_CONTACT, query)).body as RecordUi;
      expect(restored.eTag).not.toBe(first.eTag);
      expect((await recordUi(FIRST_CONTACT, query)).body).toMatchObject({ eTag: restored.eTag });
    });

    it('takes a 15-character id and keys the record by its 18-character id', async () => {
      const { status, body } = await recordUi(DEFAULT_CONTACT_ID.slice(0, 15), 'layoutTypes=Full&modes=View');
      expect(status).toBe(200);
      expect(Object.keys((body as RecordUi).records)).toEqual([DEFAULT_CONTACT_ID]);
    });

    it('adds the optional fields the caller may see and leaves out those that do not exist', async () => {
      const { status, body } = await recordUi(
        FIRST_CONTACT,
        'layoutTypes=Compact&modes=View&optionalFields=Contact.Department,Contact.No_Such_Field__c',
      );
      expect(status).toBe(200);
      const record = (body as RecordUi).records[FIRST_CONTACT];
      expect(record.fields.Department.value).toBe('Support');
      expect(record.fields.No_Such_Field__c).toBeUndefined();
    });

    it('answers 404 for a record the caller may not see, exactly as for one that does not exist', async () => {
      const hidden = await recordUi(ADMIN_ACCOUNT, 'layoutTypes=Full&modes=View', standard);
      const missing = await recordUi(makeId('001', 999), 'layoutTypes=Full&modes=View', standard);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
      const own = await recordUi(STANDARD_ACCOUNT, 'layoutTypes=Full&modes=View', standard);
      expect(own.status).toBe(200);
    });

    it('takes layoutTypes Full and modes View when they are left out, as the platform does', async () => {
      const explicit = await recordUi(DEFAULT_CONTACT_ID, 'layoutTypes=Full&modes=View');
      expect(explicit.status).toBe(200);
      for (const query of ['', 'modes=View', 'layoutTypes=Full']) {
        const { status, body } = await recordUi(DEFAULT_CONTACT_ID, query);
        expect(status, query).toBe(200);
        expect(body, query).toEqual(explicit.body);
      }
      const layouts = (explicit.body as RecordUi).layouts[CONTACT_US][MASTER_RECORD_TYPE_ID];
      expect(Object.keys(layouts)).toEqual(['Full']);
      expect(Object.keys(layouts.Full)).toEqual(['View']);
      const compact = await recordUi(DEFAULT_CONTACT_ID, 'layoutTypes=Compact');
      expect(Object.keys((compact.body as RecordUi).layouts[CONTACT_US][MASTER_RECORD_TYPE_ID].Compact)).toEqual([
        'View',
      ]);
      const edit = await recordUi(DEFAULT_CONTACT_ID, 'modes=Edit');
      expect(Object.keys((edit.body as RecordUi).layouts[CONTACT_US][MASTER_RECORD_TYPE_ID].Full)).toEqual(['Edit']);
    });

    it('answers 400 to a bad id, a bad layoutTypes or modes, and the unsupported parameters', async () => {
      const badId = await recordUi(`${DEFAULT_CONTACT_ID.slice(0, 15)}ZZZ`, 'layoutTypes=Full&modes=View');
      expect(badId.status).toBe(400);
      expect((badId.body as ErrorList)[0].errorCode).toBe('INVALID_ID_FIELD');
      for (const query of ['layoutTypes=Mdp&modes=View', 'layoutTypes=Full&modes=Clone', 'modes=Search']) {
        const { status, body } = await recordUi(DEFAULT_CONTACT_ID, query);
        expect(status, query).toBe(400);
        expect((body as ErrorList)[0].errorCode, query).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
      }
      for (const parameter of [
        'formFactor=Large',
        'childRelationships=Account.Contacts',
        'pageSize=5',
        'updateMru=true',
      ]) {
        const { status, body } = await recordUi(DEFAULT_CONTACT_ID, `layoutTypes=Full&modes=View&${parameter}`);
        expect(status, parameter).toBe(400);
        expect((body as ErrorList)[0].message, parameter).toContain('not supported');
      }
    });

    it('answers 401 to a guest', async () => {
      const { status, body } = await recordUi(DEFAULT_CONTACT_ID, 'layoutTypes=Full&modes=View', null);
      expect(status).toBe(401);
      expect((body as ErrorList)[0].errorCode).toBe('INVALID_SESSION_ID');
    });
  });

  describe('getRecordCreateDefaults', () => {
    it('answers the Create layout, a record with the defaults (owner is the caller, checkboxes false) and the object infos', async () => {
      const { status, body, headers } = await get<Defaults>(
        'getRecordCreateDefaults',
        `/record-defaults/create/${CONTACT_US}`,
        standard,
      );
      expect(status).toBe(200);
      expect(body.layout).toMatchObject({ mode: 'Create', layoutType: 'Full', objectApiName: CONTACT_US });
      expect(body.record).toMatchObject({
        id: null,
        apiName: CONTACT_US,
        recordTypeId: MASTER_RECORD_TYPE_ID,
        weakEtag: 0,
      });
      expect(body.record.fields.APT_Default_Contact__c?.value ?? false).toBe(false);
      expect(body.objectInfos[CONTACT_US].apiName).toBe(CONTACT_US);
      const withOwner = await get<Defaults>(
        'getRecordCreateDefaults',
        `/record-defaults/create/Account?optionalFields=Account.OwnerId,Account.Name`,
        standard,
      );
      expect(withOwner.status).toBe(200);
      expect(withOwner.body.record.fields.OwnerId.value).toBe(DEMO_USERS.standard.userId);
      expect(withOwner.body.record.fields.Name.value).toBeNull();
      expect(headers.get('cache-control')).toBe('private, max-age=900');
      const again = await get('getRecordCreateDefaults', `/record-defaults/create/${CONTACT_US}`, standard, {
        'If-None-Match': headers.get('etag')!,
      });
      expect(again.status).toBe(304);
    });

    it('gives a picklist its default value for the record type', async () => {
      const { status, body } = await get<Defaults>(
        'getRecordCreateDefaults',
        '/record-defaults/create/Case?optionalFields=Case.Priority',
        admin,
      );
      expect(status).toBe(200);
      expect(body.record.fields.Priority.value).toBe('Medium');
    });

    it('answers 404 to an object that does not exist, 400 to a bad record type or form factor, 401 to a guest', async () => {
      expect((await get('getRecordCreateDefaults', '/record-defaults/create/No_Such_Object__c', admin)).status).toBe(
        404,
      );
      const badType = await get<ErrorList>(
        'getRecordCreateDefaults',
        `/record-defaults/create/${CONTACT_US}?recordTypeId=001000000000000AAA`,
        admin,
      );
      expect(badType.status).toBe(400);
      expect(
        (await get('getRecordCreateDefaults', `/record-defaults/create/${CONTACT_US}?formFactor=Huge`, admin)).status,
      ).toBe(400);
      expect((await get('getRecordCreateDefaults', `/record-defaults/create/${CONTACT_US}`, null)).status).toBe(401);
    });

    it('answers 403 to an object the caller may read but not create', async () => {
      const { status, body } = await get<ErrorList>(
        'getRecordCreateDefaults',
        '/record-defaults/create/User',
        standard,
      );
      expect(status).toBe(403);
      expect(body[0].errorCode).toBe('INSUFFICIENT_ACCESS');
    });
  });

  describe('getRecordTemplateCreate', () => {
    it('answers only the optional fields asked for, with their defaults, and no layout', async () => {
      const { status, body } = await get<Template>(
        'getRecordTemplateCreate',
        `/record-defaults/template/create/${CONTACT_US}?optionalFields=${CONTACT_US}.APT_Company_Name__c,${CONTACT_US}.APT_Default_Contact__c`,
        admin,
      );
      expect(status).toBe(200);
      expect(body.record).toEqual({
        apiName: CONTACT_US,
        fields: {
          APT_Company_Name__c: { displayValue: null, value: null },
          APT_Default_Contact__c: { displayValue: null, value: false },
        },
        recordTypeId: MASTER_RECORD_TYPE_ID,
      });
      expect('layout' in body).toBe(false);
      expect(body.objectInfos[CONTACT_US].apiName).toBe(CONTACT_US);
    });

    it('answers 404 to an unknown object and 400 to a malformed optionalFields', async () => {
      expect(
        (await get('getRecordTemplateCreate', '/record-defaults/template/create/No_Such_Object__c', admin)).status,
      ).toBe(404);
      expect(
        (
          await get(
            'getRecordTemplateCreate',
            `/record-defaults/template/create/${CONTACT_US}?optionalFields=NoDot`,
            admin,
          )
        ).status,
      ).toBe(400);
    });
  });

  describe('getRecordCloneDefaults', () => {
    const cloneDefaults = (recordId: string, session: TestSession | null, query = '') =>
      get<Defaults | ErrorList>('getRecordCloneDefaults', `/record-defaults/clone/${recordId}${query}`, session);

    it("answers the create defaults' shape: the create layout in Clone mode and a record not yet created with the source's values, owned by the caller", async () => {
      const { status, body } = await cloneDefaults(STANDARD_ACCOUNT, standard);
      expect(status).toBe(200);
      const defaults = body as Defaults;
      expect(defaults.layout).toMatchObject({ mode: 'Clone', layoutType: 'Full', objectApiName: 'Account' });
      expect(defaults.record).toMatchObject({
        id: null,
        apiName: 'Account',
        recordTypeId: MASTER_RECORD_TYPE_ID,
        weakEtag: 0,
      });
      expect(defaults.record.fields.Name.value).toBe('Riverbend Industrial Controls');
      expect(defaults.record.fields.OwnerId?.value ?? DEMO_USERS.standard.userId).toBe(DEMO_USERS.standard.userId);
      for (const systemField of ['Id', 'CreatedDate', 'LastModifiedById', 'SystemModstamp'])
        expect(defaults.record.fields[systemField], systemField).toBeUndefined();
      expect(defaults.objectInfos.Account.apiName).toBe('Account');
      // The create defaults and the clone defaults lay out the same fields; the clone's hold the source's values.
      const create = (await get<Defaults>('getRecordCreateDefaults', '/record-defaults/create/Account', standard)).body;
      expect(Object.keys(defaults.record.fields).sort()).toEqual(
        Object.keys(create.record.fields)
          .filter((name) => name in defaults.record.fields)
          .sort(),
      );
      expect(defaults.layout!.layoutType).toBe(create.layout!.layoutType);
    });

    it('adds the optional fields asked for, and takes the record type asked for', async () => {
      const { status, body } = await cloneDefaults(
        DEFAULT_CONTACT_ID,
        admin,
        `?optionalFields=${CONTACT_US}.APT_Company_Name__c&recordTypeId=${MASTER_RECORD_TYPE_ID}`,
      );
      expect(status).toBe(200);
      const defaults = body as Defaults;
      expect(defaults.record.apiName).toBe(CONTACT_US);
      expect(defaults.record.fields.APT_Company_Name__c.value).toEqual(expect.any(String));
      expect(defaults.layout?.mode).toBe('Clone');
    });

    it('answers 404 to a record the caller may not see as to one that does not exist, 400 to a bad id, 401 to a guest', async () => {
      const hidden = await cloneDefaults(ADMIN_ACCOUNT, standard);
      const missing = await cloneDefaults(makeId('001', 999), standard);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
      expect((await cloneDefaults('001-not-an-id!!', admin)).status).toBe(400);
      const guest = await cloneDefaults(STANDARD_ACCOUNT, null);
      expect(guest.status).toBe(401);
      expect((guest.body as ErrorList)[0].errorCode).toBe('INVALID_SESSION_ID');
    });
  });

  describe('getRecordTemplateClone', () => {
    it("copies the source record's createable values, owned by the caller, naming the source; a second call within the lifetime gives 304", async () => {
      const { status, body, headers } = await get<Template>(
        'getRecordTemplateClone',
        `/record-defaults/template/clone/${STANDARD_ACCOUNT}`,
        standard,
      );
      expect(status).toBe(200);
      expect(body.record.cloneSourceId).toBe(STANDARD_ACCOUNT);
      expect(body.record.apiName).toBe('Account');
      expect(body.record.fields.Name.value).toBe('Riverbend Industrial Controls');
      expect(body.record.fields.OwnerId.value).toBe(DEMO_USERS.standard.userId);
      expect(body.record.fields.CloneSourceId).toEqual({ displayValue: null, value: STANDARD_ACCOUNT });
      for (const systemField of ['Id', 'CreatedDate', 'LastModifiedById', 'SystemModstamp'])
        expect(body.record.fields[systemField], systemField).toBeUndefined();
      expect(headers.get('cache-control')).toBe('private, max-age=1');
      const again = await get(
        'getRecordTemplateClone',
        `/record-defaults/template/clone/${STANDARD_ACCOUNT}`,
        standard,
        {
          'If-None-Match': headers.get('etag')!,
        },
      );
      expect(again.status).toBe(304);
    });

    it('keeps to the optional fields asked for', async () => {
      const { status, body } = await get<Template>(
        'getRecordTemplateClone',
        `/record-defaults/template/clone/${DEFAULT_CONTACT_ID}?optionalFields=${CONTACT_US}.APT_Company_Name__c`,
        admin,
      );
      expect(status).toBe(200);
      expect(Object.keys(body.record.fields)).toEqual(['APT_Company_Name__c', 'CloneSourceId']);
      expect(body.record.fields.APT_Company_Name__c.value).toEqual(expect.any(String));
    });

    it('answers 404 to a record the caller may not see as to one that does not exist, 400 to a bad id', async () => {
      const hidden = await get<ErrorList>(
        'getRecordTemplateClone',
        `/record-defaults/template/clone/${ADMIN_ACCOUNT}`,
        standard,
      );
      const missing = await get<ErrorList>(
        'getRecordTemplateClone',
        `/record-defaults/template/clone/${makeId('001', 999)}`,
        standard,
      );
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
      expect(
        (await get('getRecordTemplateClone', '/record-defaults/template/clone/001-not-an-id!!', admin)).status,
      ).toBe(400);
    });
  });
});
