/**
 * The frame of every back-office screen: a skip link, the header with the app launcher, the selected app's
 * name and its tabs (getSelectedApp, with the user's own arrangement of its items), the search box, and the
 * main landmark the screen fills.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getSelectedAppQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { SearchBox } from '../search/SearchBox';
import { AppLauncher } from './AppLauncher';
import { SELECTED_APP_INPUT, tabsOf } from './apps';

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
  const selected = useQuery(getSelectedAppQuery(api, SELECTED_APP_INPUT));
  const app = selected.data;
  const tabs = app ? tabsOf(app) : [];
  return (
    <>
      <a className="bo-skip" href="#main">
        Skip to content
      </a>
      <header className="bo-header">
        <AppLauncher selectedAppId={app?.appId} />
        <p className="bo-header__app">{app?.label ?? 'Back office'}</p>
        <nav className="bo-tabs" aria-label="Tabs">
          {selected.isError ? (
            <p className="bo-tabs__error">The tabs could not be loaded.</p>
          ) : (
            <ul className="bo-tabs__list">
              {tabs.map((tab) => (
                <li key={tab.key}>
                  {tab.objectApiName ? (
                    <PageLink
                      className="bo-tabs__tab"
                      href={tab.href}
                      aria-current={tab.objectApiName === currentObject ? 'page' : undefined}
                    >
                      {tab.label}
                    </PageLink>
                  ) : (
                    <a className="bo-tabs__tab" href={tab.href}>
                      {tab.label}
                    </a>
                  )}
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
