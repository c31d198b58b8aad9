/**
 * GET /apps, /apps/selected, /apps/{appId} and /nav-items: the apps and navigation items the caller's profile
 * may use, from the org metadata (definitions.ts). Opening an app (GET /apps/{appId}) or selecting it (PATCH
 * /apps/{appId}) makes it the caller's selected app, kept per user in the database; until then the first app
 * the caller may use is selected.
 */
import type { Schemas } from '../../../generated/types.ts';
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type OrgDescribe } from '../core/describe.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { etagOf } from '../core/etag.ts';
import { toId18 } from '../core/ids.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { appMetadata, type AppDefinition, type FormFactor, type NavItemDefinition } from './definitions.ts';

interface AppQuery {
  formFactor?: FormFactor;
  userCustomizations?: boolean;
}

const withETag = <T extends object>(value: T): T & { eTag: string } => ({ ...value, eTag: etagOf(value) });

function itemVisible(
  principal: Principal,
  org: OrgDescribe,
  item: NavItemDefinition,
  formFactor: FormFactor | undefined,
): boolean {
  if (item.profiles && !item.profiles.includes(principal.profile.name)) return false;
  if (formFactor && item.formFactors && !item.formFactors.includes(formFactor)) return false;
  if (item.objectApiName)
    return org.objects.has(item.objectApiName) && objectPermissions(principal, item.objectApiName).read;
  return true;
}

const appVisible = (principal: Principal, app: AppDefinition, formFactor?: FormFactor) =>
  app.profiles.includes(principal.profile.name) && (!formFactor || app.formFactors.includes(formFactor));

/** The navigation item of a developer name, when the caller may use it (on any form factor). */
export function usableNavItem(
  principal: Principal,
  org: OrgDescribe,
  developerName: string,
): NavItemDefinition | undefined {
  const item = appMetadata().navItems.find((candidate) => candidate.developerName === developerName);
  return item && itemVisible(principal, org, item, undefined) ? item : undefined;
}

/** An item's label: its own, else its object's plural label. */
export const navItemLabel = (item: NavItemDefinition, org: OrgDescribe): string =>
  item.label ??
  (item.objectApiName ? org.objects.get(item.objectApiName)?.definition.labelPlural : undefined) ??
  item.developerName;

function navItemRepresentation(item: NavItemDefinition, org: OrgDescribe): Schemas['NavItemRepresentation'] {
  const object = item.objectApiName ? org.objects.get(item.objectApiName) : undefined;
  const objectPage = object
    ? { type: 'standard__objectPage', attributes: { objectApiName: object.apiName, actionName: 'home' }, state: {} }
    : null;
  return {
    availableInClassic: true,
    availableInLightning: true,
    color: item.color,
    content: item.content ?? null,
    custom: item.custom,
    developerName: item.developerName,
    iconUrl: item.iconUrl,
    id: item.id ?? null,
    itemType: item.itemType,
    label: navItemLabel(item, org),
    objectApiName: object?.apiName ?? '',
    objectLabel: object?.definition.label ?? null,
    objectLabelPlural: object?.definition.labelPlural ?? null,
    pageReference: item.pageReference === undefined ? objectPage : item.pageReference,
    standardType: item.standardType ?? null,
  };
}

/** One item of a user's own arrangement: the item's developer name, and the user's own label for it. */
interface ArrangedItem {
  name: string;
  label?: string;
}

/** The items arranged, that the caller may see on the form factor, in the order arranged, with the caller's labels. */
function itemsArranged(
  principal: Principal,
  org: OrgDescribe,
  arranged: ArrangedItem[],
  formFactor: FormFactor | undefined,
): Schemas['NavItemRepresentation'][] {
  const { navItems } = appMetadata();
  return arranged.flatMap(({ name, label }) => {
    const item = navItems.find((candidate) => candidate.developerName === name);
    if (!item || !itemVisible(principal, org, item, formFactor)) return [];
    const representation = navItemRepresentation(item, org);
    return [label ? { ...representation, label } : representation];
  });
}

