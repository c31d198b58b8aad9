/** The app the back office shows, and its tabs: the navigation items that open an object's home. */
import type { components } from '../../../../client/index';
import { objectHomeHref } from '../routes';

type Apps = components['schemas']['AppsRepresentation'];
type App = Apps['apps'][number];

export interface Tab {
  label: string;
  objectApiName: string;
  href: string;
}

/** The user's selected app, else the first the user may use. */
export function selectedApp(apps: Apps): App | undefined {
  return apps.apps.find((app) => app.selected) ?? apps.apps[0];
}

/**
 * The app's tabs that this back office can open: the object pages (standard__objectPage). Other items (the
 * platform's Home, a named page) have no screen here yet.
 */
export function tabsOf(app: App): Tab[] {
  const tabs: Tab[] = [];
  for (const item of app.navItems) {
    const objectApiName = item.pageReference?.attributes?.objectApiName;
    if (item.pageReference?.type !== 'standard__objectPage' || typeof objectApiName !== 'string') continue;
    tabs.push({ label: item.label, objectApiName, href: objectHomeHref(objectApiName) });
  }
  return tabs;
}
