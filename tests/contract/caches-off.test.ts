/**
 * CACHES=off (server/cache/switch.ts) turns every data cache off: run with it (CI runs the contract suite so
 * once), this shows that nothing is kept — the locator's answers, guests' pages, signed-in users' answers,
 * sessions, image variants — while every answer is still right. Skipped when caches are on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHES_ON } from '../../server/cache/switch.ts';
import { variantCacheStats } from '../../server/content/media.ts';
import { contactsUrl, CONTACT_US, query, UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { BANNER_FILE, BANNER_VERSION } from '../support/content.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

for (const kind of databases()) {
  describe.skipIf(CACHES_ON)(`every cache off on ${kind} (needs CACHES=off)`, () => {
    let server: TestServer;
    let admin: TestSession;

    beforeAll(async () => {
      server = await startTestServer({ database: kind, demoContacts: 30 });
      admin = await signIn(server, 'admin');
    });
    afterAll(() => server?.close());

    it("computes every locator answer and renders every guest's page afresh", async () => {
      expect(server.app.locatorCache.enabled).toBe(false);
      expect(server.app.pageCache?.enabled).toBe(false);
      const url = contactsUrl(server.baseUrl, query({ country: 'Canada' }));
      const before = server.app.locatorCache.stats.misses;
      for (let call = 0; call < 3; call++) expect((await callOperation('getContacts', url)).status).toBe(200);
      expect(server.app.locatorCache.stats.misses - before).toBe(3);
      expect(server.app.locatorCache.size.entries).toBe(0);
      for (let visit = 0; visit < 2; visit++)
        expect((await fetch(`${server.baseUrl}/?country=Canada`)).status).toBe(200);
      expect(server.app.pageCache?.size.entries).toBe(0);
    });

    it("answers a signed-in user's repeated reads through the router, every time", async () => {
      const objectInfo = `${server.baseUrl}${UI_API}/object-info/${CONTACT_US}`;
      const record = `${server.baseUrl}${UI_API}/records/a1C8d0000000001EAA?fields=${CONTACT_US}.Name`;
      for (let read = 0; read < 3; read++) {
        expect((await callOperation('getObjectInfo', objectInfo, { headers: admin.headers })).status).toBe(200);
        expect((await callOperation('getRecord', record, { headers: admin.headers })).status).toBe(200);
      }
      expect(server.app.answerCache.answered).toBe(0);
    });

    it('encodes an image variant at every request', async () => {
      const url = `${server.baseUrl}/cdn-cgi/image/width=${kind === 'pglite' ? 703 : 704}/sfsites/c/img/${BANNER_FILE}?version=${BANNER_VERSION}`;
      const before = variantCacheStats();
      for (let request = 0; request < 2; request++)
        expect((await fetch(url, { headers: { Accept: 'image/webp' } })).status).toBe(200);
      const after = variantCacheStats();
      expect(after.encoded - before.encoded).toBe(2);
      expect(after.entries).toBe(0);
    });
  });
}
