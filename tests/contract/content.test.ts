/**
 * Content delivery over real HTTP on every test database, as a guest (no session): one item by site or
 * channel (getManagedContentForSite, getManagedContentForChannel) and collections (getManagedContentsForSite,
 * getManagedContentsForChannel) with their filters, paging, references and limits. Every answer is checked
 * against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_BODY, type ErrorList } from '../support/api.ts';
import {
  BANNER,
  BANNER_IMAGE,
  BANNER_VERSION,
  CHANNEL_ID,
  channelContents,
  HEADING,
  ITEMS,
  LOCATOR_INTRO,
  MISSING_KEY,
  SITE_ID,
  siteContents,
  SUPPORT_LINES,
} from '../support/content.ts';
import { callOperation } from '../support/contract.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';

interface Reference {
  contentBody?: Record<string, unknown>;
  contentKey: string;
  managedContentId: string;
  contentType: { fullyQualifiedName: string; name: string };
}
interface Document {
  contentKey: string;
  managedContentId: string;
  contentType: { fullyQualifiedName: string; name: string };
  contentBody?: Record<string, unknown>;
  references: Record<string, Reference> | null;
  referencesList: Reference[] | null;
  resourceUrl: string;
  unauthenticatedUrl: string | null;
  channelSummary: { id: string; type: string; domainUrl: string | null };
  language: string;
  publishedDate: string;
  title: string;
  urlName: string;
}
interface Collection {
  contents: Document[];
  currentPageUrl: string;
  nextPageUrl: string | null;
  previousPageUrl: string | null;
  references: Record<string, Reference> | null;
  referencesList: Reference[] | null;
}

const query = (params: Record<string, string | number | boolean>) =>
  Object.keys(params).length
    ? `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`
    : '';

describe.each(databases())('content delivery on %s', (kind) => {
  let server: TestServer;
  const siteItem = (keyOrId: string, params: Record<string, string | number> = {}) =>
    callOperation<Document>(
      'getManagedContentForSite',
      `${server.baseUrl}${siteContents()}/${keyOrId}${query(params)}`,
    );
  const channelItem = (keyOrId: string, params: Record<string, string | number> = {}) =>
    callOperation<Document>(
      'getManagedContentForChannel',
      `${server.baseUrl}${channelContents()}/${keyOrId}${query(params)}`,
    );
  const siteItems = (params: Record<string, string | number | boolean> = {}) =>
    callOperation<Collection>('getManagedContentsForSite', `${server.baseUrl}${siteContents()}${query(params)}`);
  const channelItems = (params: Record<string, string | number | boolean> = {}) =>
    callOperation<Collection>('getManagedContentsForChannel', `${server.baseUrl}${channelContents()}${query(params)}`);

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
  });
  afterAll(() => server?.close());

  it('seeded the page content in the database, each item published to the site channel', async () => {
    const { rows } = await server.db.query<{ id: string; content_key: string; content_type: string }>(
      `SELECT mc.id, mc.content_key, mc.content_type FROM managed_content mc
       JOIN managed_content_channel cc ON cc.managed_content_id = mc.id AND cc.channel_id = $1 ORDER BY mc.id`,
      [CHANNEL_ID],
    );
    expect(rows.map((row) => ({ id: row.id, key: row.content_key, type: row.content_type }))).toEqual(ITEMS);
  });

  describe('getManagedContentForSite', () => {
    it('answers the banner picture by content key, with its media url and alt text in the body', async () => {
      const { status, body } = await siteItem(BANNER_IMAGE.key);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        contentKey: BANNER_IMAGE.key,
        managedContentId: BANNER_IMAGE.id,
        contentType: { fullyQualifiedName: 'sfdc_cms__image', name: 'Image' },
        language: 'en_US',
        references: null,
        referencesList: null,
        resourceUrl: `${siteContents()}/${BANNER_IMAGE.key}`,
        unauthenticatedUrl: `/cms/delivery/media/${BANNER_IMAGE.key}?version=${BANNER_VERSION}`,
        channelSummary: { id: CHANNEL_ID, type: 'Community', domainUrl: server.baseUrl },
      });
      const media = body.contentBody!['sfdc_cms:media'] as { url: string; source: Record<string, unknown> };
      expect(media.url).toBe(`/cms/delivery/media/${BANNER_IMAGE.key}?version=${BANNER_VERSION}`);
      expect(media.source).toMatchObject({ type: 'file', mimeType: 'image/jpeg', width: 2400, height: 800 });
      expect(body.contentBody!.altText).toEqual(expect.any(String));
    });

    it('answers the same item by its 18- and 15-character managed content id', async () => {
      const byKey = await siteItem(BANNER_IMAGE.key);
      const byId = await siteItem(BANNER_IMAGE.id);
      const byId15 = await siteItem(BANNER_IMAGE.id.slice(0, 15));
      expect(byId.body).toEqual(byKey.body);
      expect(byId15.body).toEqual(byKey.body);
    });

    it('answers the banner with its heading, intro and picture reference; referenceDepth resolves the picture', async () => {
      const plain = await siteItem(BANNER.key);
      expect(plain.body.contentBody).toEqual({
        heading: 'Contact Us',
        intro: expect.any(String),
        backgroundImage: { contentKey: BANNER_IMAGE.key, managedContentId: BANNER_IMAGE.id },
      });
      expect(plain.body.references).toBeNull();
      for (const depth of [1, 3]) {
        const { body } = await siteItem(BANNER.key, { referenceDepth: depth });
        expect(Object.keys(body.references!)).toEqual([BANNER_IMAGE.key]);
        expect(body.references![BANNER_IMAGE.key]).toMatchObject({
          managedContentId: BANNER_IMAGE.id,
          contentType: { fullyQualifiedName: 'sfdc_cms__image' },
        });
      }
      const leaf = await siteItem(HEADING.key, { referenceDepth: 2 });
      expect(leaf.body.references).toEqual({});
    });

    it.each([
      ['a channel id', `${CHANNEL_ID}`, 'INVALID_ID_FIELD'],
      ['a record id', 'a1C8d0000000001EAA', 'INVALID_ID_FIELD'],
      ['a short id', '0DM8d00', 'INVALID_ID_FIELD'],
    ])('answers 400 for %s in place of the site id', async (_name, siteId, errorCode) => {
      const { status, body } = await callOperation<ErrorList>(
        'getManagedContentForSite',
        `${server.baseUrl}${siteContents(siteId)}/${BANNER_IMAGE.key}`,
      );
      expect(status).toBe(400);
      expect(body[0].errorCode).toBe(errorCode);
      expect(body[0].message).toContain(siteId);
    });

    it('answers 404 for a site that does not exist, a missing content key and a missing id', async () => {
      const unknownSite = await callOperation<ErrorList>(
        'getManagedContentForSite',
        `${server.baseUrl}${siteContents('0DM8d0000000002GAA')}/${BANNER_IMAGE.key}`,
      );
      expect(unknownSite.status).toBe(404);
      for (const keyOrId of [MISSING_KEY, '20Y8d0000000099EAA', 'a1C8d0000000001EAA']) {
        const { status, body } = await siteItem(keyOrId);
        expect(status, keyOrId).toBe(404);
        expect(body).toEqual(NOT_FOUND_BODY);
      }
    });

    it('answers 400 for a malformed key and a reference depth out of range', async () => {
      const cases: [string, { referenceDepth?: number | string }][] = [
        ['not-a-key', {}],
        ['MCabc', {}],
        [BANNER.key, { referenceDepth: 4 }],
        [BANNER.key, { referenceDepth: 'deep' }],
      ];
      for (const [keyOrId, params] of cases) {
        const { status, body } = await siteItem(keyOrId, params);
        expect(status, `${keyOrId} ${JSON.stringify(params)}`).toBe(400);
        // A malformed key or id is an invalid id; a bad depth an illegal query parameter value.
        expect((body as unknown as ErrorList)[0].errorCode).toBe(
          params.referenceDepth === undefined ? 'INVALID_ID_FIELD' : 'ILLEGAL_QUERY_PARAMETER_VALUE',
        );
      }
    });

    it('answers 304 to If-None-Match of the current ETag', async () => {
      const first = await siteItem(SUPPORT_LINES.key);
      const again = await callOperation(
        'getManagedContentForSite',
        `${server.baseUrl}${siteContents()}/${SUPPORT_LINES.key}`,
        {
          headers: { 'If-None-Match': first.headers.get('etag')! },
        },
      );
      expect(again.status).toBe(304);
      expect(first.headers.get('cache-control')).toBe('private, max-age=300');
    });
  });

  describe('getManagedContentForChannel', () => {
    it('answers the support-lines label: eight parts, four values then their four row labels', async () => {
      const { status, body } = await channelItem(SUPPORT_LINES.key);
      expect(status).toBe(200);
      expect(body.resourceUrl).toBe(`${channelContents()}/${SUPPORT_LINES.key}`);
      const parts = String(body.contentBody!.text).split('|');
      expect(parts).toHaveLength(8);
      expect(parts.slice(4)).toEqual([
        'US Customer Service',
        'International Customer Service',
        'Tech Support',
        'Webstore Support',
      ]);
      for (const value of parts.slice(0, 4)) expect(value).toMatch(/555-01\d\d$|@[a-z-]+\.example$/);
    });

    it('answers the body texts of the page', async () => {
      expect((await channelItem(HEADING.key)).body.contentBody).toEqual({
        text: 'Connect with an authorized sales representative in your area',
      });
      expect((await channelItem(LOCATOR_INTRO.id)).body.contentBody).toEqual({ text: expect.stringMatching(/brand/) });
    });

    it('answers 400 for a site id or another prefix in place of the channel id, 404 for an unknown channel or key', async () => {
      for (const channelId of [SITE_ID, '001000000000001AAA', 'x']) {
        const { status } = await callOperation(
          'getManagedContentForChannel',
          `${server.baseUrl}${channelContents(channelId)}/${HEADING.key}`,
        );
        expect(status, channelId).toBe(400);
      }
      expect(
        (
          await callOperation(
            'getManagedContentForChannel',
            `${server.baseUrl}${channelContents('0ap8d0000000002AAA')}/${HEADING.key}`,
          )
        ).status,
      ).toBe(404);
      expect((await channelItem(MISSING_KEY)).status).toBe(404);
    });
  });

  describe.each([
    ['getManagedContentsForSite', () => siteItems, siteContents],
    ['getManagedContentsForChannel', () => channelItems, channelContents],
  ] as const)('%s', (_operationId, items, base) => {
    it('answers every published item by default, as summaries without bodies, on one page', async () => {
      const { status, body } = await items()();
      expect(status).toBe(200);
      expect(body.contents.map((item) => item.contentKey)).toEqual(ITEMS.map((item) => item.key));
      for (const item of body.contents) expect(item).not.toHaveProperty('contentBody');
      expect(body.currentPageUrl).toBe(`${base()}?page=0&pageSize=25`);
      expect(body.nextPageUrl).toBeNull();
      expect(body.previousPageUrl).toBeNull();
      expect(body.references).toBeNull();
    });

    it('filters by content keys (unknown keys left out), by managed content ids and by content type', async () => {
      const byKeys = await items()({
        contentKeys: [SUPPORT_LINES.key, MISSING_KEY, HEADING.key].join(','),
        includeContentBody: true,
      });
      expect(byKeys.body.contents.map((item) => item.contentKey)).toEqual([HEADING.key, SUPPORT_LINES.key]);
      expect(byKeys.body.contents.every((item) => item.contentBody !== undefined)).toBe(true);
      const byIds = await items()({ managedContentIds: [BANNER.id, BANNER_IMAGE.id.slice(0, 15)].join(',') });
      expect(byIds.body.contents.map((item) => item.managedContentId)).toEqual([BANNER_IMAGE.id, BANNER.id]);
      const texts = await items()({ contentTypeFQN: 'cu__contactUsText' });
      expect(texts.body.contents.map((item) => item.contentKey)).toEqual([
        HEADING.key,
        LOCATOR_INTRO.key,
        SUPPORT_LINES.key,
      ]);
      const none = await items()({ contentTypeFQN: 'sfdc_cms__news' });
      expect(none.body.contents).toEqual([]);
    });

    it('pages with zero-based page numbers, and the page URLs lead from one page to the next', async () => {
      const seen: string[] = [];
      let url: string | null = `${base()}?page=0&pageSize=2`;
      let previous: string | null = null;
      for (let page = 0; url; page++) {
        const { body }: { body: Collection } = await callOperation<Collection>(_operationId, `${server.baseUrl}${url}`);
        expect(body.currentPageUrl).toBe(`${base()}?page=${page}&pageSize=2`);
        expect(body.previousPageUrl).toBe(previous);
        seen.push(...body.contents.map((item) => item.contentKey));
        previous = body.currentPageUrl;
        url = body.nextPageUrl;
      }
      expect(seen).toEqual(ITEMS.map((item) => item.key));
      const past = await items()({ page: 9, pageSize: 2 });
      expect(past.body.contents).toEqual([]);
      expect(past.body.nextPageUrl).toBeNull();
    });

    it('resolves references to the depth asked for, on each item and for the page', async () => {
      const { body } = await items()({ contentKeys: BANNER.key, referenceDepth: 1 });
      expect(Object.keys(body.references!)).toEqual([BANNER_IMAGE.key]);
      expect(body.contents[0].references).toEqual(body.references);
      const flat = await items()({ contentKeys: BANNER.key, referenceDepth: 0 });
      expect(flat.body.references).toBeNull();
    });

    it('gives the references as a list with referencesAsList, and with their bodies with expandReferences', async () => {
      const { body } = await items()({
        contentKeys: BANNER.key,
        referenceDepth: 1,
        referencesAsList: true,
        expandReferences: true,
      });
      expect(body.references).toBeNull();
      expect(body.referencesList!.map((reference) => reference.contentKey)).toEqual([BANNER_IMAGE.key]);
      expect(body.referencesList![0].contentBody).toMatchObject({
        'sfdc_cms:media': { url: expect.stringContaining(`/cms/delivery/media/${BANNER_IMAGE.key}`) },
      });
      expect(body.contents[0].references).toBeNull();
      expect(body.contents[0].referencesList).toEqual(body.referencesList);
      const summaries = await items()({ contentKeys: BANNER.key, referenceDepth: 1 });
      expect(summaries.body.references![BANNER_IMAGE.key]).not.toHaveProperty('contentBody');
      expect(summaries.body.referencesList).toBeNull();
    });

    it('makes media URLs absolute with showAbsoluteUrl, behind the site prefix', async () => {
      const { body } = await items()({
        contentKeys: BANNER_IMAGE.key,
        includeContentBody: true,
        showAbsoluteUrl: true,
      });
      const absolute = `${server.baseUrl}/sfsites/c/cms/delivery/media/${BANNER_IMAGE.key}?version=${BANNER_VERSION}`;
      expect(body.contents[0].unauthenticatedUrl).toBe(absolute);
      expect(body.contents[0].contentBody).toMatchObject({ 'sfdc_cms:media': { url: absolute } });
      const media = await fetch(absolute);
      expect(media.status).toBe(200);
      expect(body.currentPageUrl).toContain('showAbsoluteUrl=true');
    });

    it('filters by publish dates, both ends included, and keeps the filter in the page URLs', async () => {
      const all = (await items()()).body.contents;
      const first = all[0].publishedDate;
      const exact = await items()({ publishStartDate: first, publishEndDate: first });
      expect(exact.body.contents.map((item) => item.contentKey)).toEqual(
        all.filter((item) => item.publishedDate === first).map((item) => item.contentKey),
      );
      expect(exact.body.currentPageUrl).toContain(
        `publishStartDate=${encodeURIComponent(new Date(first).toISOString())}`,
      );
      expect((await items()({ publishStartDate: '2100-01-01' })).body.contents).toEqual([]);
      expect((await items()({ publishEndDate: '2000-01-01T00:00:00Z' })).body.contents).toEqual([]);
    });

    it('delivers each item in its own language when the asked one is not there', async () => {
      const { status, body } = await items()({ language: 'fr_CA' });
      expect(status).toBe(200);
      expect(body.contents.map((item) => item.contentKey)).toEqual(ITEMS.map((item) => item.key));
      for (const item of body.contents) expect(item.language).toBe('en_US');
    });

    it('takes 250 a page without bodies', async () => {
      expect((await items()({ pageSize: 250 })).status).toBe(200);
      expect((await items()({ pageSize: 25, includeContentBody: true })).status).toBe(200);
    });

    it.each([
      [
        '51 content keys',
        { contentKeys: Array.from({ length: 51 }, (_, i) => `MC${String(i).padStart(26, 'A')}`).join(',') },
      ],
      [
        '101 managed content ids',
        {
          managedContentIds: Array.from({ length: 101 }, (_, i) => `20Y8d${String(i + 1).padStart(10, '0')}`).join(','),
        },
      ],
      ['keys and ids together', { contentKeys: BANNER.key, managedContentIds: BANNER.id }],
      ['a malformed content key', { contentKeys: 'MCnope' }],
      ['a malformed managed content id', { managedContentIds: '20Y8d0000000001XYZ' }],
      ['pageSize 0', { pageSize: 0 }],
      ['pageSize 251', { pageSize: 251 }],
      ['pageSize 26 with bodies', { pageSize: 26, includeContentBody: true }],
      ['page -1', { page: -1 }],
      ['a page that is not a number', { page: 'first' }],
      ['referenceDepth 4', { referenceDepth: 4 }],
      ['includeContentBody other than true or false', { includeContentBody: 'yes' }],
      ['a malformed content type name', { contentTypeFQN: 'image' }],
      ['pageSize 26 with expandReferences', { pageSize: 26, expandReferences: true }],
      ['a language that is not a locale', { language: 'english' }],
      ['a publish start date that is not a date', { publishStartDate: 'yesterday' }],
      ['an impossible publish end date', { publishEndDate: '2026-02-31' }],
      ['a publish end date before the start date', { publishStartDate: '2026-06-01', publishEndDate: '2026-05-01' }],
      ['referencesAsList other than true or false', { referencesAsList: 'list' }],
    ])('answers 400 for %s', async (_name, params) => {
      const { status, body } = await callOperation<ErrorList>(
        _operationId,
        `${server.baseUrl}${base()}${query(params)}`,
      );
      expect(status).toBe(400);
      expect(body[0].errorCode).toMatch(/^(ILLEGAL_QUERY_PARAMETER_VALUE|INVALID_ID_FIELD)$/);
    });
  });

  it('follows references level by level, through a cycle, and only to items published to the channel', async () => {
    // A → B → C → A, A → U (not published to the channel), B → D; A names E without a managedContentId, which
    // is no reference. Written for this test and removed after it.
    const item = (n: number, refers: Record<string, { contentKey: string; managedContentId?: string }>) => ({
      id: makeId('20Y', 900 + n),
      key: `MCREFERENCETEST${String(n).padStart(13, '0')}`,
      refers,
    });
    const ref = (target: { id: string; key: string }) => ({ contentKey: target.key, managedContentId: target.id });
    const [a, b, c, d, e, u] = [1, 2, 3, 4, 5, 6].map((n) => item(n, {}));
    a.refers = { next: ref(b), hidden: ref(u), loose: { contentKey: e.key } };
    b.refers = { next: ref(c), side: ref(d) };
    c.refers = { back: ref(a) };
    const all = [a, b, c, d, e, u];
    try {
      for (const one of all) {
        await server.db.query(
          `INSERT INTO managed_content (id, content_key, content_type, content_type_name, title, url_name, language,
             content_body, published_date) VALUES ($1, $2, 'cu__contactUsText', 'Text', $3, $3, 'en_US', $4, now())`,
          [one.id, one.key, `reference test ${one.key}`, JSON.stringify({ text: 'x', ...one.refers })],
        );
        if (one !== u)
          await server.db.query(
            'INSERT INTO managed_content_channel (channel_id, managed_content_id) VALUES ($1, $2)',
            [CHANNEL_ID, one.id],
          );
      }
      const expected = [[b], [b, c, d], [b, c, d, a]];
      for (const [index, keys] of expected.entries()) {
        const referenceDepth = index + 1;
        const want = keys.map((one) => one.key).sort();
        const single = await siteItem(a.key, { referenceDepth });
        expect(single.status).toBe(200);
        expect(Object.keys(single.body.references!).sort(), `getManagedContentForSite at ${referenceDepth}`).toEqual(
          want,
        );
        const page = await siteItems({ contentKeys: `${a.key},${d.key}`, referenceDepth });
        expect(page.status).toBe(200);
        expect(page.body.contents.map((one) => one.contentKey)).toEqual([a.key, d.key]);
        expect(Object.keys(page.body.references!).sort(), `getManagedContentsForSite at ${referenceDepth}`).toEqual(
          want,
        );
        expect(Object.keys(page.body.contents[0].references!).sort()).toEqual(want);
        expect(page.body.contents[1].references).toEqual({});
      }
      // The item past the page (C, which refers to A), asked for to know that a next page exists, adds no reference.
      const first = await siteItems({ contentKeys: `${b.key},${c.key}`, referenceDepth: 1, pageSize: 1 });
      expect(first.body.contents.map((one) => one.contentKey)).toEqual([b.key]);
      expect(first.body.nextPageUrl).not.toBeNull();
      expect(Object.keys(first.body.references!).sort()).toEqual([c.key, d.key].sort());
    } finally {
      await server.db.query('DELETE FROM managed_content WHERE id = ANY($1::text[])', [all.map((one) => one.id)]);
    }
  });

  it('answers 400 for an id of the other kind, 404 for an unknown site or channel', async () => {
    expect(
      (await callOperation('getManagedContentsForSite', `${server.baseUrl}${siteContents(CHANNEL_ID)}`)).status,
    ).toBe(400);
    expect(
      (await callOperation('getManagedContentsForChannel', `${server.baseUrl}${channelContents(SITE_ID)}`)).status,
    ).toBe(400);
    expect(
      (await callOperation('getManagedContentsForSite', `${server.baseUrl}${siteContents('0DM8d0000000002GAA')}`))
        .status,
    ).toBe(404);
    expect(
      (await callOperation('getManagedContentsForChannel', `${server.baseUrl}${channelContents('0ap8d0000000002AAA')}`))
        .status,
    ).toBe(404);
  });
});
