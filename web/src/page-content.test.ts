import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../client/index';
import type { ManagedContentCollection, ManagedContentDocument } from '../../client/queries';
import { DEFAULT_CONTENT, pageContentQuery, pageContentsQuery } from './content';
import { bannerImageKey, bannerPicture, loadPageContent, pageContentFrom } from './page-content';
import { CONTENT_KEYS } from './page-config';

const IMAGE_KEY = 'MCAIDH4NVWIOWEHB75VOW2AB6CJI';

function item(contentKey: string, contentBody: Record<string, unknown>): ManagedContentDocument {
  return { contentKey, contentBody } as unknown as ManagedContentDocument;
}

const IMAGE_BODY = {
  altText: 'Power lines at dusk',
  'sfdc_cms:media': {
    url: `/cms/delivery/media/${IMAGE_KEY}?version=1.0`,
    source: { type: 'file', mimeType: 'image/jpeg', size: 1, fileName: 'b.jpg', width: 2400, height: 800 },
  },
};

/** The collection as content delivery answers it with referenceDepth=1 and expandReferences=true. */
function collection(imageBody: Record<string, unknown> | undefined): ManagedContentCollection {
  return {
    contents: [
      item(CONTENT_KEYS.banner, {
        heading: 'Talk to us',
        intro: 'We answer within a day.',
        backgroundImage: { contentKey: IMAGE_KEY, managedContentId: '20Y8d0000000001EAA' },
      }),
      item(CONTENT_KEYS.heading, { text: 'Find your <b>representative</b>' }),
      item(CONTENT_KEYS.supportLines, { text: '1|2|3|4|US|Intl|Tech|Web' }),
    ],
    references: imageBody ? { [IMAGE_KEY]: { contentKey: IMAGE_KEY, contentBody: imageBody } } : {},
  } as unknown as ManagedContentCollection;
}

const contents = collection(IMAGE_BODY);

const loaded = <Data>(data: Data) => ({ data, failed: false });
const failed = { failed: true };
const pending = { failed: false };

describe('pageContentFrom', () => {
  it('reads the banner, the heading and the support lines from content delivery', () => {
    const page = pageContentFrom(loaded(contents));
    expect(page.banner.heading).toBe('Talk to us');
    expect(page.banner.intro).toBe('We answer within a day.');
    expect(page.heading).toBe('Find your representative');
    expect(page.supportRows).toEqual([
      { label: 'US', value: '1' },
      { label: 'Intl', value: '2' },
      { label: 'Tech', value: '3' },
      { label: 'Web', value: '4' },
    ]);
    expect(page.banner.picture?.altText).toBe('Power lines at dusk');
    expect(page.banner.picture?.url).toBe(
      `/cdn-cgi/image/width=1920,format=auto/sfsites/c/cms/delivery/media/${IMAGE_KEY}?version=1.0`,
    );
    expect(page.banner.picture?.sources).toHaveLength(3);
    expect([page.banner.picture?.width, page.banner.picture?.height]).toEqual([2400, 800]);
  });

  it('shows the built-in texts, no support lines and the default picture when content delivery failed', () => {
    const page = pageContentFrom(failed);
    expect(page.banner.heading).toBe(DEFAULT_CONTENT.banner.heading);
    expect(page.banner.intro).toBe(DEFAULT_CONTENT.banner.intro);
    expect(page.heading).toBe(DEFAULT_CONTENT.heading);
    expect(page.supportRows).toEqual([]);
    expect(page.banner.picture?.url).toBe('/cdn-cgi/image/width=1920,format=auto/sfsites/c/img/contact-us-banner.jpg');
  });

  it('makes the texts plain, and a text of tags alone shows nothing rather than the default', () => {
    const tagged = {
      contents: [
        item(CONTENT_KEYS.banner, {
          heading: '<script>alert(1)</script><i>Talk</i> &amp; <b>listen</b>',
          intro: '<br>',
        }),
      ],
    } as unknown as ManagedContentCollection;
    const page = pageContentFrom(loaded(tagged));
    expect(page.banner.heading).toBe('Talk & listen');
    expect(page.banner.intro).toBe('');
  });

  it('fills what an item lacks with the defaults', () => {
    const partial = { contents: [item(CONTENT_KEYS.banner, { heading: '  ' })] } as unknown as ManagedContentCollection;
    const page = pageContentFrom(loaded(partial));
    expect(page.banner.heading).toBe(DEFAULT_CONTENT.banner.heading);
    expect(page.heading).toBe(DEFAULT_CONTENT.heading);
    expect(page.banner.picture).toBeUndefined();
  });
});

