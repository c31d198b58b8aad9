/**
 * The providers around the page, the same on the server and in the browser so that hydration sees the
 * same tree: the query client (on the server with the queries it ran, in the browser with the same queries
 * hydrated from the page, main.tsx), the API client, the request URL, the visitor's session (from the
 * getSession answer).
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import type { ApiClient } from '../../client/index';
import { ApiClientProvider } from './api-client';
import { App } from './App';
import { LocationProvider } from './location';
import { ServerMarkupProvider, type ServerMarkup } from './server-markup';
import { SessionProvider } from './session/SessionProvider';

interface RootProps {
  queryClient: QueryClient;
  api: ApiClient;
  /** On the server, the URL being rendered; in the browser, undefined (window.location is read). */
  requestUrl?: string;
  /** On the server, the markup only it makes (<noscript> content); in the browser, undefined. */
  serverMarkup?: ServerMarkup;
  /**
   * A page in place of the app: on the server, one rendered there alone (a representative's page) or the sign-in
   * page; in the browser, the sign-in page, whose code main.tsx loads at its address only.
   */
  page?: ReactNode;
}

export function Root({ queryClient, api, requestUrl, serverMarkup, page }: RootProps) {
  return (
    <StrictMode>
      <LocationProvider value={requestUrl ? { href: requestUrl } : null}>
        <QueryClientProvider client={queryClient}>
          <ApiClientProvider client={api}>
            <ServerMarkupProvider value={serverMarkup ?? null}>
              <SessionProvider>{page ?? <App />}</SessionProvider>
            </ServerMarkupProvider>
          </ApiClientProvider>
        </QueryClientProvider>
      </LocationProvider>
    </StrictMode>
  );
}
