/**
 * The back office's entry: the platform-style record UI under /lightning/, for signed-in staff. The server
 * sends its document only to a signed-in user (web/ssr/back-office.ts), with the answers of the screen's first
 * queries; the page renders in the browser alone,
 * on the typed client like the storefront, and never loads the storefront's code, nor the storefront this.
 */
import './styles/index.css';
import { hydrate, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../../../client/index';
import { ApiClientProvider } from '../api-client';
import { QUERY_STATE_ELEMENT_ID } from '../constants';
import { createQueryClient } from '../query-client';
import { App } from './App';
import { revalidateReads } from './fresh-answers';
import { signInHref } from '../../../common/sign-in';
import { invalidSessionMiddleware, onInvalidSession } from '../session/invalid-session';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const api = createApiClient({ baseUrl: '' });
api.use(invalidSessionMiddleware, revalidateReads);
// The back office is for signed-in users only: a session that ends while the page is open (it expired, or the
// user signed out elsewhere) sends the page to the sign-in page, which returns here.
onInvalidSession(() => window.location.assign(signInHref(window.location.pathname, window.location.search)));

// The answers of the screen's first queries, which the server asked for with the document (web/ssr/back-office.ts).
const queryClient = createQueryClient();
const stateElement = document.getElementById(QUERY_STATE_ELEMENT_ID);
if (stateElement?.textContent) hydrate(queryClient, JSON.parse(stateElement.textContent) as DehydratedState);

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiClientProvider client={api}>
        <App />
      </ApiClientProvider>
    </QueryClientProvider>
  </StrictMode>,
);
