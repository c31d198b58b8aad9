import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { startTransition, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createApiClient } from '../../client/index';
import { SIGN_IN_PATH } from '../../common/sign-in';
import { QUERY_STATE_ELEMENT_ID } from './constants';
import { invalidSessionMiddleware } from './session/invalid-session';
import { createQueryClient } from './query-client';
import { Root } from './Root';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// The server renders the page and embeds the queries it ran; the Vite dev server (npm run dev:mock)
// sends an empty #root and no state, and the page renders in the browser alone.
const stateElement = document.getElementById(QUERY_STATE_ELEMENT_ID);
const dehydratedState = stateElement?.textContent
  ? (JSON.parse(stateElement.textContent) as DehydratedState)
  : undefined;

const api = createApiClient({ baseUrl: '' });
api.use(invalidSessionMiddleware);

/**
 * The page in place of the app at this address, if any: the sign-in page, whose code is loaded here only (the
 * server renders it the same way, web/ssr/render.tsx), so that the Contact Us page's visitors do not load it.
 */
async function pageHere(): Promise<ReactNode> {
  if (window.location.pathname !== SIGN_IN_PATH) return undefined;
  const { SignInPage } = await import('./login/SignInPage');
  return <SignInPage />;
}

function start(root: HTMLElement, here: ReactNode) {
  const queryClient = createQueryClient();
  // The server's queries, in the client before the first render: the page renders with the same data.
  if (dehydratedState) hydrate(queryClient, dehydratedState);
  const page = <Root queryClient={queryClient} api={api} page={here} />;
  if (dehydratedState && root.firstElementChild) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding the main
    // thread for the whole tree: the page, already painted from the server's HTML, stays responsive meanwhile
    // (an input during hydration hydrates its part first).
    startTransition(() => {
      hydrateRoot(root, page, {
        onRecoverableError: (error, info) => console.error('Hydration failed:', error, info.componentStack ?? ''),
      });
    });
  } else {
    createRoot(root).render(page);
  }
}

void pageHere().then((here) => start(container, here));
