import { dehydrate, hashKey, QueryClient, type DehydratedState } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import type { ApiClient } from '../../client/index.ts';
import { sessionQuery } from '../src/session/session-query.ts';
import { SIGN_IN_PATH } from '../../common/sign-in.ts';
import { Root } from '../src/Root.tsx';
import type { HeadTags } from './document.ts';
import { SERVER_QUERY_DEFAULTS } from './guest-data.ts';
import { prefetchContent, prefetchPage } from './prefetch.ts';
import { headFromSeo, pageSeoQuery } from './seo-head.ts';
import { serverMarkup } from './server-markup.ts';
import { inquiryRecordIdOf } from '../../common/pages.ts';
import { getContactQuery, getInquiryFormQuery } from '../../client/react.ts';
import { INQUIRY_POST_KEY, type InquiryPostState } from '../src/inquiry/inquiry-state.ts';

/** Where the page lives instead: the address that says what it shows (a page past the end, say). */
interface RedirectedPage {
  redirect: string;
}

interface RenderedPage {
  /** Whether every query succeeded: a page that shows a default for a failed one is not to be kept. */
  complete: boolean;
  appHtml: string;
  state: DehydratedState;
  /** The head from the page's SEO properties (the default head when they could not be read). */
  head: HeadTags;
}

const SIGN_IN_HEAD: HeadTags = {
  title: 'Sign in',
  description: 'Sign in to the store.',
  extra: '<meta name="robots" content="noindex">',
};

const INQUIRY_HEAD: HeadTags = {
  title: 'Contact a representative',
  description: 'Send an inquiry to a representative.',
  extra: '<meta name="robots" content="noindex">',
};

/** The inquiry form's queries: its representative and, for a new form, its key and token. */
async function prefetchInquiry(queryClient: QueryClient, api: ApiClient, recordId: string, newForm: boolean) {
  await Promise.all([
    queryClient.prefetchQuery(getContactQuery(api, { query: { methodParams: JSON.stringify({ recordId }) } })),
    newForm ? queryClient.prefetchQuery(getInquiryFormQuery(api)) : undefined,
  ]);
}

const NOT_FOUND_HEAD: HeadTags = {
  title: 'Page not found',
  description: 'There is no page at this address.',
  extra: '<meta name="robots" content="noindex">',
};

/**
 * Runs the page's queries, renders it with their data, and dehydrates them for the browser. The visitor's
 * session (getSession, with the request's cookie) is one of them: the page renders for a guest or a user
 * from it, and the browser hydrates with the same answer.
 */
export async function renderPage(
  url: URL,
  api: ApiClient,
  queryClient = new QueryClient({ defaultOptions: SERVER_QUERY_DEFAULTS }),
  posted?: InquiryPostState,
): Promise<RenderedPage | RedirectedPage> {
  const contactUsPage = url.pathname === '/';
  const inquiryOf = inquiryRecordIdOf(url.pathname);
  try {
    const [, canonical] = await Promise.all([
      queryClient.prefetchQuery(sessionQuery(api)),
      // The sign-in page and the page not found show the store's banner picture; the Contact Us page everything.
      contactUsPage ? prefetchPage(queryClient, api, url) : prefetchContent(queryClient, api),
      inquiryOf ? prefetchInquiry(queryClient, api, inquiryOf, !posted && !url.searchParams.has('sent')) : undefined,
    ]);
    if (typeof canonical === 'string') return { redirect: url.pathname + canonical };
    const seoKey = pageSeoQuery(api).queryKey;
    const head = contactUsPage
      ? headFromSeo(queryClient.getQueryData(seoKey))
      : url.pathname === SIGN_IN_PATH
        ? SIGN_IN_HEAD
        : inquiryOf
          ? INQUIRY_HEAD
          : NOT_FOUND_HEAD;
    const seoHash = hashKey(seoKey);
    // Set now, as the page renders: kept by nothing, a query's data set earlier is gone by now (gcTime 0).
    if (posted) queryClient.setQueryData(INQUIRY_POST_KEY, posted);
    // Failed queries travel too: the browser then renders the same empty block the server did. The SEO
    // properties do not: they are in the head already, and no part of the page reads them.
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => query.state.status !== 'pending' && query.queryHash !== seoHash,
    });
    const complete = queryClient
      .getQueryCache()
      .getAll()
      .every((query) => query.state.status === 'success');
    const appHtml = renderToString(
      <Root
        queryClient={queryClient}
        api={api}
        dehydratedState={state}
        requestUrl={url.href}
        serverMarkup={serverMarkup}
      />,
    );
    return { complete, appHtml, state, head };
  } finally {
    queryClient.clear();
  }
}
