/**
 * GET /apps, /apps/selected, /apps/{appId} and /nav-items: the apps and navigation items the caller's profile
 * may use, from the org metadata (definitions.ts). Opening an app (GET /apps/{appId}) or selecting it (PATCH
 * /apps/{appId}) makes it the caller's selected app, kept per user in the database; until then the first app
 * the caller may use is selected.
 */
import type { Schemas } from '../../../generated/types.ts';
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type OrgDescribe } from '../describe.ts';
import { notFound } from '../errors.ts';
import { etagOf } from '../etag.ts';
import { toId18 } from '../ids.ts';
import { objectPermissions, type Principal } from '../principal.ts';
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
    label: item.label ?? object?.definition.labelPlural ?? item.developerName,
    objectApiName: object?.apiName ?? '',
    objectLabel: object?.definition.label ?? null,
    objectLabelPlural: object?.definition.labelPlural ?? null,
    pageReference: item.pageReference === undefined ? objectPage : item.pageReference,
    standardType: item.standardType ?? null,
  };
}

/** The items named, that the caller may see on the form factor, in the order named. */
function itemsNamed(
  principal: Principal,
  org: OrgDescribe,
  names: string[],
  formFactor: FormFactor | undefined,
): Schemas['NavItemRepresentation'][] {
  const { navItems } = appMetadata();
  return names
    .map((name) => navItems.find((item) => item.developerName === name))
    .filter((item): item is NavItemDefinition => item !== undefined && itemVisible(principal, org, item, formFactor))
    .map((item) => navItemRepresentation(item, org));
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
): Schemas['AppRepresentation'] {
  const own = query.userCustomizations ? app.userNavItems[principal.userId] : undefined;
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
    userNavItems: own && !app.isNavPersonalizationDisabled ? itemsNamed(principal, org, own, query.formFactor) : [],
  });
}

/** GET /apps. */
export async function getApps(
  db: Queryable,
  principal: Principal,
  query: AppQuery,
): Promise<Schemas['AppsRepresentation']> {
  const org = await describeOrg(db);
  const selectedId = await selectedAppId(db, principal);
  const apps = appMetadata()
    .apps.filter((app) => appVisible(principal, app, query.formFactor))
    .map((app) => appRepresentation(principal, org, app, selectedId, query));
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
  return appRepresentation(principal, await describeOrg(db), app, app.appId, query);
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
  );
}

interface NavItemsQuery {
  formFactor?: FormFactor;
  navItemNames?: string;
  page?: number;
  pageSize?: number;
}

/** The URL of a page of nav items: the query parameters in alphabetical order, commas as %2C. */
function navItemsUrl(query: NavItemsQuery, page: number, pageSize: number): string {
  const params: [string, string][] = [];
  if (query.formFactor) params.push(['formFactor', query.formFactor]);
  if (query.navItemNames) params.push(['navItemNames', query.navItemNames]);
  params.push(['page', String(page)], ['pageSize', String(pageSize)]);
  return `${UI_API_PATH}/nav-items?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

/** GET /nav-items: a page of the items the caller may use, optionally only those named (names it may not see are left out). */
export async function getNavItems(
  db: Queryable,
  principal: Principal,
  query: NavItemsQuery,
): Promise<Schemas['NavItemsRepresentation']> {
  const org = await describeOrg(db);
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? 25;
  const names = query.navItemNames
    ? [...new Set(query.navItemNames.split(','))]
    : appMetadata().navItems.map((item) => item.developerName);
  const items = itemsNamed(principal, org, names, query.formFactor);
  const start = page * pageSize;
  return withETag({
    currentPageUrl: navItemsUrl(query, page, pageSize),
    navItems: items.slice(start, start + pageSize),
    nextPageUrl: start + pageSize < items.length ? navItemsUrl(query, page + 1, pageSize) : null,
  });
}