/** The items named, that the caller may see on the form factor, in the order named. */
const itemsNamed = (principal: Principal, org: OrgDescribe, names: string[], formFactor: FormFactor | undefined) =>
  itemsArranged(
    principal,
    org,
    names.map((name) => ({ name })),
    formFactor,
  );

/**
 * The caller's own arrangements of the apps' items, by app id: the ones it made (PUT user-nav-items), else the
 * app metadata's arrangement for it. An app whose navigation may not be personalized has none.
 */
async function ownArrangements(db: Queryable, principal: Principal): Promise<Map<string, ArrangedItem[]>> {
  const { rows } = await db.query<{ app_id: string; nav_items: ArrangedItem[] }>(
    'SELECT app_id, nav_items FROM app_user_nav_items WHERE user_id = $1',
    [principal.userId],
  );
  const stored = new Map(rows.map((row) => [row.app_id, row.nav_items]));
  const arrangements = new Map<string, ArrangedItem[]>();
  for (const app of appMetadata().apps) {
    if (app.isNavPersonalizationDisabled) continue;
    const fromFile = app.userNavItems[principal.userId]?.map((name) => ({ name }));
    const own = stored.get(app.appId) ?? fromFile;
    if (own) arrangements.set(app.appId, own);
  }
  return arrangements;
}

/** The id of the caller's selected app: the one it last opened, if it may still use it, else its first app. */
async function selectedAppId(db: Queryable, principal: Principal): Promise<string | undefined> {
  const usable = appMetadata().apps.filter((app) => appVisible(principal, app));
  const { rows } = await db.query<{ app_id: string }>('SELECT app_id FROM app_selection WHERE user_id = $1', [
    principal.userId,
  ]);
  return (usable.find((app) => app.appId === rows[0]?.app_id) ?? usable[0])?.appId;
}

function appRepresentation(
  principal: Principal,
  org: OrgDescribe,
  app: AppDefinition,
  selectedId: string | undefined,
  query: AppQuery,
  arrangements: Map<string, ArrangedItem[]>,
): Schemas['AppRepresentation'] {
  const own = query.userCustomizations ? arrangements.get(app.appId) : undefined;
  return withETag({
    appId: app.appId,
    description: app.description,
    developerName: app.developerName,
    formFactors: app.formFactors,
    headerColor: app.headerColor,
    iconUrl: app.iconUrl,
    isNavAutoTempTabsDisabled: app.isNavAutoTempTabsDisabled,
    isNavPersonalizationDisabled: app.isNavPersonalizationDisabled,
    isNavTabPersistenceDisabled: app.isNavTabPersistenceDisabled,
    label: app.label,
    logoUrl: app.logoUrl,
    mobileStartUrl: app.mobileStartUrl,
    navItems: itemsNamed(principal, org, app.navItems, query.formFactor),
    selected: app.appId === selectedId,
    startUrl: app.startUrl,
    type: app.type,
    userNavItems: own ? itemsArranged(principal, org, own, query.formFactor) : [],
  });
}

/** The caller's arrangements when the answer shows them (userCustomizations), else none, without reading them. */
const arrangementsFor = async (db: Queryable, principal: Principal, query: AppQuery) =>
  query.userCustomizations ? ownArrangements(db, principal) : new Map<string, ArrangedItem[]>();

/** GET /apps. */
export async function getApps(
  db: Queryable,
  principal: Principal,
  query: AppQuery,
): Promise<Schemas['AppsRepresentation']> {
  const org = await describeOrg(db);
  const selectedId = await selectedAppId(db, principal);
  const arrangements = await arrangementsFor(db, principal, query);
  const apps = appMetadata()
    .apps.filter((app) => appVisible(principal, app, query.formFactor))
    .map((app) => appRepresentation(principal, org, app, selectedId, query, arrangements));
  return withETag({ apps });
}

