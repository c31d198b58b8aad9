/**
 * The app the back office shows, and its tabs. The selected app is getSelectedApp's, asked with the user's own
 * arrangement of its items (userCustomizations): the platform shows that arrangement when the user has one,
 * else the app's navigation items. A tab is an item this back office can open: an object's home, or a web page.
 */
import type { components } from '../../../../client/index';
import { objectHomeHref } from '../routes';

type App = components['schemas']['AppRepresentation'];
type NavItem = App['navItems'][number];

/** The form factor of the back office's screens, and the user's own tabs: how it asks for apps. */
export const SELECTED_APP_INPUT = { query: { formFactor: 'Large', userCustomizations: true } } as const;
export const APPS_INPUT = { query: { formFactor: 'Large' } } as const;

export interface Tab {
  /** The navigation item's developer name: unique within an app. */
  key: string;
  label: string;
  href: string;
  /** The object whose home the tab opens; undefined for a web page, which opens outside the back office. */
  objectApiName?: string;
}

/** A web page's URL the back office links to: on this site (a path), or http(s); anything else is not a link. */
function safeUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  return /^https?:\/\//i.test(url) ? url : undefined;
}

function tabOf(item: NavItem): Tab | undefined {
  const reference = item.pageReference;
  const key = item.developerName;
  if (reference?.type === 'standard__objectPage') {
    const objectApiName = reference.attributes?.objectApiName;
    if (typeof objectApiName !== 'string') return undefined;
    return { key, label: item.label, objectApiName, href: objectHomeHref(objectApiName) };
  }
  if (reference?.type === 'standard__webPage') {
    const href = safeUrl(reference.attributes?.url);
    return href ? { key, label: item.label, href } : undefined;
  }
  // Other items (the platform's Home, a named page) have no screen here yet.
  return undefined;
}

/** The app's tabs: the user's own arrangement when it has one, else the app's items; those this back office can open. */
export function tabsOf(app: App): Tab[] {
  const items = app.userNavItems.length > 0 ? app.userNavItems : app.navItems;
  return items.flatMap((item) => tabOf(item) ?? []);
}

/** The first tab that opens a screen of the back office: where opening the app goes. */
export function firstScreenOf(app: App): string | undefined {
  return tabsOf(app).find((tab) => tab.objectApiName)?.href;
}
