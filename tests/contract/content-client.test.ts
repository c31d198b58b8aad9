/**
 * The generated content-delivery query factories against the real server: every option of the contract
 * reaches the request and the query key, for a site and for a channel.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../client/index.ts';
import {
  getManagedContentForChannelQuery,
  getManagedContentForSiteQuery,
  getManagedContentsForChannelQuery,
  getManagedContentsForSiteQuery,
} from '../../client/react.ts';
import { BANNER, BANNER_IMAGE, CHANNEL_ID, HEADING, SITE_ID } from '../support/content.ts';
import { expectValidResponse } from '../support/contract.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('content-delivery query factories', () => {
  let server: TestServer;
  let api: ApiClient;
  const sent: URL[] = [];
  const queries = new QueryClient();

  beforeAll(async () => {
    server = await startTestServer({ demoContacts: 0 });
    api = createApiClient({
      baseUrl: server.baseUrl,
      fetch: (request) => {
        sent.push(new URL(request.url));
        return fetch(request);
      },
    });
  });
  afterAll(() => server?.close());

  const lastQuery = () => Object.fromEntries(sent.at(-1)!.searchParams);

  it('sends a collection query with every option, and keys it the same', async () => {
    const params = {
      contentKeys: `${BANNER.key},${HEADING.key}`,
      referenceDepth: 1,
      expandReferences: true,
      referencesAsList: true,
      showAbsoluteUrl: true,
      includeContentBody: true,
      language: 'en_US',
      page: 0,
      pageSize: 10,
    };
    const expected = {
      contentKeys: `${BANNER.key},${HEADING.key}`,
      referenceDepth: '1',
      expandReferences: 'true',
      referencesAsList: 'true',
      showAbsoluteUrl: 'true',
      includeContentBody: 'true',
      language: 'en_US',
      page: '0',
      pageSize: '10',
    };
    const site = getManagedContentsForSiteQuery(api, { path: { siteId: SITE_ID }, query: params });
    const channel = getManagedContentsForChannelQuery(api, { path: { channelId: CHANNEL_ID }, query: params });
    expect(site.queryKey).toEqual(['getManagedContentsForSite', { siteId: SITE_ID, ...params }]);
    expect(channel.queryKey).toEqual(['getManagedContentsForChannel', { channelId: CHANNEL_ID, ...params }]);
    const collections = [
      ['getManagedContentsForSite', await queries.fetchQuery(site), lastQuery()],
      ['getManagedContentsForChannel', await queries.fetchQuery(channel), lastQuery()],
    ] as const;
    for (const [operationId, collection, query] of collections) {
      expect(query).toEqual(expected);
      expectValidResponse(operationId, 200, collection);
      // The server honoured them: both items, the referred image as a list with its body, absolute URLs.
      expect(collection.contents.map((item) => item.contentKey).sort()).toEqual([BANNER.key, HEADING.key].sort());
      expect(collection.references).toBeNull();
      expect(collection.referencesList?.map((reference) => reference.contentKey)).toEqual([BANNER_IMAGE.key]);
      expect(collection.referencesList?.[0].contentBody).toBeTruthy();
      expect(collection.currentPageUrl).toContain('showAbsoluteUrl=true');
    }
  });

  it('sends one item with its options, and leaves out the ones not given', async () => {
    const site = getManagedContentForSiteQuery(api, {
      path: { siteId: SITE_ID, contentKeyOrId: BANNER_IMAGE.key },
      query: { showAbsoluteUrl: true },
    });
    const item = await queries.fetchQuery(site);
    expect(lastQuery()).toEqual({ showAbsoluteUrl: 'true' });
    expect(site.queryKey).toEqual([
      'getManagedContentForSite',
      { siteId: SITE_ID, contentKeyOrId: BANNER_IMAGE.key, showAbsoluteUrl: true },
    ]);
    expectValidResponse('getManagedContentForSite', 200, item);
    expect(item.unauthenticatedUrl).toMatch(new RegExp(`^${server.baseUrl}/sfsites/c/cms/delivery/media/`));

    const channel = getManagedContentForChannelQuery(api, {
      path: { channelId: CHANNEL_ID, contentKeyOrId: BANNER.key },
      query: { referenceDepth: 1, referencesAsList: true },
    });
    const banner = await queries.fetchQuery(channel);
    expect(lastQuery()).toEqual({ referenceDepth: '1', referencesAsList: 'true' });
    expect(banner.referencesList?.map((reference) => reference.contentKey)).toEqual([BANNER_IMAGE.key]);

    const plain = getManagedContentForSiteQuery(api, { path: { siteId: SITE_ID, contentKeyOrId: HEADING.key } });
    await queries.fetchQuery(plain);
    expect(lastQuery()).toEqual({});
    expect(plain.queryKey).toEqual(['getManagedContentForSite', { siteId: SITE_ID, contentKeyOrId: HEADING.key }]);
  });
});
