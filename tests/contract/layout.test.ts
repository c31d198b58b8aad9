/**
 * Layouts over real HTTP, on every test database: getLayout, getPathLayout and the layout user state,
 * as signed-in users of two profiles, checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_US, MASTER_RECORD_TYPE_ID, NOT_FOUND_BODY, UI_API, type ErrorList } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

interface Component {
  apiName: string | null;
  componentType: string;
  label?: string;
}
interface Item {
  editableForNew: boolean;
  editableForUpdate: boolean;
  label: string;
  layoutComponents: Component[];
  lookupIdApiName: string | null;
  required: boolean;
}
interface Section {
  id: string | null;
  heading: string | null;
  collapsible: boolean;
  rows: number;
  layoutRows: { layoutItems: Item[] }[];
}
interface Layout {
  eTag: string;
  id: string;
  layoutType: string;
  mode: string;
  objectApiName: string;
  recordTypeId: string;
  saveOptions: { name: string }[];
  sections: Section[];
}
interface UserState {
  apiName: string;
  id: string;
  layoutType: string;
  mode: string;
  recordTypeId: string;
  sectionUserStates: Record<string, { collapsed: boolean; id: string }>;
}

const PRODUCT_SUPPORT = '0128d0000000001AAA';
const SALES_INQUIRY = '0128d0000000002AAA';
const ADDRESS_SECTION = '01B8d0000000002EAA';
const SYSTEM_SECTION = '01B8d0000000004EAA';

const fieldsOf = (layout: Layout) =>
  layout.sections.flatMap((section) =>
    section.layoutRows.flatMap((row) =>
      row.layoutItems.flatMap((item) =>
        item.layoutComponents.filter((c) => c.componentType === 'Field').map((c) => c.apiName),
      ),
    ),
  );
const itemOf = (layout: Layout, field: string) =>
  layout.sections
    .flatMap((section) => section.layoutRows.flatMap((row) => row.layoutItems))
    .find((item) => item.layoutComponents.some((c) => c.apiName === field));

describe.each(databases())('layouts on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;

  const layout = (
    object: string,
    query: string,
    session: TestSession | null = admin,
    headers: Record<string, string> = {},
  ) =>
    callOperation<Layout | ErrorList>(
      'getLayout',
      `${server.baseUrl}${UI_API}/layout/${object}${query ? `?${query}` : ''}`,
      {
        headers: { ...(session?.headers ?? {}), ...headers },
      },
    );
  const pathLayout = (object: string, query: string, session: TestSession | null = admin) =>
    callOperation<Layout | ErrorList>('getPathLayout', `${server.baseUrl}${UI_API}/path/layout/${object}?${query}`, {
      headers: session?.headers ?? {},
    });
  const userState = (object: string, query: string, session: TestSession | null = admin) =>
    callOperation<UserState | ErrorList>(
      'getLayoutUserState',
      `${server.baseUrl}${UI_API}/layout/${object}/user-state?${query}`,
      {
        headers: session?.headers ?? {},
      },
    );
  const updateUserState = (object: string, query: string, body: unknown, session: TestSession | null = admin) =>
    callOperation<UserState | ErrorList>(
      'updateLayoutUserState',
      `${server.baseUrl}${UI_API}/layout/${object}/user-state?${query}`,
      {
        method: 'PATCH',
        headers: { ...(session?.headers ?? {}), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
    );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 0 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  describe('getLayout', () => {
    it('answers the Contact Us Full View layout by default, its eTag in the ETag header, 304 to If-None-Match', async () => {
      const { status, body, headers } = await layout(CONTACT_US, '');
      expect(status).toBe(200);
      const full = body as Layout;
      expect(full).toMatchObject({
        id: '00h8d0000000001AAA',
        layoutType: 'Full',
        mode: 'View',
        objectApiName: CONTACT_US,
        recordTypeId: MASTER_RECORD_TYPE_ID,
        saveOptions: [],
      });
      expect(full.sections.map((section) => section.heading)).toEqual(['Information', 'Address', 'System Information']);
      expect(full.sections.every((section) => section.rows === section.layoutRows.length)).toBe(true);
      expect(fieldsOf(full)).toEqual(
        expect.arrayContaining(['Name', 'APT_Company_Name__c', 'APT_UI_Country__c', 'CreatedById', 'OwnerId']),
      );
      expect(headers.get('etag')).toBe(`"${full.eTag}"`);
      const again = await layout(CONTACT_US, '', admin, { 'If-None-Match': headers.get('etag')! });
      expect(again.status).toBe(304);
    });

    it('leaves formula and auto-number fields out of Edit, and system fields out of Create', async () => {
      const edit = (await layout(CONTACT_US, 'mode=Edit')).body as Layout;
      const create = (await layout(CONTACT_US, 'mode=Create')).body as Layout;
      expect(edit.mode).toBe('Edit');
      expect(fieldsOf(edit)).not.toContain('Name');
      expect(fieldsOf(edit)).not.toContain('APT_UI_Country__c');
      expect(fieldsOf(edit)).toContain('CreatedById');
      expect(fieldsOf(create)).not.toContain('CreatedById');
      expect(fieldsOf(create)).toContain('APT_Company_Name__c');
      expect(itemOf(create, 'APT_Company_Name__c')).toMatchObject({
        required: true,
        editableForNew: true,
        editableForUpdate: true,
      });
      expect(itemOf(edit, 'CreatedById')).toMatchObject({
        label: 'Created By',
        lookupIdApiName: 'CreatedById',
        editableForUpdate: false,
      });
    });

    it('answers the Compact layout', async () => {
      const compact = (await layout(CONTACT_US, 'layoutType=Compact')).body as Layout;
      expect(compact.layoutType).toBe('Compact');
      expect(fieldsOf(compact)).toEqual(['Name', 'APT_Company_Name__c', 'APT_Phone__c', 'APT_Email__c']);
    });

    it('gives each record type its own layout, the default record type when none is named, and accepts 15-character ids', async () => {
      const byDefault = (await layout('Case', '')).body as Layout;
      expect(byDefault).toMatchObject({ recordTypeId: PRODUCT_SUPPORT, id: '00h8d0000000003AAA' });
      expect(byDefault.saveOptions.map((option) => option.name)).toEqual(['UseDefaultRule']);
      const sales = await layout('Case', `recordTypeId=${SALES_INQUIRY.slice(0, 15)}`);
      expect(sales.status).toBe(200);
      expect(sales.body).toMatchObject({ recordTypeId: SALES_INQUIRY, id: '00h8d0000000004AAA' });
      expect(fieldsOf(sales.body as Layout)).not.toContain('Origin');
      const master = (await layout('Case', `recordTypeId=${MASTER_RECORD_TYPE_ID}`)).body as Layout;
      expect(master).toMatchObject({ recordTypeId: MASTER_RECORD_TYPE_ID, id: '00h8d0000000003AAA' });
    });

    it('shows a person name as one field in View and as its parts on a form', async () => {
      const view = (await layout('Contact', '')).body as Layout;
      expect(itemOf(view, 'Name')!.layoutComponents.map((component) => component.apiName)).toEqual(['Name']);
      const edit = (await layout('Contact', 'mode=Edit')).body as Layout;
      expect(fieldsOf(edit)).not.toContain('Name');
      expect(itemOf(edit, 'FirstName')!.layoutComponents.map((component) => component.apiName)).toEqual([
        'FirstName',
        'LastName',
      ]);
    });

    it('builds a layout for an object without layout data', async () => {
      const { status, body } = await layout('ContentDocument', '');
      expect(status).toBe(200);
      expect(fieldsOf(body as Layout)).toEqual(expect.arrayContaining(['Title', 'OwnerId']));
    });

    it('shows a field the profile may read but not edit as read-only, and hides one it may not read', async () => {
      const adminView = (await layout(CONTACT_US, '', admin)).body as Layout;
      const standardView = (await layout(CONTACT_US, '', standard)).body as Layout;
      expect(itemOf(adminView, 'APT_Default_Contact__c')).toMatchObject({ editableForUpdate: true });
      expect(itemOf(standardView, 'APT_Default_Contact__c')).toMatchObject({
        editableForNew: false,
        editableForUpdate: false,
      });
      const users = (await layout('User', '', standard)).body as Layout;
      expect(fieldsOf(users)).not.toContain('Email');
      expect(fieldsOf((await layout('User', '', admin)).body as Layout)).toContain('Email');
    });

    describe('answers 400 in the platform shape to', () => {
      it.each([
        ['a layout type other than Full or Compact', 'layoutType=Search', 'layoutType'],
        ['a mode other than Create, Edit or View', 'mode=Clone', 'mode'],
        ['a form factor that does not exist', 'formFactor=Huge', 'formFactor'],
        ['a record type id that is not one', 'recordTypeId=012000000000000XYZ', 'recordTypeId'],
      ])('%s', async (_name, query, parameter) => {
        const { status, body } = await layout(CONTACT_US, query);
        expect(status).toBe(400);
        expect(body).toEqual([{ errorCode: expect.any(String), message: expect.stringContaining(parameter) }]);
      });
    });

    it('answers 404 to a record type of another object, and to an object that does not exist', async () => {
      const otherType = await layout(CONTACT_US, `recordTypeId=${SALES_INQUIRY}`);
      expect(otherType.status).toBe(404);
      expect(otherType.body).toEqual(NOT_FOUND_BODY);
      const unknown = await layout('No_Such_Object__c', '');
      expect(unknown.status).toBe(404);
      expect((unknown.body as ErrorList)[0].errorCode).toBe('INSUFFICIENT_ACCESS');
    });

    it('answers 401 to a guest', async () => {
      const { status } = await layout(CONTACT_US, '', null);
      expect(status).toBe(401);
    });
  });

  describe('getPathLayout', () => {
    it('answers the layout named by layoutOverride, shaped as a Full layout', async () => {
      const { status, body, headers } = await pathLayout(CONTACT_US, 'layoutOverride=Path');
      expect(status).toBe(200);
      const path = body as Layout;
      expect(path).toMatchObject({
        id: '00h8d0000000002AAA',
        layoutType: 'Full',
        mode: 'View',
        recordTypeId: MASTER_RECORD_TYPE_ID,
      });
      expect(fieldsOf(path)).toEqual(['APT_Company_Name__c', 'APT_Default_Contact__c', 'APT_Phone__c', 'APT_Email__c']);
      expect(headers.get('etag')).toBe(`"${path.eTag}"`);
      const cases = (await pathLayout('Case', `layoutOverride=path&recordTypeId=${SALES_INQUIRY}`)).body as Layout;
      expect(cases.recordTypeId).toBe(SALES_INQUIRY);
      expect(fieldsOf(cases)).toContain('Status');
    });

    it('answers 404 to a layout name the object does not have, 400 without layoutOverride, 401 to a guest', async () => {
      const missing = await pathLayout(CONTACT_US, 'layoutOverride=Nothing');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(NOT_FOUND_BODY);
      const without = await pathLayout(CONTACT_US, 'mode=View');
      expect(without.status).toBe(400);
      expect((without.body as ErrorList)[0].message).toContain('layoutOverride');
      expect((await pathLayout(CONTACT_US, 'layoutOverride=Path', null)).status).toBe(401);
    });
  });

  describe('layout user state', () => {
    const query = `layoutType=Full&mode=View&recordTypeId=${MASTER_RECORD_TYPE_ID}`;

    it('starts with every collapsible section expanded', async () => {
      const { status, body } = await userState(CONTACT_US, query, standard);
      expect(status).toBe(200);
      expect(body).toEqual({
        apiName: CONTACT_US,
        id: '00h8d0000000001AAA',
        layoutType: 'Full',
        mode: 'View',
        recordTypeId: MASTER_RECORD_TYPE_ID,
        sectionUserStates: {
          [ADDRESS_SECTION]: { collapsed: false, id: ADDRESS_SECTION },
          [SYSTEM_SECTION]: { collapsed: false, id: SYSTEM_SECTION },
        },
      });
    });

    it('remembers what each user collapses, per user, leaving the sections not named as they were', async () => {
      const patched = await updateUserState(CONTACT_US, query, {
        sectionUserStates: { [ADDRESS_SECTION]: { collapsed: true } },
      });
      expect(patched.status).toBe(200);
      expect((patched.body as UserState).sectionUserStates[ADDRESS_SECTION]).toEqual({
        collapsed: true,
        id: ADDRESS_SECTION,
      });
      await updateUserState(CONTACT_US, query, {
        sectionUserStates: { [SYSTEM_SECTION.slice(0, 15)]: { collapsed: true } },
      });
      const after = (await userState(CONTACT_US, query)).body as UserState;
      expect(after.sectionUserStates).toEqual({
        [ADDRESS_SECTION]: { collapsed: true, id: ADDRESS_SECTION },
        [SYSTEM_SECTION]: { collapsed: true, id: SYSTEM_SECTION },
      });
      // Another user, and another mode of the same layout, keep their own state.
      expect(
        ((await userState(CONTACT_US, query, standard)).body as UserState).sectionUserStates[ADDRESS_SECTION].collapsed,
      ).toBe(false);
      const edit = (await userState(CONTACT_US, query.replace('mode=View', 'mode=Edit'))).body as UserState;
      expect(edit.sectionUserStates[ADDRESS_SECTION].collapsed).toBe(false);
      const expanded = await updateUserState(CONTACT_US, query, {
        sectionUserStates: { [ADDRESS_SECTION]: { collapsed: false } },
      });
      expect((expanded.body as UserState).sectionUserStates).toEqual({
        [ADDRESS_SECTION]: { collapsed: false, id: ADDRESS_SECTION },
        [SYSTEM_SECTION]: { collapsed: true, id: SYSTEM_SECTION },
      });
    });

    it('changes its ETag when the state changes', async () => {
      const before = await userState(CONTACT_US, query, standard);
      await updateUserState(
        CONTACT_US,
        query,
        { sectionUserStates: { [SYSTEM_SECTION]: { collapsed: true } } },
        standard,
      );
      const after = await userState(CONTACT_US, query, standard);
      expect(before.headers.get('etag')).toBeTruthy();
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    });

    describe('answers 400 to', () => {
      it.each([
        ['a section that is not collapsible', { sectionUserStates: { '01B8d0000000001EAA': { collapsed: true } } }],
        ['a section of no layout', { sectionUserStates: { '01B8d0000000099EAA': { collapsed: true } } }],
        ['a section id that is not an id', { sectionUserStates: { nonsense: { collapsed: true } } }],
        ['a state without collapsed', { sectionUserStates: { [ADDRESS_SECTION]: {} } }],
        ['a body without sectionUserStates', {}],
      ])('%s', async (_name, body) => {
        const { status, body: errors } = await updateUserState(CONTACT_US, query, body);
        expect(status).toBe(400);
        expect((errors as ErrorList)[0].errorCode).toEqual(expect.any(String));
      });

      it('a query without the record type', async () => {
        const { status, body: errors } = await userState(CONTACT_US, 'layoutType=Full&mode=View');
        expect(status).toBe(400);
        expect((errors as ErrorList)[0]).toMatchObject({
          errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
          message: "Required query parameter 'recordTypeId' is missing",
        });
        const update = await updateUserState(CONTACT_US, 'layoutType=Full&mode=View', { sectionUserStates: {} });
        expect(update.status).toBe(400);
        expect((update.body as ErrorList)[0].message).toBe("Required query parameter 'recordTypeId' is missing");
      });
    });

    it('answers 404 to an unknown object and 401 to a guest', async () => {
      expect((await userState('No_Such_Object__c', query)).status).toBe(404);
      expect((await updateUserState('No_Such_Object__c', query, { sectionUserStates: {} })).status).toBe(404);
      expect((await userState(CONTACT_US, query, null)).status).toBe(401);
      expect((await updateUserState(CONTACT_US, query, { sectionUserStates: {} }, null)).status).toBe(401);
    });
  });
});
