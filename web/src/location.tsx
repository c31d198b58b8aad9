/**
 * The page's URL as React state, the same on the server and in the browser: on the server the request's
 * URL (from LocationProvider), in the browser window.location, updated by navigate() and by back and
 * forward. Hydration reads the server snapshot, which in the browser is the address the page came from.
 */
import { createContext, useContext, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const NAVIGATE_EVENT = 'storefront:navigate';

interface ServerLocation {
  /** The absolute URL of the request being rendered. */
  href: string;
}

const ServerLocationContext = createContext<ServerLocation | null>(null);

export const LocationProvider = ServerLocationContext.Provider;

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

const browserPath = () => window.location.pathname + window.location.search;

export interface PageLocation {
  pathname: string;
  /** '?…' or ''. */
  search: string;
  /** The site's host (host:port), against which links are checked. */
  host: string;
}

export function useLocation(): PageLocation {
  const server = useContext(ServerLocationContext);
  const serverUrl = server ? new URL(server.href) : null;
  const path = useSyncExternalStore(subscribe, browserPath, () =>
    serverUrl ? serverUrl.pathname + serverUrl.search : browserPath(),
  );
  const [pathname, query = ''] = splitPath(path);
  return { pathname, search: query ? `?${query}` : '', host: serverUrl?.host ?? window.location.host };
}

function splitPath(path: string): [string, string?] {
  const at = path.indexOf('?');
  return at === -1 ? [path] : [path.slice(0, at), path.slice(at + 1)];
}

/** Goes to another address of this page without reloading it: a new history entry, then a re-render. */
export function navigate(href: string): void {
  window.history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** Corrects the address of what the page shows, in place: no new history entry (Back skips the wrong one). */
export function replaceLocation(href: string): void {
  window.history.replaceState(window.history.state, '', href);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** A plain click: not with a modifier key (new tab, new window), not another button. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

interface PageLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  /** Called after a client-side navigation (not when the browser follows the link itself). */
  onNavigate?: () => void;
}

/**
 * A real link (it works without JavaScript, opens in a new tab, can be copied) to another address of this
 * page; a plain click changes the address in place.
 */
export function PageLink({ href, onNavigate, onClick, ...rest }: PageLinkProps) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainClick(event)) return;
        event.preventDefault();
        navigate(href);
        onNavigate?.();
      }}
    />
  );
}