/** The app of an id (15 or 18 characters) the caller may use on the form factor; 404 otherwise. */
function usableApp(principal: Principal, appId: string, formFactor: FormFactor | undefined): AppDefinition {
  const id = toId18(appId);
  const app = appMetadata().apps.find((candidate) => candidate.appId === id);
  if (!app || !appVisible(principal, app, formFactor)) throw notFound();
  return app;
}

/**
 * GET /apps/{appId} and PATCH /apps/{appId}: the app, which becomes the caller's selected app, kept for the
 * caller alone.
 */
export async function selectApp(
  db: Queryable,
  principal: Principal,
  appId: string,
  query: AppQuery,
): Promise<Schemas['AppRepresentation']> {
  const app = usableApp(principal, appId, query.formFactor);
  await db.query(
    `INSERT INTO app_selection (user_id, app_id, selected_at) VALUES ($1, $2, now())
     ON CONFLICT (user_id) DO UPDATE SET app_id = EXCLUDED.app_id, selected_at = EXCLUDED.selected_at`,
    [principal.userId, app.appId],
  );
  return appRepresentation(
    principal,
    await describeOrg(db),
    app,
    app.appId,
    query,
    await arrangementsFor(db, principal, query),
  );
}

/** GET /apps/selected: the caller's selected app. */
export async function getSelectedApp(
  db: Queryable,
  principal: Principal,
  query: AppQuery,
): Promise<Schemas['AppRepresentation']> {
  const selectedId = await selectedAppId(db, principal);
  if (!selectedId) throw notFound();
  return appRepresentation(
    principal,
    await describeOrg(db),
    usableApp(principal, selectedId, undefined),
    selectedId,
    query,
    await arrangementsFor(db, principal, query),
  );
}

interface NavItemsQuery {
  formFactor?: FormFactor;
  navItemNames?: string;
  page?: number;
  pageSize?: number;
}

