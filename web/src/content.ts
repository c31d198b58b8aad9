/**
 * The page's editable content, as the page renders it: the banner's texts and picture, the body heading and the
 * support lines, already made safe to show (plain texts, checked picture URLs). It is one query, pageContent,
 * made from what content delivery answers (page-content.ts). The server runs it before it renders and the page
 * carries its result, so that the browser hydrates with it and never needs the code that makes it: that code is
 * loaded only when the query runs in the browser (content gone stale, a part that failed on the server, or a
 * page the server did not render), not with the app.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../client/index';
import { getManagedContentsForSiteQuery } from '../../client/react';
import { useApiClient } from './api-client';
import type { BannerContent } from './components/Banner';
import { CONTENT_KEYS, PAGE } from './page-config';
import { NOT_CARRIED } from './query-client';
import type { SupportRow } from '../../common/support-lines';

export interface PageContent {
  banner: BannerContent;
  /** The centred extra-large h1 of the page's second section, above the default contact (plain text). */
  heading: string;
  /** The right column of the default-contact block; none until the label arrives. */
  supportRows: readonly SupportRow[];
}

/** The page's content and whether all of it came from content delivery (false: a part failed, its default shows). */
export interface LoadedPageContent {
  content: PageContent;
  complete: boolean;
}

export const DEFAULT_CONTENT: PageContent = {
  banner: {
    heading: 'Contact Us',
    intro:
      'Questions about a product, an order or a project? Our team and our authorized representatives are here to help.',
  },
  heading: 'Connect with an authorized sales representative in your area',
  supportRows: [],
};

/**
 * The collection request that answers the banner, the heading and the support-lines label. Not carried by the
 * server's page, which carries pageContent, what is made of it.
 */
export function pageContentsQuery(api: ApiClient) {
  return {
    ...getManagedContentsForSiteQuery(api, {
      path: { siteId: PAGE.siteId },
      query: {
        contentKeys: [CONTENT_KEYS.banner, CONTENT_KEYS.heading, CONTENT_KEYS.supportLines].join(','),
        includeContentBody: true,
        // The picture the banner names comes with its body in the answer's references: no second request.
        referenceDepth: 1,
        expandReferences: true,
      },
    }),
    meta: NOT_CARRIED,
  };
}

let pageContentModule: Promise<typeof import('./page-content')> | undefined;

/**
 * The module that loads the page's content (a chunk of its own in the browser), imported once: an import()
 * for each render costs the server a module resolution each time. A failed import is tried again next time.
 */
function importPageContent(): Promise<typeof import('./page-content')> {
  pageContentModule ??= import('./page-content').catch((error: unknown) => {
    pageContentModule = undefined;
    throw error;
  });
  return pageContentModule;
}

/**
 * The page's content as one query, fresh as long as content delivery's answers are. A result with a part that
 * failed (on the server, say) is asked for again as soon as the page is mounted in the browser, where that part
 * may load, as a failed query would be; a complete one when it has gone stale, as any query.
 */
export function pageContentQuery(api: ApiClient) {
  // The collection's lifetime from the contract (x-cache-ttl), a number of milliseconds in every generated query.
  const staleTime = pageContentsQuery(api).staleTime as number;
  return queryOptions<LoadedPageContent, Error, LoadedPageContent, readonly ['pageContent', string]>({
    queryKey: ['pageContent', PAGE.siteId],
    queryFn: async ({ client }) => (await importPageContent()).loadPageContent(client, api),
    staleTime,
    refetchOnMount: (query) => (query.state.data?.complete === false ? 'always' : true),
  });
}

/** The page's content: what the pageContent query has, defaults until it has something. */
export function usePageContent(): PageContent {
  const { data } = useQuery(pageContentQuery(useApiClient()));
  return data?.content ?? DEFAULT_CONTENT;
}
