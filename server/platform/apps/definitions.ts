/**
 * Apps and navigation items as org metadata (metadata/apps): each app's file names the profiles that may use
 * it, its navigation items and the users' own arrangements of them; nav-items.json defines the items. Read
 * once. An item of an object is shown only to callers whose profile may read the object.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const APPS_DIR = resolve(import.meta.dirname, '../metadata/apps');
const NAV_ITEMS_FILE = 'nav-items.json';

export type FormFactor = 'Large' | 'Medium' | 'Small';

export interface NavItemDefinition {
  developerName: string;
  /** Absent for an object's item: the object's plural label. */
  label?: string;
  itemType: string;
  objectApiName?: string;
  standardType?: string | null;
  custom: boolean;
  color: string;
  iconUrl: string;
  id?: string | null;
  content?: string | null;
  /** Absent for an object's item: the object's home page. */
  pageReference?: { type: string; attributes: Record<string, unknown>; state: Record<string, unknown> } | null;
  /** The form factors the item is shown on; absent, every one. */
  formFactors?: FormFactor[];
  /** Only these profiles see the item (besides the object's read permission); absent, every profile. */
  profiles?: string[];
}

export interface AppDefinition {
  appId: string;
  developerName: string;
  label: string;
  description: string;
  formFactors: FormFactor[];
  headerColor: string;
  iconUrl: string;
  logoUrl: string;
  startUrl: string;
  mobileStartUrl: string | null;
  type: string;
  isNavAutoTempTabsDisabled: boolean;
  isNavPersonalizationDisabled: boolean;
  isNavTabPersistenceDisabled: boolean;
  /** The profiles (by name) whose users may use the app. */
  profiles: string[];
  /** The app's items, by developer name, in order. */
  navItems: string[];
  /** A user's own arrangement of the items, by user id. */
  userNavItems: Record<string, string[]>;
}

interface AppMetadata {
  /** In the order of the app launcher. */
  apps: AppDefinition[];
  navItems: NavItemDefinition[];
}

let metadata: AppMetadata | undefined;

const APP_ORDER = ['Storefront_Console', 'Sales', 'Store_Administration'];

export function appMetadata(): AppMetadata {
  if (metadata) return metadata;
  const read = (name: string) => JSON.parse(readFileSync(resolve(APPS_DIR, name), 'utf8')) as unknown;
  const navItems = (read(NAV_ITEMS_FILE) as { navItems: NavItemDefinition[] }).navItems;
  const rank = (app: AppDefinition) =>
    APP_ORDER.includes(app.developerName) ? APP_ORDER.indexOf(app.developerName) : APP_ORDER.length;
  const apps = readdirSync(APPS_DIR)
    .filter((name) => name.endsWith('.json') && name !== NAV_ITEMS_FILE)
    .sort()
    .map((name) => read(name) as AppDefinition)
    .sort((a, b) => rank(a) - rank(b));
  for (const app of apps) {
    for (const name of [...app.navItems, ...Object.values(app.userNavItems).flat()]) {
      if (!navItems.some((item) => item.developerName === name))
        throw new Error(`App ${app.developerName} names no navigation item ${name}`);
    }
  }
  metadata = { apps, navItems };
  return metadata;
}
