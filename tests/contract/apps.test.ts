/**
 * Apps and navigation items over real HTTP, on every test database: the apps a caller's profile may use, one
 * app (which becomes the caller's selected app), the selected app, and pages of navigation items, as a guest,
 * the standard user and the administrator. Every answer is checked against the contract and against the org
 * metadata files the apps are defined in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { UI_API, type ErrorList } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type App = components['schemas']['AppRepresentation'];
type Apps = components['schemas']['AppsRepresentation'];
type NavItems = components['schemas']['NavItemsRepresentation'];

const APPS_DIR = resolve(import.meta.dirname, '../../server/platform/metadata/apps');
interface AppFile {
  appId: string;
  developerName: string;
  label: string;
  formFactors: string[];
  headerColor: string;
  startUrl: string;
  profiles: string[];
  navItems: string[];
  userNavItems: Record<string, string[]>;
}
const appFiles: AppFile[] = readdirSync(APPS_DIR)
  .filter((name) => name.endsWith('.json') && name !== 'nav-items.json')
  .map((name) => JSON.parse(readFileSync(resolve(APPS_DIR, name), 'utf8')) as AppFile);
const fileOf = (developerName: string) => appFiles.find((app) => app.developerName === developerName)!;

const CONSOLE_ID = '02u8d0000000001AAA';
const SALES_ID = '02u8d0000000002AAA';
const ADMINISTRATION_ID = '02u8d0000000003AAA';
const STANDARD_USER_ID = '0058d0000000002AAA';
const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
const NAV_ITEMS_PATH = `${UI_API}/nav-items`;

describe.each(databases())('apps and navigation items on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const get = <T>(
    operationId: string,
    path: string,
    session: TestSession | null,
    headers: Record<string, string> = {},
  ) =>
    callOperation<T | ErrorList>(operationId, `${server.baseUrl}${UI_API}${path}`, {
      headers: { ...(session?.headers ?? {}), ...headers },
    });

  const send = <T>(
    method: 'PATCH' | 'PUT',
    operationId: string,
    path: string,
    session: TestSession | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    callOperation<T | ErrorList>(operationId, `${server.baseUrl}${UI_API}${path}`, {
      method,
      headers: {
        ...(session?.headers ?? {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 10 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID', async () => {
    for (const [operationId, path] of [
      ['getApps', '/apps'],
      ['getSelectedApp', '/apps/selected'],
      ['getAppDetails', `/apps/${CONSOLE_ID}`],
      ['getNavItems', '/nav-items'],
    ]) {
      const answer = await get(operationId, path, null);
      expect(answer.status, operationId).toBe(401);
      expect(answer.body).toEqual(INVALID_SESSION);
    }
  });

  it("lists only the apps the caller's profile may use, with the metadata's header colours, form factors and start URLs", async () => {
    for (const [session, profile] of [
      [standard, 'Standard User'],
      [admin, 'System Administrator'],
    ] as const) {
      const answer = await get<Apps>('getApps', '/apps', session);
      expect(answer.status).toBe(200);
      const body = answer.body as Apps;
      expect(answer.headers.get('etag')).toBe(`"${body.eTag}"`);
      const expected = appFiles.filter((app) => app.profiles.includes(profile)).map((app) => app.developerName);
      expect(body.apps.map((app) => app.developerName).sort()).toEqual(expected.sort());
      for (const app of body.apps) {
        const file = fileOf(app.developerName);
        expect(app).toMatchObject({
          appId: file.appId,
          label: file.label,
          headerColor: file.headerColor,
          formFactors: file.formFactors,
          startUrl: file.startUrl,
        });
        expect(app.userNavItems).toEqual([]);
      }
      // One app is selected: the first, before the caller opens any.
      expect(body.apps.filter((app) => app.selected).map((app) => app.appId)).toEqual([body.apps[0].appId]);
    }
    const standardApps = (await get<Apps>('getApps', '/apps', standard)).body as Apps;
    expect(standardApps.apps.map((app) => app.appId)).not.toContain(ADMINISTRATION_ID);
  });

  it('leaves out items of objects the profile may not read, and gives each object item its labels and page', async () => {
    const administration = (await get<App>('getAppDetails', `/apps/${ADMINISTRATION_ID}`, admin)).body as App;
    expect(administration.navItems.map((item) => item.developerName)).toEqual(fileOf('Store_Administration').navItems);
    const users = administration.navItems.find((item) => item.developerName === 'standard-User')!;
    expect(users).toMatchObject({
      itemType: 'Entity',
      label: 'Users',
      objectApiName: 'User',
      objectLabel: 'User',
      objectLabelPlural: 'Users',
    });
    expect(users.pageReference).toEqual({
      type: 'standard__objectPage',
      attributes: { objectApiName: 'User', actionName: 'home' },
      state: {},
    });
    const page = administration.navItems.find((item) => item.developerName === 'Contact_Us_Page')!;
    expect(page).toMatchObject({ itemType: 'Url', objectApiName: '', objectLabel: null, content: '/' });
    // The administration app is the administrator's only.
    const refused = await get('getAppDetails', `/apps/${ADMINISTRATION_ID}`, standard);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual([{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
    // The users item is the administrator's only, in every list.
    const items = (await get<NavItems>('getNavItems', '/nav-items', standard)).body as NavItems;
    expect(items.navItems.map((item) => item.developerName)).not.toContain('standard-User');
    const adminItems = (await get<NavItems>('getNavItems', '/nav-items', admin)).body as NavItems;
    expect(adminItems.navItems.map((item) => item.developerName)).toContain('standard-User');
  });

  it("gives the caller's own arrangement with userCustomizations, and keeps the app opened last as the selected app", async () => {
    const plain = (await get<App>('getAppDetails', `/apps/${SALES_ID}`, standard)).body as App;
    expect(plain.userNavItems).toEqual([]);
    expect(plain.selected).toBe(true);
    const own = (await get<App>('getAppDetails', `/apps/${SALES_ID.slice(0, 15)}?userCustomizations=true`, standard))
      .body as App;
    expect(own.userNavItems.map((item) => item.developerName)).toEqual(fileOf('Sales').userNavItems[STANDARD_USER_ID]);
    expect(own.navItems.map((item) => item.developerName)).toEqual(fileOf('Sales').navItems);
    const selected = await get<App>('getSelectedApp', '/apps/selected', standard);
    expect(selected.status).toBe(200);
    expect((selected.body as App).appId).toBe(SALES_ID);
    const apps = (await get<Apps>('getApps', '/apps', standard)).body as Apps;
    expect(apps.apps.filter((app) => app.selected).map((app) => app.appId)).toEqual([SALES_ID]);
    // Another user's selection is its own: the administrator last opened the administration app (above).
    expect(((await get<App>('getSelectedApp', '/apps/selected', admin)).body as App).appId).toBe(ADMINISTRATION_ID);
    await get<App>('getAppDetails', `/apps/${CONSOLE_ID}`, standard);
    expect(((await get<App>('getSelectedApp', '/apps/selected', standard)).body as App).appId).toBe(CONSOLE_ID);
  });

  it('filters apps and items by form factor', async () => {
    const small = (await get<Apps>('getApps', '/apps?formFactor=Small', admin)).body as Apps;
    expect(small.apps.map((app) => app.appId)).toEqual(
      appFiles.filter((app) => app.formFactors.includes('Small')).map((app) => app.appId),
    );
    const onConsole = await get('getAppDetails', `/apps/${CONSOLE_ID}?formFactor=Small`, admin);
    expect(onConsole.status).toBe(404);
    const smallItems = (await get<NavItems>('getNavItems', '/nav-items?formFactor=Small', admin)).body as NavItems;
    expect(smallItems.navItems.map((item) => item.developerName)).not.toContain('Contact_Us_Page');
    const largeItems = (await get<NavItems>('getNavItems', '/nav-items?formFactor=Large', admin)).body as NavItems;
    expect(largeItems.navItems.map((item) => item.developerName)).toContain('Contact_Us_Page');
  });

  it('pages navigation items and gives only those named, in the order named', async () => {
    const all = ((await get<NavItems>('getNavItems', '/nav-items?pageSize=200', admin)).body as NavItems).navItems.map(
      (item) => item.developerName,
    );
    const first = await get<NavItems>('getNavItems', '/nav-items?pageSize=3', admin);
    const firstBody = first.body as NavItems;
    expect(firstBody.navItems.map((item) => item.developerName)).toEqual(all.slice(0, 3));
    expect(firstBody.currentPageUrl).toBe(`${NAV_ITEMS_PATH}?page=0&pageSize=3`);
    expect(firstBody.nextPageUrl).toBe(`${NAV_ITEMS_PATH}?page=1&pageSize=3`);
    const pages: string[] = [];
    for (let page = 0; page * 3 < all.length; page++) {
      const body = (await get<NavItems>('getNavItems', `/nav-items?page=${page}&pageSize=3`, admin)).body as NavItems;
      pages.push(...body.navItems.map((item) => item.developerName));
      expect(body.nextPageUrl === null).toBe((page + 1) * 3 >= all.length);
    }
    expect(pages).toEqual(all);
    const named = (
      await get<NavItems>(
        'getNavItems',
        '/nav-items?formFactor=Large&navItemNames=standard-Account,APT_Contact_Us__c,No_Such_Item',
        standard,
      )
    ).body as NavItems;
    expect(named.navItems.map((item) => item.developerName)).toEqual(['standard-Account', 'APT_Contact_Us__c']);
    expect(named.currentPageUrl).toBe(
      `${NAV_ITEMS_PATH}?formFactor=Large&navItemNames=standard-Account%2CAPT_Contact_Us__c%2CNo_Such_Item&page=0&pageSize=25`,
    );
    const beyond = (await get<NavItems>('getNavItems', '/nav-items?page=50', admin)).body as NavItems;
    expect(beyond).toMatchObject({ navItems: [], nextPageUrl: null });
  });

  it('answers bad input with 400 and unknown apps with 404, in the platform error shape', async () => {
    for (const [operationId, path] of [
      ['getApps', '/apps?formFactor=Huge'],
      ['getApps', '/apps?userCustomizations=maybe'],
      ['getSelectedApp', '/apps/selected?formFactor=Tiny'],
      ['getAppDetails', '/apps/not-an-app-id'],
      ['getAppDetails', `/apps/${CONSOLE_ID}?formFactor=Huge`],
      ['getNavItems', '/nav-items?page=-1'],
      ['getNavItems', '/nav-items?pageSize=0'],
      ['getNavItems', '/nav-items?pageSize=201'],
      ['getNavItems', '/nav-items?navItemNames=bad%20name'],
    ]) {
      const answer = await get(operationId, path, standard);
      expect(answer.status, path).toBe(400);
      expect(Array.isArray(answer.body) && typeof (answer.body as ErrorList)[0].errorCode).toBe('string');
    }
    const unknown = await get('getAppDetails', '/apps/02u8d0000000099AAA', admin);
    expect(unknown.status).toBe(404);
  });

  describe('selectApp', () => {
    const selectedOf = async (session: TestSession) => {
      const apps = (await get<Apps>('getApps', '/apps', session)).body as Apps;
      const selected = (await get<App>('getSelectedApp', '/apps/selected', session)).body as App;
      return { listed: apps.apps.filter((app) => app.selected).map((app) => app.appId), selected: selected.appId };
    };

    it('remembers the app selected for the caller alone, and answers it as selected everywhere', async () => {
      const before = await selectedOf(standard);
      expect(before.listed).toEqual([before.selected]);
      const chosen = before.selected === SALES_ID ? CONSOLE_ID : SALES_ID;
      const adminBefore = await selectedOf(admin);

      const answer = await send<App>(
        'PATCH',
        'selectApp',
        `/apps/${chosen.slice(0, 15)}?userCustomizations=true`,
        standard,
      );
      expect(answer.status).toBe(200);
      const app = answer.body as App;
      expect(app).toMatchObject({ appId: chosen, selected: true });
      expect(app.navItems.map((item) => item.developerName)).toEqual(
        fileOf(chosen === SALES_ID ? 'Sales' : 'Storefront_Console').navItems,
      );

      expect(await selectedOf(standard)).toEqual({ listed: [chosen], selected: chosen });
      const details = (await get<App>('getAppDetails', `/apps/${chosen}`, standard)).body as App;
      expect(details.selected).toBe(true);
      // The administrator's selection is its own.
      expect(await selectedOf(admin)).toEqual(adminBefore);

      // Selecting another app moves the selection.
      const other = chosen === SALES_ID ? CONSOLE_ID : SALES_ID;
      expect((await send<App>('PATCH', 'selectApp', `/apps/${other}`, standard)).status).toBe(200);
      expect(await selectedOf(standard)).toEqual({ listed: [other], selected: other });
      const previous = (await get<Apps>('getApps', '/apps', standard)).body as Apps;
      expect(previous.apps.find((candidate) => candidate.appId === chosen)?.selected).toBe(false);
    });

    it('answers unknown apps and apps the caller may not use 404, bad input 400, a guest 401, another site 403', async () => {
      const before = await selectedOf(standard);
      for (const path of [
        `/apps/02u8d0000000099AAA`,
        `/apps/${ADMINISTRATION_ID}`,
        `/apps/${CONSOLE_ID}?formFactor=Small`,
      ]) {
        const answer = await send('PATCH', 'selectApp', path, standard);
        expect(answer.status, path).toBe(404);
        expect(answer.body).toEqual([{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
      }
      for (const path of ['/apps/not-an-app-id', `/apps/${CONSOLE_ID}?formFactor=Huge`]) {
        const answer = await send('PATCH', 'selectApp', path, standard);
        expect(answer.status, path).toBe(400);
        expect(typeof (answer.body as ErrorList)[0].errorCode).toBe('string');
      }
      const guest = await send('PATCH', 'selectApp', `/apps/${CONSOLE_ID}`, null);
      expect(guest.status).toBe(401);
      expect(guest.body).toEqual(INVALID_SESSION);
      // A page of another site may not select an app for the caller.
      const refused = await send('PATCH', 'selectApp', `/apps/${CONSOLE_ID}`, standard, undefined, {
        Origin: 'https://elsewhere.example',
      });
      expect(refused.status).toBe(403);
      // Nothing refused changed the selection.
      expect(await selectedOf(standard)).toEqual(before);
    });
  });
  describe('getUserNavItems and updateUserNavItems', () => {
    const consoleItems = `/apps/${CONSOLE_ID}/user-nav-items`;
    const namesOf = (body: unknown) => (body as NavItems).navItems.map((item) => item.developerName);
    const arrangement = [
      { id: 'standard-Account' },
      { id: '01r8d0000000001AAA', label: 'Enquiries' },
      { pageReference: { type: 'standard__objectPage', attributes: { objectApiName: 'Contact', actionName: 'home' } } },
      { id: 'standard-account' },
    ];

    it("answers the app's own items before the caller arranges any, and the metadata's arrangement where it has one", async () => {
      for (const [path, expected] of [
        [consoleItems, fileOf('Storefront_Console').navItems],
        [`/apps/${SALES_ID}/user-nav-items`, fileOf('Sales').navItems],
      ] as const) {
        const answer = await get<NavItems>('getUserNavItems', path, admin);
        expect(answer.status).toBe(200);
        expect(namesOf(answer.body)).toEqual(expected);
        expect(answer.headers.get('etag')).toBe(`"${(answer.body as NavItems).eTag}"`);
      }
      const own = await get<NavItems>('getUserNavItems', `/apps/${SALES_ID.slice(0, 15)}/user-nav-items`, standard);
      expect(namesOf(own.body)).toEqual(fileOf('Sales').userNavItems[STANDARD_USER_ID]);
      expect((own.body as NavItems).currentPageUrl).toBe(
        `${UI_API}/apps/${SALES_ID}/user-nav-items?page=0&pageSize=25`,
      );
    });

    it('keeps the order and labels the caller gives, for the caller and the app alone', async () => {
      const put = await send<NavItems>('PUT', 'updateUserNavItems', consoleItems, standard, { navItems: arrangement });
      expect(put.status).toBe(200);
      const expected = ['standard-Account', 'APT_Contact_Us__c', 'standard-Contact'];
      expect(namesOf(put.body)).toEqual(expected);
      expect((put.body as NavItems).navItems[1]).toMatchObject({ label: 'Enquiries', objectLabelPlural: 'Contact Us' });
      expect((put.body as NavItems).navItems[0].label).toBe('Accounts');

      const read = await get<NavItems>('getUserNavItems', consoleItems, standard);
      expect(read.body).toEqual(put.body);
      const app = (await get<App>('getAppDetails', `/apps/${CONSOLE_ID}?userCustomizations=true`, standard))
        .body as App;
      expect(app.userNavItems).toEqual((put.body as NavItems).navItems);
      expect(app.navItems.map((item) => item.developerName)).toEqual(fileOf('Storefront_Console').navItems);
      const apps = (await get<Apps>('getApps', '/apps?userCustomizations=true', standard)).body as Apps;
      expect(apps.apps.find((candidate) => candidate.appId === CONSOLE_ID)!.userNavItems).toEqual(app.userNavItems);

      // Pages of the arrangement.
      const first = (await get<NavItems>('getUserNavItems', `${consoleItems}?pageSize=2`, standard)).body as NavItems;
      expect(first.navItems.map((item) => item.developerName)).toEqual(expected.slice(0, 2));
      expect(first.nextPageUrl).toBe(`${UI_API}${consoleItems}?page=1&pageSize=2`);
      const second = (await get<NavItems>('getUserNavItems', first.nextPageUrl!.slice(UI_API.length), standard))
        .body as NavItems;
      expect(second.navItems.map((item) => item.developerName)).toEqual(expected.slice(2));
      expect(second.nextPageUrl).toBeNull();

      // Another user's items of the app, and the caller's items of another app, are as they were.
      expect(namesOf((await get<NavItems>('getUserNavItems', consoleItems, admin)).body)).toEqual(
        fileOf('Storefront_Console').navItems,
      );
      expect(
        namesOf((await get<NavItems>('getUserNavItems', `/apps/${SALES_ID}/user-nav-items`, standard)).body),
      ).toEqual(fileOf('Sales').userNavItems[STANDARD_USER_ID]);

      // A new arrangement replaces the last one; the home page is named by its page reference.
      const again = await send<NavItems>('PUT', 'updateUserNavItems', consoleItems, standard, {
        navItems: [
          { pageReference: { type: 'standard__namedPage', attributes: { pageName: 'home' } } },
          { id: 'APT_Contact_Us__c' },
        ],
      });
      expect(namesOf(again.body)).toEqual(['standard-home', 'APT_Contact_Us__c']);
      expect((again.body as NavItems).navItems[1].label).toBe('Contact Us');
      expect(namesOf((await get<NavItems>('getUserNavItems', consoleItems, standard)).body)).toEqual([
        'standard-home',
        'APT_Contact_Us__c',
      ]);
    });

    it('refuses items that do not exist or the caller may not use with 400, changing nothing', async () => {
      await send('PUT', 'updateUserNavItems', consoleItems, standard, { navItems: arrangement });
      const before = (await get<NavItems>('getUserNavItems', consoleItems, standard)).body;
      for (const navItems of [
        [{ id: 'standard-Account' }, { id: 'No_Such_Item' }],
        [{ id: '01r8d0000000099AAA' }],
        // The users item is the administrator's only.
        [{ id: 'standard-User' }],
        [
          {
            pageReference: {
              type: 'standard__objectPage',
              attributes: { objectApiName: 'Opportunity', actionName: 'home' },
            },
          },
        ],
        [{ label: 'Nothing named' }],
      ]) {
        const answer = await send('PUT', 'updateUserNavItems', consoleItems, standard, { navItems });
        expect(answer.status, JSON.stringify(navItems)).toBe(400);
        expect((answer.body as ErrorList)[0]).toMatchObject({ errorCode: 'INVALID_INPUT' });
      }
      for (const body of [
        {},
        { navItems: [{ id: 'standard-Account', colour: 'red' }] },
        { navItems: 'standard-Account' },
      ]) {
        const answer = await send('PUT', 'updateUserNavItems', consoleItems, standard, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
      }
      // The administration app's navigation may not be personalized.
      const fixed = await send('PUT', 'updateUserNavItems', `/apps/${ADMINISTRATION_ID}/user-nav-items`, admin, {
        navItems: [{ id: 'standard-User' }],
      });
      expect(fixed.status).toBe(400);
      expect((fixed.body as ErrorList)[0].errorCode).toBe('INVALID_INPUT');
      expect((await get<NavItems>('getUserNavItems', consoleItems, standard)).body).toEqual(before);
      expect(
        namesOf((await get<NavItems>('getUserNavItems', `/apps/${ADMINISTRATION_ID}/user-nav-items`, admin)).body),
      ).toEqual(fileOf('Store_Administration').navItems);
    });

    it('answers unknown apps 404, bad input 400, a guest 401', async () => {
      for (const path of ['/apps/02u8d0000000099AAA/user-nav-items', `/apps/${ADMINISTRATION_ID}/user-nav-items`]) {
        const read = await get('getUserNavItems', path, standard);
        expect(read.status, path).toBe(404);
        expect(read.body).toEqual([{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
        const write = await send('PUT', 'updateUserNavItems', path, standard, { navItems: [] });
        expect(write.status, path).toBe(404);
      }
      for (const path of [
        '/apps/nope/user-nav-items',
        `${consoleItems}?pageSize=0`,
        `${consoleItems}?formFactor=Huge`,
      ]) {
        expect((await get('getUserNavItems', path, standard)).status, path).toBe(400);
      }
      expect((await get('getUserNavItems', consoleItems, null)).status).toBe(401);
      const guest = await send('PUT', 'updateUserNavItems', consoleItems, null, { navItems: [] });
      expect(guest.status).toBe(401);
      expect(guest.body).toEqual(INVALID_SESSION);
    });
  });
});
