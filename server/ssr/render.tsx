import { dehydrate, hashKey, QueryClient, type DehydratedState } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import type { ApiClient } from '../../client/index.ts';
import { Root } from '../../web/src/Root.tsx';
import { GUEST, type UserData } from '../../web/src/user-data.tsx';
import type { HeadTags } from './document.ts';
import { prefetchPage } from './prefetch.ts';
import { headFromSeo, pageSeoQuery } from './seo-head.ts';

export interface RenderedPage {
  appHtml: string;
  state: DehydratedState;
  /** The head from the page's SEO properties (the default head when they could not be read). */
  head: HeadTags;
}

/** Runs the page's queries, renders it with their data, and dehydrates them for the browser. */
export async function renderPage(url: URL, api: ApiClient, user: UserData = GUEST): Promise<RenderedPage> {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  try {
    await prefetchPage(queryClient, api, url);
    const seoKey = pageSeoQuery(api).queryKey;
    const head = headFromSeo(queryClient.getQueryData(seoKey));
    const seoHash = hashKey(seoKey);
    // Failed queries travel too: the browser then renders the same empty block the server did. The SEO
    // properties do not: they are in the head already, and no part of the page reads them.
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => query.state.status !== 'pending' && query.queryHash !== seoHash,
    });
    const appHtml = renderToString(
      <Root queryClient={queryClient} api={api} dehydratedState={state} requestUrl={url.href} user={user} />,
    );
    return { appHtml, state, head };
  } finally {
    queryClient.clear();
  }
}
