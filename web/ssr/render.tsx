import { dehydrate, QueryClient, type DehydratedState } from '@tanstack/react-query';
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
import { inquiryRecordIdOf, representativeIdOf, representativePath } from '../../common/pages.ts';
import { RepresentativePage } from '../src/representative/RepresentativePage.tsx';
import { InquiryPage } from '../src/inquiry/InquiryPage.tsx';
import { SignInPage } from '../src/login/SignInPage.tsx';
import { localBusinessJsonLd, representativeHead, representativeQuery } from '../src/representative/representative.ts';
import { escapeHtml, serializeForScript } from './serialize.ts';
import { isApiError } from '../../client/errors.ts';
import { getInquiryFormQuery } from '../../client/react.ts';
import { INQUIRY_POST_KEY, type InquiryPostState } from '../src/inquiry/inquiry-state.ts';

/** Where the page lives instead: the address that says what it shows (a page past the end, say). */
interface RedirectedPage {
  redirect: string;
}

interface RenderedPage {
  /** Whether every query succeeded: a page that shows a default for a failed one is not to be kept. */
  complete: boolean;
  /**
   * 404: the page not found, or a representative's page or inquiry form whose Id names none; 400: an inquiry form
   * posted wrong.
   */
  status: 200 | 400 | 404;
  appHtml: string;
  /** The queries for the browser to hydrate with; none for a page the app does not hydrate (a representative's). */
  state?: DehydratedState;
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
    queryClient.prefetchQuery(representativeQuery(api, recordId)),
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
  const recordId = representativeIdOf(url.pathname);
  const inquiryOf = inquiryRecordIdOf(url.pathname);
  try {
    const [, canonical] = await Promise.all([
      queryClient.prefetchQuery(sessionQuery(api)),
      // The sign-in page and the page not found show the store's banner picture; the Contact Us page everything.
      contactUsPage ? prefetchPage(queryClient, api, url) : prefetchContent(queryClient, api),
      recordId && queryClient.prefetchQuery(representativeQuery(api, recordId)),
      inquiryOf ? prefetchInquiry(queryClient, api, inquiryOf, !posted && !url.searchParams.has('sent')) : undefined,
    ]);
    if (typeof canonical === 'string') return { redirect: url.pathname + canonical };
    const seoKey = pageSeoQuery(api).queryKey;
    const representative = recordId ? representativeState(queryClient, api, url, recordId) : undefined;
    const found = recordId
      ? representative?.found
      : inquiryOf
        ? representativeFound(queryClient, api, inquiryOf)
        : contactUsPage || url.pathname === SIGN_IN_PATH;
    // 400: the inquiry form posted without JavaScript, shown again with what was wrong.
    const status = !found ? 404 : posted ? 400 : 200;
    const head = contactUsPage
      ? headFromSeo(queryClient.getQueryData(seoKey))
      : url.pathname === SIGN_IN_PATH
        ? SIGN_IN_HEAD
        : (representative?.head ?? (inquiryOf && found ? INQUIRY_HEAD : NOT_FOUND_HEAD));
    // Set now, as the page renders: kept by nothing, a query's data set earlier is gone by now (gcTime 0).
    if (posted) queryClient.setQueryData(INQUIRY_POST_KEY, posted);
    // Failed queries travel too: the browser then renders the same empty block the server did. A query that
    // no part of the page reads in the browser does not (its meta is NOT_CARRIED, web/src/query-client.ts): the
    // SEO properties, in the head already, and content delivery's answers, of which the page carries pageContent.
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => query.state.status !== 'pending' && query.meta?.carried !== false,
    });
    const complete = queryClient
      .getQueryCache()
      .getAll()
      .every((query) => query.state.status === 'success');
    const appHtml = renderToString(
      <Root
        queryClient={queryClient}
        api={api}
        requestUrl={url.href}
        serverMarkup={serverMarkup}
        page={
          recordId ? (
            <RepresentativePage recordId={recordId} />
          ) : inquiryOf ? (
            <InquiryPage />
          ) : url.pathname === SIGN_IN_PATH ? (
            <SignInPage />
          ) : undefined
        }
      />,
    );
    // A representative's page and an inquiry form are complete as the server makes them: no app hydrates them.
    return { complete, status, appHtml, state: recordId || inquiryOf ? undefined : state, head };
  } finally {
    queryClient.clear();
  }
}

/**
 * Whether the Id names a representative, by getContact's answer: its 400 or 404 (an Id of none, or of a record
 * that is no representative) makes the page the page not found. A failure of another kind (the database, say) is
 * not: the page shows it, and is not kept.
 */
function representativeFound(queryClient: QueryClient, api: ApiClient, recordId: string): boolean {
  const { data, error } = queryClient.getQueryState(representativeQuery(api, recordId).queryKey) ?? {};
  return data !== undefined || !(isApiError(error) && (error.status === 400 || error.status === 404));
}

/**
 * A representative's page: found or not (representativeFound), and its head, its own title and description, its
 * canonical URL on the request's origin and its LocalBusiness as JSON-LD.
 */
function representativeState(
  queryClient: QueryClient,
  api: ApiClient,
  url: URL,
  recordId: string,
): { found: boolean; head?: HeadTags } {
  const data = queryClient.getQueryData(representativeQuery(api, recordId).queryKey);
  if (!data) return { found: representativeFound(queryClient, api, recordId) };
  const pageUrl = new URL(representativePath(data.Id), url.origin).href;
  const { title, description } = representativeHead(data);
  return {
    found: true,
    head: {
      title,
      description,
      extra:
        `<link rel="canonical" href="${escapeHtml(pageUrl)}">` +
        `<script type="application/ld+json">${serializeForScript(localBusinessJsonLd(data, pageUrl))}</script>`,
    },
  };
}
