/**
 * The site's files that are not operations of the contract: a representative's vCard (/reps/{recordId}/vcard),
 * and the sitemap. What an address does not name (a malformed Id, a representative no more) is the app's not
 * found: the site's page for a browser, the API's 404 otherwise.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/sessions/principal.ts';
import type { Database } from '../db/connection.ts';
import { representativeIdOf, representativePath, REPRESENTATIVE_PREFIX } from '../../common/pages.ts';
import { getContact } from '../storefront/locator.ts';
import { ApexError } from '../storefront/apex-error.ts';
import { representativeVcard, vcardDisposition } from '../storefront/vcard.ts';

export function siteFileRoutes(db: Database) {
  const app = new Hono<AppEnv>();

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
      'Content-Disposition': vcardDisposition(representative.APT_Company_Name__c),
      // Made from the record at each request: a browser asks again rather than keep an old copy.
      'Cache-Control': 'no-cache',
    });
  });

  return app;
}