describe('bannerPicture', () => {
  it('falls back to the content-key media path, unversioned, when the references lack the image item or its file', () => {
    expect(bannerImageKey(contents)).toBe(IMAGE_KEY);
    for (const without of [collection(undefined), collection({ altText: 'No file' })]) {
      const picture = bannerPicture(loaded(without))!;
      expect(picture.url).toBe(`/cdn-cgi/image/width=1920,format=auto/sfsites/c/cms/delivery/media/${IMAGE_KEY}`);
      expect(picture.altText).toBe('');
    }
  });

  it('shows no picture while the banner is loading, so that no file is fetched twice', () => {
    expect(bannerPicture(pending)).toBeUndefined();
  });

  it('shows the default picture when the banner is not among the answered items', () => {
    const withoutBanner = { contents: [] } as unknown as ManagedContentCollection;
    expect(bannerPicture(loaded(withoutBanner))?.url).toContain('/sfsites/c/img/contact-us-banner.jpg');
  });

  it('shows an image from elsewhere as it is, without resizing', () => {
    const external = collection({ 'sfdc_cms:media': { url: 'https://cdn.example/banner.jpg' } });
    const picture = bannerPicture(loaded(external))!;
    expect(picture.url).toBe('https://cdn.example/banner.jpg');
    expect(picture.sources).toBeUndefined();
  });
});

describe('loadPageContent', () => {
  /** An API client whose every call is answered by answer(), counted. */
  function clientAnswering(answer: (request: Request) => Response) {
    const calls: string[] = [];
    const api = createApiClient({
      baseUrl: 'http://127.0.0.1',
      fetch: async (request) => {
        calls.push(new URL(request.url).pathname);
        return answer(request);
      },
    });
    return { api, calls };
  }

  it('makes the content from what the query client holds, asking for nothing it has fresh', async () => {
    const { api, calls } = clientAnswering(() => new Response('{}', { status: 500 }));
    const queryClient = new QueryClient();
    queryClient.setQueryData(pageContentsQuery(api).queryKey, contents);
    const loaded = await loadPageContent(queryClient, api);
    expect(calls).toEqual([]);
    expect(loaded.complete).toBe(true);
    expect(loaded.content.heading).toBe('Find your representative');
    expect(loaded.content.banner.picture?.altText).toBe('Power lines at dusk');
  });

  it('asks content delivery once, for the texts with the picture among their references', async () => {
    const urls: URL[] = [];
    const { api } = clientAnswering((request) => {
      urls.push(new URL(request.url));
      return Response.json(contents);
    });
    const loaded = await loadPageContent(new QueryClient(), api);
    expect(urls).toHaveLength(1);
    expect(urls[0].searchParams.get('referenceDepth')).toBe('1');
    expect(urls[0].searchParams.get('expandReferences')).toBe('true');
    expect(loaded.complete).toBe(true);
    expect(loaded.content.banner.picture?.url).toContain(`/cms/delivery/media/${IMAGE_KEY}?version=1.0`);
  });

  it('shows the defaults and says it is not complete when content delivery fails', async () => {
    const { api, calls } = clientAnswering(
      () => new Response('[{"errorCode":"NOT_FOUND","message":"gone"}]', { status: 404 }),
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const loaded = await queryClient.fetchQuery(pageContentQuery(api));
    expect(calls).toHaveLength(1);
    expect(loaded.complete).toBe(false);
    expect(loaded.content.heading).toBe(DEFAULT_CONTENT.heading);
    expect(loaded.content.banner.picture?.url).toContain('/sfsites/c/img/contact-us-banner.jpg');
  });

  it('is asked for again when mounted after a part failed, and not when complete and fresh', async () => {
    const { api, calls } = clientAnswering(() => Response.json(contents));
    for (const [complete, expected] of [
      [false, 1],
      [true, 0],
    ] as const) {
      calls.length = 0;
      const queryClient = new QueryClient();
      queryClient.setQueryData(pageContentQuery(api).queryKey, { content: DEFAULT_CONTENT, complete });
      const observer = new QueryObserver(queryClient, pageContentQuery(api));
      const unsubscribe = observer.subscribe(() => {});
      await vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false));
      unsubscribe();
      expect(calls.filter((path) => path.endsWith('/cms/delivery/contents'))).toHaveLength(expected);
    }
  });
});