/** The URL of a page of nav items: the query parameters in alphabetical order, commas as %2C. */
function navItemsUrl(path: string, query: NavItemsQuery, page: number, pageSize: number): string {
  const params: [string, string][] = [];
  if (query.formFactor) params.push(['formFactor', query.formFactor]);
  if (query.navItemNames) params.push(['navItemNames', query.navItemNames]);
  params.push(['page', String(page)], ['pageSize', String(pageSize)]);
  return `${UI_API_PATH}${path}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

/** One page of items, with the URLs of this page and the next. */
function navItemsPage(
  path: string,
  items: Schemas['NavItemRepresentation'][],
  query: NavItemsQuery,
): Schemas['NavItemsRepresentation'] {
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? 25;
  const start = page * pageSize;
  return withETag({
    currentPageUrl: navItemsUrl(path, query, page, pageSize),
    navItems: items.slice(start, start + pageSize),
    nextPageUrl: start + pageSize < items.length ? navItemsUrl(path, query, page + 1, pageSize) : null,
  });
}

/** GET /nav-items: a page of the items the caller may use, optionally only those named (names it may not see are left out). */
export async function getNavItems(
  db: Queryable,
  principal: Principal,
  query: NavItemsQuery,
): Promise<Schemas['NavItemsRepresentation']> {
  const org = await describeOrg(db);
  const names = query.navItemNames
    ? [...new Set(query.navItemNames.split(','))]
    : appMetadata().navItems.map((item) => item.developerName);
  return navItemsPage('/nav-items', itemsNamed(principal, org, names, query.formFactor), query);
}

type UserNavItemsQuery = Omit<NavItemsQuery, 'navItemNames'>;

/** The caller's items of an app, arranged: its own arrangement, else the app's items. */
async function userNavItems(
  db: Queryable,
  principal: Principal,
  app: AppDefinition,
  query: UserNavItemsQuery,
): Promise<Schemas['NavItemsRepresentation']> {
  const own = (await ownArrangements(db, principal)).get(app.appId);
  const arranged = own ?? app.navItems.map((name) => ({ name }));
  const items = itemsArranged(principal, await describeOrg(db), arranged, query.formFactor);
  return navItemsPage(`/apps/${app.appId}/user-nav-items`, items, query);
}

/** GET /apps/{appId}/user-nav-items: a page of the caller's items of an app the caller may use. */
export async function getUserNavItems(
  db: Queryable,
  principal: Principal,
  appId: string,
  query: UserNavItemsQuery,
): Promise<Schemas['NavItemsRepresentation']> {
  return userNavItems(db, principal, usableApp(principal, appId, query.formFactor), query);
}

type NavItemInput = Schemas['NavItemInputRepresentation'];

/** Whether a page reference asked for is the item's: the same type and the same attributes (state aside). */
function samePage(
  given: NonNullable<NavItemInput['pageReference']>,
  own: Schemas['NavItemRepresentation']['pageReference'],
): boolean {
  if (!own || own.type !== given.type) return false;
  const attributes = given.attributes ?? {};
  const ownKeys = Object.keys(own.attributes);
  return (
    ownKeys.length === Object.keys(attributes).length &&
    ownKeys.every((key) => String(own.attributes[key]) === attributes[key])
  );
}

/** The item an input names, by id (tab id or developer name) or page reference, if the caller may use it. */
function itemOfInput(principal: Principal, org: OrgDescribe, input: NavItemInput): NavItemDefinition | undefined {
  const visible = appMetadata().navItems.filter((item) => itemVisible(principal, org, item, undefined));
  if (input.id !== undefined) {
    const id = input.id;
    const id18 = toId18(id);
    return visible.find(
      (item) =>
        (item.id && (item.id === id || item.id === id18)) || item.developerName.toLowerCase() === id.toLowerCase(),
    );
  }
  if (input.pageReference)
    return visible.find((item) => samePage(input.pageReference!, navItemRepresentation(item, org).pageReference));
  return undefined;
}

/**
 * PUT /apps/{appId}/user-nav-items: the caller's items of the app become the ones given, in their order (an
 * item named twice keeps its first place), with the caller's labels. Every item must be one the caller may use,
 * and the app's navigation must be open to personalization; otherwise 400, and nothing changes.
 */
export async function updateUserNavItems(
  db: Queryable,
  principal: Principal,
  appId: string,
  input: Schemas['NavItemsInputRepresentation'],
  query: UserNavItemsQuery,
): Promise<Schemas['NavItemsRepresentation']> {
  const app = usableApp(principal, appId, query.formFactor);
  if (app.isNavPersonalizationDisabled)
    throw new PlatformError(
      400,
      'INVALID_INPUT',
      `The navigation items of the app ${app.developerName} may not be personalized`,
    );
  const org = await describeOrg(db);
  const arranged: ArrangedItem[] = [];
  input.navItems.forEach((given, index) => {
    if (given.id === undefined && given.pageReference === undefined)
      throw new PlatformError(400, 'INVALID_INPUT', `navItems[${index}]: give the item's id or its pageReference`);
    const item = itemOfInput(principal, org, given);
    if (!item) {
      const named = given.id ?? JSON.stringify(given.pageReference);
      throw new PlatformError(400, 'INVALID_INPUT', `navItems[${index}]: no navigation item ${named} that you may use`);
    }
    if (arranged.some((other) => other.name === item.developerName)) return;
    arranged.push(
      given.label === undefined ? { name: item.developerName } : { name: item.developerName, label: given.label },
    );
  });
  await db.query(
    `INSERT INTO app_user_nav_items (user_id, app_id, nav_items, updated_at) VALUES ($1, $2, $3::jsonb, now())
     ON CONFLICT (user_id, app_id) DO UPDATE SET nav_items = EXCLUDED.nav_items, updated_at = EXCLUDED.updated_at`,
    [principal.userId, app.appId, JSON.stringify(arranged)],
  );
  return userNavItems(db, principal, app, { formFactor: query.formFactor });
}
