/**
 * The site's files that are not operations of the contract: a representative's vCard (/reps/{recordId}/vcard),
 * the sitemap, and /robots.txt. What an address does not name (a malformed Id, a representative no more) is the app's not
 * found: the site's page for a browser, the API's 404 otherwise.
 */
import { Hono, type Context } from 'hono';
import { stream } from 'hono/streaming';
import type { AppEnv } from '../http/sessions/principal.ts';
import type { Database } from '../db/connection.ts';
import { representativeIdOf, representativePath, REPRESENTATIVE_PREFIX } from '../../common/pages.ts';
import { getContact } from '../storefront/locator.ts';
import { ApexError } from '../storefront/apex-error.ts';
import { representativeVcard } from '../storefront/vcard.ts';
import { attachmentDisposition } from '../http/answers/attachment.ts';
import {
  representativeCount,
  SITEMAP_MAX_URLS,
  sitemapFile,
  sitemapFileCount,
  sitemapIndex,
} from '../storefront/sitemap.ts';

/** /robots.txt (RFC 9309): all allowed, and where the sitemap is. */
function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;
}

const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-cache' };

export function siteFileRoutes(db: Database, { sitemapMaxUrls = SITEMAP_MAX_URLS }: { sitemapMaxUrls?: number } = {}) {
  const app = new Hono<AppEnv>();

  /** File n of the sitemap, streamed as its rows are read. */
  const sitemapAnswer = (c: Context, n: number) => {
    const origin = new URL(c.req.url).origin;
    for (const [name, value] of Object.entries(XML_HEADERS)) c.header(name, value);
    return stream(c, async (out) => {
      for await (const part of sitemapFile(db, origin, n, sitemapMaxUrls)) await out.write(part);
    });
  };

  // The sitemap itself while one file holds every URL; else the index of the files.
  app.get('/sitemap.xml', async (c) => {
    const files = sitemapFileCount(await representativeCount(db), sitemapMaxUrls);
    if (files === 1) return sitemapAnswer(c, 1);
    return c.body(sitemapIndex(new URL(c.req.url).origin, files), 200, XML_HEADERS);
  });

  // Every crawler may read every page; the sitemap's address is absolute, on the request's origin as its URLs are.
  app.get('/robots.txt', (c) =>
    c.body(robotsTxt(new URL(c.req.url).origin), 200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-cache',
    }),
  );

  app.get('/:file{sitemap-reps-[1-9][0-9]{0,6}\\.xml}', async (c) => {
    const n = Number(/\d+/.exec(c.req.param('file'))![0]);
    if (n > sitemapFileCount(await representativeCount(db), sitemapMaxUrls)) return c.notFound();
    return sitemapAnswer(c, n);
  });

  app.get(`${REPRESENTATIVE_PREFIX}:recordId/vcard`, async (c) => {
    const recordId = representativeIdOf(representativePath(c.req.param('recordId')));
    if (recordId === null) return c.notFound();
    let representative;
    try {
      representative = await getContact(db, recordId);
    } catch (error) {
      if (error instanceof ApexError && error.status !== 500) return c.notFound();
      throw error;
    }
    const pageUrl = new URL(representativePath(representative.Id), c.req.url).href;
    return c.body(representativeVcard(representative, pageUrl), 200, {
      'Content-Type': 'text/vcard; charset=utf-8',
      'Content-Disposition': attachmentDisposition(representative.APT_Company_Name__c, 'vcf', 'representative'),
      // Made from the record at each request: a browser asks again rather than keep an old copy.
      'Cache-Control': 'no-cache',
    });
  });

  return app;
}
