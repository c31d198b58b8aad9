/**
 * The page's hidden regions (docs/product-spec.md §2): nothing on screen, everything for the page's neighbours.
 * - The view-change notifier: a `viewchange` CustomEvent on window once the page has hydrated and again
 *   whenever its address changes (filters, paging, back and forward).
 * - The page data layer: an entry pushed onto window.dataLayer for the same moments, describing the page
 *   and the visitor (guest or user), for tag managers and analytics.
 * The search-engine assistant is the server's part: the head of the first HTML (web/ssr/seo-head.ts).
 * The session validator is SessionProvider's (session/), loaded for signed-in users only.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from '../location';
import { PAGE } from '../page-config';
import { useUserData, type UserData } from '../user-data';

export const VIEW_CHANGE_EVENT = 'viewchange';

export interface ViewChangeDetail {
  view: string;
  recordId: string;
  /** The page's address: path and query. */
  url: string;
}

export interface PageDataLayerEntry {
  event: 'pageView';
  page: {
    name: string;
    view: string;
    type: 'namedPage';
    recordId: string;
    url: string;
    locale: string;
    direction: string;
  };
  user: { type: 'guest' } | { type: 'user'; id: string };
}

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
  interface WindowEventMap {
    [VIEW_CHANGE_EVENT]: CustomEvent<ViewChangeDetail>;
  }
}

export function pageDataLayerEntry(url: string, user: UserData): PageDataLayerEntry {
  return {
    event: 'pageView',
    page: {
      name: PAGE.title,
      view: PAGE.view,
      type: 'namedPage',
      recordId: PAGE.recordId,
      url,
      locale: PAGE.locale,
      direction: PAGE.direction,
    },
    user: user.isGuest ? { type: 'guest' } : { type: 'user', id: user.userId },
  };
}

export function HiddenRegions() {
  const { pathname, search } = useLocation();
  const user = useUserData();
  const url = pathname + search;
  // Once per address: effects run twice on mount in development (StrictMode); the ref survives that.
  const announced = useRef<string | null>(null);

  useEffect(() => {
    if (announced.current === url) return;
    announced.current = url;
    (window.dataLayer ??= []).push(pageDataLayerEntry(url, user));
    const detail: ViewChangeDetail = { view: PAGE.view, recordId: PAGE.recordId, url };
    window.dispatchEvent(new CustomEvent(VIEW_CHANGE_EVENT, { detail }));
  }, [url, user]);

  return null;
}
