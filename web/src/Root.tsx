/**
 * The providers around the page, the same on the server and in the browser so that hydration sees the
 * same tree: the query client with the server's dehydrated queries, the API client, the request URL, the
 * visitor.
 */
import { HydrationBoundary, QueryClientProvider, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import type { ApiClient } from '../../client/index';
import { ApiClientProvider } from './api-client';
import { App } from './App';
import { LocationProvider } from './location';
import { GUEST, UserDataProvider, type UserData } from './user-data';

interface RootProps {
  queryClient: QueryClient;
  api: ApiClient;
  dehydratedState?: DehydratedState;
  /** On the server, the URL being rendered; in the browser, undefined (window.location is read). */
  requestUrl?: string;
  /** The visitor (product spec §2 user data provider); a guest until there are sessions. */
  user?: UserData;
}

export function Root({ queryClient, api, dehydratedState, requestUrl, user = GUEST }: RootProps) {
  return (
    <StrictMode>
      <LocationProvider value={requestUrl ? { href: requestUrl } : null}>
        <UserDataProvider value={user}>
          <QueryClientProvider client={queryClient}>
            <HydrationBoundary state={dehydratedState}>
              <ApiClientProvider client={api}>
                <App />
              </ApiClientProvider>
            </HydrationBoundary>
          </QueryClientProvider>
        </UserDataProvider>
      </LocationProvider>
    </StrictMode>
  );
}
