/**
 * A representative's files, over real HTTP on every test database: its vCard (/reps/{recordId}/vcard), the
 * sitemap that lists every representative's page, and /robots.txt, which names the sitemap.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareBytes } from '../support/api.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { storedContacts, type StoredContact } from '../support/api.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';

describe.each(databases())('a representative’s files on %s', (kind) => {
  let server: TestServer;
  let all: StoredContact[];

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 30 });
    all = await storedContacts(server.db);
  });
  afterAll(() => server?.close());

  describe('the vCard', () => {
    it('is text/vcard, an attachment named after the company, with the record and its page', async () => {
      const contact = all[4];
      const response = await fetch(`${server.baseUrl}/reps/${contact.id}/vcard`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="[^"]+\.vcf"; filename\*=UTF-8''/,
      );
      const card = await response.text();
      const lines = card.replace(/\r\n /g, '').split('\r\n');
      expect(lines[0]).toBe('BEGIN:VCARD');
      expect(lines).toContain('VERSION:4.0');
      expect(lines).toContain(`URL:${server.baseUrl}/reps/${contact.id}`);
      expect(lines.find((line) => line.startsWith('FN:'))).toBe(
        `FN:${String(contact.fields.APT_Company_Name__c).replace(/[\\,;]/g, (char) => `\\${char}`)}`,
      );
    });

    it('names a non-ASCII company in UTF-8, and folds its lines by octets', async () => {
      const contact = all[5];
      const name = 'Électricité Générale du Québec – Société Coopérative Énergie Nord-Süd 😀';
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Company_Name__c', $2::text) WHERE id = $1`,
        [contact.id, name],
      );
      const response = await fetch(`${server.baseUrl}/reps/${contact.id.slice(0, 15)}/vcard`);
      expect(response.status).toBe(200);
      const disposition = response.headers.get('content-disposition')!;
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(`${name}.vcf`)}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      const card = bytes.toString('utf8');
      for (const line of card.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(card.replace(/\r\n /g, '')).toContain(`FN:${name}\r\n`);
    });

    it('is not found for an Id of no representative, or a malformed one', async () => {
      for (const id of [makeId('a1C', 999_999), '0058d0000000002AAA', 'abc', `${all[0].id.slice(0, 15)}ZZZ`]) {
        const response = await fetch(`${server.baseUrl}/reps/${id}/vcard`);
        expect(response.status, id).toBe(404);
        await response.body?.cancel();
      }
    });
  });

  describe('the sitemap', () => {
    const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });
    /** A sitemap file's URLs, after checking it is well-formed XML in the protocol's namespace. */
    async function urlsOf(path: string, base = server.baseUrl): Promise<string[]> {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const { urlset } = parser.parse(xml) as { urlset: { '@_xmlns'?: string; url?: { loc: string }[] } };
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      return (urlset.url ?? []).map((entry) => entry.loc);
    }
    const expected = (base: string) => [
      `${base}/`,
      ...all
        .map((contact) => contact.id)
        .sort(compareBytes)
        .map((id) => `${base}/reps/${id}`),
    ];

    it('lists the Contact Us page and every representative’s page, absolute on the request’s origin', async () => {
      expect(await urlsOf('/sitemap.xml')).toEqual(expected(server.baseUrl));
    });

    it('follows a change: a new representative is listed, a deleted one is not', async () => {
      const gone = all.at(-1)!;
      await server.db.query('DELETE FROM record WHERE id = $1', [gone.id]);
      all = all.slice(0, -1);
      const urls = await urlsOf('/sitemap.xml');
      expect(urls).not.toContain(`${server.baseUrl}/reps/${gone.id}`);
      expect(urls).toHaveLength(all.length + 1);
    });

    it('is named by /robots.txt, which allows every page, at its absolute URL on the request’s origin', async () => {
      const other = server.baseUrl.replace('127.0.0.1', 'localhost');
      for (const base of [server.baseUrl, other]) {
        const response = await fetch(`${base}/robots.txt`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        const lines = (await response.text()).split('\n');
        expect(lines).toEqual(['User-agent: *', 'Allow: /', '', `Sitemap: ${base}/sitemap.xml`, '']);
        const sitemap = lines.find((line) => line.startsWith('Sitemap: '))!.slice('Sitemap: '.length);
        expect(await urlsOf(new URL(sitemap).pathname, new URL(sitemap).origin)).toEqual(expected(base));
      }
    });

    describe('past the URLs one file holds', () => {
      let small: TestServer;
      beforeAll(async () => {
        small = await startTestServer({ database: kind, demoContacts: 25, app: { sitemapMaxUrls: 10 } });
      });
      afterAll(() => small?.close());

      it('is an index of files of 10 URLs at most, which together list every page once, in order', async () => {
        const response = await fetch(`${small.baseUrl}/sitemap.xml`);
        expect(response.status).toBe(200);
        const xml = await response.text();
        expect(XMLValidator.validate(xml)).toBe(true);
        expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
        const { sitemapindex } = parser.parse(xml) as { sitemapindex: { sitemap: { loc: string }[] } };
        const files = sitemapindex.sitemap.map((entry) => entry.loc);
        // 25 representatives and the Contact Us page: 26 URLs, 3 files.
        expect(files).toEqual([1, 2, 3].map((n) => `${small.baseUrl}/sitemap-reps-${n}.xml`));
        const listed: string[] = [];
        for (const file of files) {
          const urls = await urlsOf(new URL(file).pathname, small.baseUrl);
          expect(urls.length).toBeLessThanOrEqual(10);
          listed.push(...urls);
        }
        const ids = (await storedContacts(small.db)).map((contact) => contact.id).sort(compareBytes);
        expect(listed).toEqual([`${small.baseUrl}/`, ...ids.map((id) => `${small.baseUrl}/reps/${id}`)]);
      });

      it('has no file past the last', async () => {
        for (const path of ['/sitemap-reps-4.xml', '/sitemap-reps-0.xml']) {
          const response = await fetch(small.baseUrl + path);
          expect(response.status, path).toBe(404);
          await response.body?.cancel();
        }
      });
    });
  });
});
