/**
 * The frame of every back-office screen: a skip link, the header with the app's name and its tabs (the
 * selected app of getApps, whose navigation items are the tabs) and the search box, and the main landmark the
 * screen fills.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getAppsQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { SearchBox } from '../search/SearchBox';
import { selectedApp, tabsOf } from './apps';

export function Shell({
  currentObject,
  searchTerm,
  children,
}: {
  currentObject?: string;
  /** The term of the search results shown, for the search box. */
  searchTerm?: string;
  children: ReactNode;
}) {
  const api = useApiClient();
  const apps = useQuery(getAppsQuery(api, { query: { formFactor: 'Large' } }));
  const app = apps.data ? selectedApp(apps.data) : undefined;
  const tabs = app ? tabsOf(app) : [];
  return (
    <>
      <a className="bo-skip" href="#main">
        Skip to content
      </a>
      <header className="bo-header">
        <p className="bo-header__app">{app?.label ?? 'Back office'}</p>
        <nav className="bo-tabs" aria-label="Tabs">
          {apps.isError ? (
            <p className="bo-tabs__error">The tabs could not be loaded.</p>
          ) : (
            <ul className="bo-tabs__list">
              {tabs.map((tab) => (
                <li key={tab.objectApiName}>
                  <PageLink
                    className="bo-tabs__tab"
                    href={tab.href}
                    aria-current={tab.objectApiName === currentObject ? 'page' : undefined}
                  >
                    {tab.label}
                  </PageLink>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <SearchBox currentTerm={searchTerm} />
        <a className="bo-header__storefront" href="/">
          Storefront
        </a>
      </header>
      <main id="main" className="bo-main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
