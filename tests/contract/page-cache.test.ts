/**
 * Guests' pages, rendered once and kept: the second guest request for an address is answered from the page
 * cache (its counters say so, not timing), gzipped once and inflating to the same HTML, with an ETag that a
 * conditional GET turns into a 304; a change to a contact, the content or the SEO settings is seen on the very
 * next request, and, on PostgreSQL, by another server on the same database once its notification arrives;
 * signed-in pages are never kept nor served from the cache; PAGE_CACHE=off renders every page.
 */
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openDatabase } from '../../server/bootstrap.ts';
import { publicPageChanges, type ResultCache, type ResultCacheStats } from '../../server/cache/result-cache.ts';
import { createSite } from '../../site/app.ts';
import { pageHandler } from '../../web/ssr/index.ts';
import { COMMUNITY_ID, HEADING } from '../support/content.ts';
import { rawGet } from '../support/raw-http.ts';
import { databases, startTestServer, withSearchPath, type TestServer } from '../support/server.ts';
import { signIn } from '../support/session.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CANADA = '/?country=Canada';

/** Waits until condition() holds, checking every 10 ms, at most timeoutMs. */
async function until(condition: () => boolean, timeoutMs = 5_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

function since(
  before: ResultCacheStats,
  now: ResultCacheStats,
): Pick<ResultCacheStats, 'hits' | 'misses' | 'joined' | 'invalidations'> {
  return {
    hits: now.hits - before.hits,
    misses: now.misses - before.misses,
    joined: now.joined - before.joined,
    invalidations: now.invalidations - before.invalidations,
  };
}

async function page(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl + path, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The heading text, the default contact's company name and the title, as the page shows them. */
const CHANGES = {
  contact: async (db: Database, text: string) => {
    await db.query(
      `UPDATE record SET fields = fields || jsonb_build_object('APT_Company_Name__c', $1::text)
       WHERE id = (SELECT min(id) FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Default_Contact__c' = 'true')`,
      [text],
    );
  },
  content: async (db: Database, text: string) => {
    await db.query(
      `UPDATE managed_content SET content_body = jsonb_set(content_body, '{text}', to_jsonb($2::text)) WHERE content_key = $1`,
      [HEADING.key, text],
    );
  },
  seo: async (db: Database, text: string) => {
    await db.query(`UPDATE page_seo_setting SET title = $2 WHERE community_id = $1 AND page_name = 'contact_us'`, [
      COMMUNITY_ID,
      text,
    ]);
  },
} as const;

describe.skipIf(!CACHES_ON).each(databases())(
  'guest pages kept on %s (needs the caches on: not CACHES=off)',
  (kind) => {
    let server: TestServer;
    let cache: ResultCache;
    const stats = () => ({ ...cache.stats });

    beforeAll(async () => {
      server = await startTestServer({ database: kind, demoContacts: 60 });
      cache = server.app.pageCache!;
    });
    afterAll(() => server?.close());

    it('renders a guest page once: the next guest gets the same HTML, ETag and policy from the cache', async () => {
      const before = stats();
      const first = await page(server.baseUrl, CANADA);
      // Headers no guest page depends on: the same page.
      const second = await page(server.baseUrl, CANADA, {
        'Accept-Language': 'fr-CA',
        'User-Agent': 'another browser',
      });
      expect(first.status).toBe(200);
      expect(since(before, stats())).toMatchObject({ misses: 1, hits: 1 });
      expect(second.html).toBe(first.html);
      for (const name of ['etag', 'content-security-policy', 'cache-control', 'vary', 'content-type']) {
        expect(second.headers.get(name), name).toBe(first.headers.get(name));
      }
      expect(first.html).toContain('Showing 1–');
      // The form for visitors without JavaScript, made by the server, with the address's country chosen.
      expect(first.html).toMatch(
        /<noscript><form class="locator__fallback" action="\/" method="get">.*<option value="Canada" selected="">Canada<\/option>/,
      );
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect(first.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      // Another address is another page.
      await page(server.baseUrl, `${CANADA}&page=2`);
      expect(since(before, stats())).toMatchObject({ misses: 2, hits: 1 });
    });

    it('sends the kept page in Brotli or gzip to clients that accept it, decoding to the identity body', async () => {
      const url = server.baseUrl + CANADA;
      const plain = await rawGet(url, { 'Accept-Encoding': 'identity' });
      const zipped = await rawGet(url, { 'Accept-Encoding': 'gzip, deflate' });
      const again = await rawGet(url, { 'Accept-Encoding': 'gzip' });
      const brotli = await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br' });
      const brotliAgain = await rawGet(url, { 'Accept-Encoding': 'br' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
      expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
      expect(again.body.equals(zipped.body)).toBe(true);
      expect(zipped.headers.etag).toBe(String(plain.headers.etag).replace(/"$/, '-gzip"'));
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(brotli.body).toString()).toBe(plain.body.toString());
      expect(brotli.body.length).toBeLessThan(zipped.body.length);
      expect(brotliAgain.body.equals(brotli.body)).toBe(true);
      expect(brotli.headers.etag).toBe(String(plain.headers.etag).replace(/"$/, '-br"'));
      // Either coding's ETag names the same page.
      const revalidated = await rawGet(url, { 'Accept-Encoding': 'br', 'If-None-Match': String(zipped.headers.etag) });
      expect(revalidated.status).toBe(304);
    });

    it('answers a conditional GET with the ETag of either encoding with 304, with the page’s policy', async () => {
      const first = await page(server.baseUrl, CANADA);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}-gzip"$/);
      for (const tag of [etag, etag.replace('-gzip', '')]) {
        const response = await fetch(server.baseUrl + CANADA, { headers: { 'If-None-Match': tag } });
        expect(response.status).toBe(304);
        expect(await response.text()).toBe('');
        expect(response.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
        expect(response.headers.get('cache-control')).toBe('no-cache');
      }
      const stale = await fetch(server.baseUrl + CANADA, { headers: { 'If-None-Match': '"0123"' } });
      expect(stale.status).toBe(200);
      await stale.arrayBuffer();
    });

    it('keeps the redirect of a page past the last, too', async () => {
      const before = stats();
      const first = await page(server.baseUrl, `${CANADA}&page=99`);
      const second = await page(server.baseUrl, `${CANADA}&page=99`);
      expect(first.status).toBe(302);
      expect(second.status).toBe(302);
      expect(second.headers.get('location')).toBe(first.headers.get('location'));
      expect(first.headers.get('location')).toMatch(/^\/\?country=Canada(&page=\d)?$/);
      expect(since(before, stats())).toMatchObject({ misses: 1, hits: 1 });
    });

    it('never keeps nor serves from the cache a signed-in visitor’s page', async () => {
      const session = await signIn(server, 'standard');
      await page(server.baseUrl, CANADA);
      const before = stats();
      const mine = await page(server.baseUrl, CANADA, { Cookie: session.cookie });
      const again = await page(server.baseUrl, CANADA, { Cookie: session.cookie });
      expect(since(before, stats())).toMatchObject({ misses: 0, hits: 0, joined: 0 });
      expect(mine.headers.get('cache-control')).toBe('private, no-cache');
      expect(mine.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      expect(mine.html).toContain('"isGuest":false');
      expect(again.html).toContain('"isGuest":false');
      // The guest's page is still the guest's (a hit), not the signed-in one.
      const guest = await page(server.baseUrl, CANADA);
      expect(guest.html).toContain('"isGuest":true');
      expect(guest.html).not.toContain(session.userId);
      expect(since(before, stats())).toMatchObject({ misses: 0, hits: 1 });
      // A request with credentials of another kind is not a guest's either.
      const authorized = await page(server.baseUrl, CANADA, { Authorization: 'Bearer x' });
      expect(authorized.headers.get('cache-control')).toBe('private, no-cache');
      expect(since(before, stats())).toMatchObject({ misses: 0, hits: 1 });
    });

    for (const [what, change] of Object.entries(CHANGES)) {
      it(`shows a change to ${what === 'seo' ? 'the SEO settings' : `the ${what}`} on the very next request`, async () => {
        await page(server.baseUrl, '/');
        const warm = await page(server.baseUrl, '/');
        const text = `Changed ${what} ${randomBytes(3).toString('hex')}`;
        expect(warm.html).not.toContain(text);
        const before = stats();
        await change(server.db, text);
        const after = await page(server.baseUrl, '/');
        expect(since(before, stats()).invalidations).toBeGreaterThan(0);
        expect(after.html).toContain(text);
        expect(after.headers.get('etag')).not.toBe(warm.headers.get('etag'));
      });
    }

    it('does not keep a page that shows a default for a failed query, nor one rendered with a cookie', async () => {
      let failing = true;
      let cookie = false;
      const handler = pageHandler({
        webRoot: resolve(ROOT, 'dist/web'),
        fetchApi: async (request, env) => {
          if (failing && new URL(request.url).pathname.includes('/cms/delivery/')) {
            return new Response('[{"errorCode":"SERVICE_UNAVAILABLE","message":"down"}]', {
              status: 503,
              headers: { 'Content-Type': 'application/json' },
            });
          }
          const response = await server.app.fetch(request, env as never);
          if (!cookie) return response;
          const withCookie = new Response(response.body, response);
          withCookie.headers.append('Set-Cookie', 'guest=1; Path=/; HttpOnly');
          return withCookie;
        },
        changes: publicPageChanges(server.db),
        env: {},
      });
      const app = new Hono().get('/', handler);
      const get = async () => {
        const response = await app.request(`${server.baseUrl}/`);
        await response.text();
        return response;
      };
      await get();
      await get();
      expect(handler.cache!.stats).toMatchObject({ misses: 2, hits: 0 });
      failing = false;
      cookie = true;
      const withCookie = await get();
      expect(withCookie.headers.getSetCookie()).toContain('guest=1; Path=/; HttpOnly');
      await get();
      expect(handler.cache!.stats).toMatchObject({ misses: 4, hits: 0 });
      cookie = false;
      await get();
      const kept = await get();
      expect(kept.headers.getSetCookie()).toEqual([]);
      expect(handler.cache!.stats).toMatchObject({ misses: 5, hits: 1 });
    });

    /** A page handler of its own over the server's API, counting the API calls its renders make, by path. */
    function countingHandler(env: NodeJS.ProcessEnv) {
      const calls: string[] = [];
      const handler = pageHandler({
        webRoot: resolve(ROOT, 'dist/web'),
        fetchApi: (request, env) => {
          calls.push(new URL(request.url).pathname);
          return server.app.fetch(request, env as never);
        },
        changes: publicPageChanges(server.db),
        env,
      });
      const app = new Hono().get('/', handler);
      const render = async (path: string) => {
        calls.length = 0;
        const html = await (await app.request(`${server.baseUrl}${path}`)).text();
        return { html, calls: [...calls] };
      };
      return { handler, render };
    }

    it('renders every page afresh with PAGE_CACHE=off, from the data kept for guests, the guest session included', async () => {
      const { handler, render } = countingHandler({ PAGE_CACHE: 'off' });
      const first = await render(CANADA);
      expect(first.calls.length).toBeGreaterThan(5);
      expect(first.calls).toContain('/services/auth/session');
      const second = await render(CANADA);
      expect(second.calls).toEqual([]);
      expect(second.html).toContain('Showing 1–');
      expect(second.html).toContain('"isGuest":true');
      // Another address needs its own contacts only.
      const other = await render('/?country=Mexico');
      expect(other.calls).toEqual(['/lwr/apex/v65.0/APT_ContactUsController/getContacts']);
      expect(handler.cache!.stats).toMatchObject({ misses: 3, hits: 0 });

      // A change of the content evicts the content's data alone: the next render asks for it again, and shows it.
      const text = `Changed again ${randomBytes(3).toString('hex')}`;
      await CHANGES.content(server.db, text);
      const after = await render(CANADA);
      // One call: the banner's picture comes among the collection's references.
      expect(after.calls).toEqual(['/services/data/v65.0/connect/sites/0DM8d0000000001GAA/cms/delivery/contents']);
      expect(after.html).toContain(text);
      expect((await render(CANADA)).calls).toEqual([]);
      // A change of the SEO settings the SEO properties alone.
      const title = `Title ${randomBytes(3).toString('hex')}`;
      await CHANGES.seo(server.db, title);
      const seo = await render(CANADA);
      expect(seo.calls).toEqual([expect.stringMatching(/\/seo\/properties\/contact_us$/)]);
      expect(seo.html).toContain(`<title>${title}`);
      // A change of the object metadata everything.
      await server.db.query(`UPDATE sobject SET definition = definition WHERE api_name = 'APT_Contact_Us__c'`);
      expect((await render(CANADA)).calls.length).toBeGreaterThan(5);
    });

    it('keeps the reference data and the session alone with PAGE_CACHE=cold, and no data for a signed-in visitor', async () => {
      const { render } = countingHandler({ PAGE_CACHE: 'cold' });
      const first = await render(CANADA);
      const again = await render(CANADA);
      // The object's metadata, its brand picklist, the country-to-states map and the guest's session are asked
      // for once.
      const reference = [
        `/services/data/v65.0/ui-api/object-info/APT_Contact_Us__c`,
        expect.stringMatching(/^\/services\/data\/v65\.0\/ui-api\/object-info\/APT_Contact_Us__c\/picklist-values\//),
        '/lwr/apex/v65.0/APT_ContactUsController/getDependentStatePicklistsValues',
        '/services/auth/session',
      ];
      expect(first.calls).toEqual(expect.arrayContaining(reference));
      for (const call of reference) expect(again.calls).not.toContainEqual(call);
      expect(again.html).toContain('"isGuest":true');
      // The page's own data every time: the contacts, the content and the SEO properties.
      expect(again.calls).toEqual(
        expect.arrayContaining([
          '/lwr/apex/v65.0/APT_ContactUsController/getDefaultContacts',
          '/lwr/apex/v65.0/APT_ContactUsController/getContacts',
          expect.stringMatching(/\/cms\/delivery\/contents$/),
          expect.stringMatching(/\/seo\/properties\/contact_us$/),
        ]),
      );
      expect(again.calls).toHaveLength(first.calls.length - reference.length);

      const session = await signIn(server, 'standard');
      const { handler } = countingHandler({ PAGE_CACHE: 'off' });
      const app = new Hono().get('/', handler);
      const signedIn = async () =>
        (await app.request(`${server.baseUrl}${CANADA}`, { headers: { Cookie: session.cookie } })).text();
      await signedIn();
      expect(await signedIn()).toContain('"isGuest":false');
      expect(handler.data!.size).toBe(0);
      // The guest session kept for guests is theirs only.
      await app.request(`${server.baseUrl}${CANADA}`);
      expect(handler.data!.size).toBeGreaterThan(0);
      const after = await signedIn();
      expect(after).toContain('"isGuest":false');
      expect(after).not.toContain('"isGuest":true');
    });
  },
);

interface Instance {
  db: Database;
  app: ReturnType<typeof createSite>;
  baseUrl: string;
  close(): Promise<void>;
}

/** One more server on a database that another test server already opened, migrated and seeded. */
async function startInstance(connectionString: string): Promise<Instance> {
  const db = await openDatabase(
    { databaseUrl: connectionString, dataDir: ':memory:', demoContacts: 0 },
    { log: () => {} },
  );
  const app = createSite(db, { limits: { publicRequestsPerMinute: 0, signInAttemptsPerWindow: 0 } });
  const server = await new Promise<ReturnType<typeof serve>>((done, fail) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => done(started));
    started.once('error', fail);
  });
  return {
    db,
    app,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await db.close();
    },
  };
}

describe.skipIf(!CACHES_ON || !databases().includes('postgres'))(
  'guest pages kept by two servers on one PostgreSQL database (needs PostgreSQL: set TEST_DATABASE_URL and the caches on: not CACHES=off)',
  () => {
    let a: TestServer;
    let b: Instance;

    beforeAll(async () => {
      a = await startTestServer({ database: 'postgres', demoContacts: 60 });
      const { rows } = await a.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      b = await startInstance(withSearchPath(process.env.TEST_DATABASE_URL!, rows[0].schema));
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    for (const [what, change] of Object.entries(CHANGES)) {
      it(`a change to ${what === 'seo' ? 'the SEO settings' : `the ${what}`} made through one server empties the other’s pages`, async () => {
        const reader = b.app.pageCache!;
        await page(b.baseUrl, '/');
        const before = { ...reader.stats };
        const warm = await page(b.baseUrl, '/');
        expect(since(before, reader.stats)).toMatchObject({ hits: 1, misses: 0 });

        const text = `Across ${what} ${randomBytes(3).toString('hex')}`;
        await change(a.db, text);
        await until(() => reader.stats.invalidations > before.invalidations, 5_000, 'the notification');
        const after = await page(b.baseUrl, '/');
        expect(after.html).toContain(text);
        expect(warm.html).not.toContain(text);
        expect(since(before, reader.stats)).toMatchObject({ hits: 1, misses: 1 });
      });
    }
  },
);
