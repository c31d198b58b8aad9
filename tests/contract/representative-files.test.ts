/**
 * A representative's files, over real HTTP on every test database: its vCard (/reps/{recordId}/vcard), and the
 * sitemap that lists every representative's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
