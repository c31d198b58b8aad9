/**
 * A Contact Us write evicts only what it touches (migration 023, server/cache/contact-changes.ts): an update of
 * a Texas representative evicts the Texas locator page and answer, and keeps `/` (which shows no
 * representative) and Ohio's; a move from Texas to Ohio evicts both; a change of the default contact evicts
 * `/`; a change of the content still evicts every page. Kept or not is read from the caches' counters: a hit or
 * a miss for the one request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultCache, ResultCacheStats } from '../../server/cache/result-cache.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';
import { BRANDS } from '../../server/storefront/demo-contacts.ts';
import { HEADING } from '../support/content.ts';
import type { Queryable } from '../../server/db/connection.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';

const BRAND = BRANDS[0];
const page = (state: string) => `/?${new URLSearchParams({ country: 'United States', state })}`;
const answer = (state: string) =>
  `/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${encodeURIComponent(
    JSON.stringify({ country: 'United States', state, brands: [BRAND], lastRecordId: null }),
  )}`;

describe.skipIf(!CACHES_ON).each(databases())(
  'what a write evicts on %s (needs the caches on: not CACHES=off)',
  (kind) => {
    let server: TestServer;
    let texan: string;
    let ohioan: string;

    /** Whether a GET of path was answered from cache (a hit), or made anew (a miss); fails on anything else. */
    async function kept(cache: ResultCache, path: string): Promise<boolean> {
      const before: ResultCacheStats = { ...cache.stats };
      const response = await fetch(server.baseUrl + path, { redirect: 'manual' });
      await response.text();
      expect(response.status, path).toBe(200);
      const hits = cache.stats.hits - before.hits;
      const misses = cache.stats.misses - before.misses;
      expect(hits + misses, path).toBe(1);
      return hits === 1;
    }
    const pageKept = (path: string) => kept(server.app.pageCache!, path);
    const answerKept = (path: string) => kept(server.app.locatorCache, path);

    /** Asks every page and answer once, so that each is kept. */
    async function warm() {
      for (const path of ['/', page('Texas'), page('Ohio')]) await pageKept(path);
      for (const path of [answer('Texas'), answer('Ohio')]) await answerKept(path);
    }

    async function place(id: string, state: string) {
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Country__c', 'United States', 'APT_UI_Country__c', 'United States', 'APT_Primary_State__c', $2::text, 'APT_Brand__c', $3::text)
         WHERE id = $1`,
        [id, state, BRAND],
      );
    }

    beforeAll(async () => {
      server = await startTestServer({ database: kind, demoContacts: 60 });
      const { rows } = await server.db.query<{ id: string }>(
        `SELECT id FROM record WHERE object_api_name = 'APT_Contact_Us__c'
           AND fields ->> 'APT_Default_Contact__c' IS DISTINCT FROM 'true' ORDER BY id LIMIT 2`,
      );
      [texan, ohioan] = rows.map((row) => row.id);
      await place(texan, 'Texas');
      await place(ohioan, 'Ohio');
    });
    afterAll(() => server?.close());

    it('a Texas update evicts the Texas page and answer, and keeps `/` and Ohio’s', async () => {
      await warm();
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Phone__c', '512-555-0199') WHERE id = $1`,
        [texan],
      );
      expect(await pageKept('/')).toBe(true);
      expect(await pageKept(page('Ohio'))).toBe(true);
      expect(await answerKept(answer('Ohio'))).toBe(true);
      expect(await pageKept(page('Texas'))).toBe(false);
      expect(await answerKept(answer('Texas'))).toBe(false);
      // Made anew, and kept again.
      expect(await pageKept(page('Texas'))).toBe(true);
    });

    it('a Texas update evicts the nearest answers of its brands, and keeps the others and the place suggestions', async () => {
      const nearest = (brands: string[]) =>
        `/lwr/apex/v65.0/APT_ContactUsController/getNearestContacts?methodParams=${encodeURIComponent(
          JSON.stringify({ latitude: 30.26715, longitude: -97.74306, brands }),
        )}`;
      const suggestions = `/lwr/apex/v65.0/APT_ContactUsController/getPlaceSuggestions?methodParams=${encodeURIComponent(
        JSON.stringify({ prefix: 'aus' }),
      )}`;
      for (const path of [nearest([BRAND]), nearest([BRANDS[1]]), nearest([]), suggestions]) await answerKept(path);
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Phone__c', '512-555-0198') WHERE id = $1`,
        [texan],
      );
      expect(await answerKept(nearest([BRANDS[1]]))).toBe(true);
      expect(await answerKept(suggestions)).toBe(true);
      expect(await answerKept(nearest([BRAND]))).toBe(false);
      expect(await answerKept(nearest([]))).toBe(false);
    });

    it('a move from Texas to Ohio evicts both, and keeps `/`', async () => {
      await warm();
      await place(texan, 'Ohio');
      expect(await pageKept('/')).toBe(true);
      expect(await pageKept(page('Texas'))).toBe(false);
      expect(await pageKept(page('Ohio'))).toBe(false);
      expect(await answerKept(answer('Texas'))).toBe(false);
      expect(await answerKept(answer('Ohio'))).toBe(false);
      await place(texan, 'Texas');
    });

    it('a change of the default contact evicts `/` and the default contacts, and keeps the Texas answer', async () => {
      await warm();
      await pageKept('/');
      const defaults = '/lwr/apex/v65.0/APT_ContactUsController/getDefaultContacts';
      await answerKept(defaults);
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Company_Name__c', 'Default, renamed')
         WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Default_Contact__c' = 'true'`,
      );
      expect(await answerKept(answer('Texas'))).toBe(true);
      // Before the page: its render asks for the default contacts again.
      expect(await answerKept(defaults)).toBe(false);
      expect(await pageKept('/')).toBe(false);
    });

    it('a representative’s page is evicted by a change of that record only', async () => {
      const mine = `/reps/${texan}`;
      await pageKept(mine);
      expect(await pageKept(mine)).toBe(true);
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Phone__c', '614-555-0123') WHERE id = $1`,
        [ohioan],
      );
      expect(await pageKept(mine)).toBe(true);
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Phone__c', '512-555-0123') WHERE id = $1`,
        [texan],
      );
      expect(await pageKept(mine)).toBe(false);
      const html = await (await fetch(server.baseUrl + mine)).text();
      expect(html).toContain('tel:+15125550123');
    });

    it('a change of the content evicts every page', async () => {
      await warm();
      await server.db.query(
        `UPDATE managed_content SET content_body = jsonb_set(content_body, '{text}', to_jsonb('Renamed heading'::text)) WHERE content_key = $1`,
        [HEADING.key],
      );
      expect(await pageKept('/')).toBe(false);
      expect(await pageKept(page('Ohio'))).toBe(false);
    });

    it('notifies each side and the id of each changed row, and `*` past 100 rows', async () => {
      const heard: (string | null)[] = [];
      const listening = await server.db.listen('contact_us_changed', (payload) => heard.push(payload));
      try {
        await place(texan, 'Ohio');
        await place(texan, 'Texas');
        expect(heard.map((payload) => JSON.parse(payload!) as unknown)).toEqual([
          [[['United States', 'Texas', [BRAND], false], ['United States', 'Ohio', [BRAND], false], texan]],
          [[['United States', 'Ohio', [BRAND], false], ['United States', 'Texas', [BRAND], false], texan]],
        ]);
        heard.length = 0;
        // 101 copies of a representative, inserted and deleted in one statement each.
        const copies = `SELECT 'zz' || lpad(n::text, 16, '0') AS id FROM generate_series(1, 101) AS n`;
        await server.db.query(
          `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
           SELECT c.id, r.object_api_name, r.record_type_id, r.fields, r.created_date, r.created_by_id, r.last_modified_date, r.last_modified_by_id, r.system_modstamp
           FROM record r, (${copies}) AS c WHERE r.id = $1`,
          [texan],
        );
        await server.db.query(`DELETE FROM record WHERE id IN (${copies})`);
        expect(heard).toEqual(['*', '*']);
      } finally {
        await listening.unlisten();
      }
    });

    it('passes a write of another object before the Contact Us triggers’ work (migration 031)', async () => {
      const [account] = (
        await server.db.query<{ id: string }>(
          `SELECT id FROM record WHERE object_api_name = 'Account' ORDER BY id LIMIT 1`,
        )
      ).rows;
      const copy = 'zz0000000000000001';
      /** An Account inserted (a copy), updated and deleted: each statement's Contact Us triggers run. */
      async function writeAccount(tx: Queryable) {
        await tx.query(
          `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
           SELECT $2, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp
           FROM record WHERE id = $1`,
          [account.id, copy],
        );
        await tx.query(`UPDATE record SET fields = fields || '{"Description": "Changed"}' WHERE id = $1`, [account.id]);
        await tx.query(`DELETE FROM record WHERE id = $1`, [copy]);
      }
      const writeRepresentative = (tx: Queryable) =>
        tx.query(`UPDATE record SET fields = fields || '{"APT_Fax__c": "000"}' WHERE id = $1`, [texan]);
      /** Runs fn in a transaction that is rolled back: nothing it writes stays. */
      const rolledBack = new Error('rolled back');
      const undone = (fn: (tx: Queryable) => Promise<unknown>) =>
        server.db
          .transaction(async (tx) => {
            await fn(tx);
            throw rolledBack;
          })
          .catch((error: unknown) => {
            if (error !== rolledBack) throw error;
          });

      // The notifications: how often each function ran, as PostgreSQL counts PL/pgSQL functions' calls.
      const calls = async (tx: Queryable) =>
        Object.fromEntries(
          (
            await tx.query<{ funcname: string; calls: number }>(
              `SELECT funcname, calls::int FROM pg_stat_xact_user_functions WHERE funcname LIKE 'notify_contact_us_%'`,
            )
          ).rows.map((row) => [row.funcname, row.calls]),
        );
      const counted: Record<string, number>[] = [];
      await undone(async (tx) => {
        await tx.query(`SET LOCAL track_functions = 'pl'`);
        await writeAccount(tx);
        counted.push(await calls(tx));
        // A representative's update makes its payload (and its history rows' insert none).
        await writeRepresentative(tx);
        counted.push(await calls(tx));
      });
      expect(counted).toEqual([
        { notify_contact_us_inserted: 1, notify_contact_us_updated: 1, notify_contact_us_deleted: 1 },
        {
          notify_contact_us_inserted: 2,
          notify_contact_us_updated: 2,
          notify_contact_us_deleted: 1,
          notify_contact_us_payload: 1,
        },
      ]);

      // The locator's counts: with their table away, an Account's writes still go through, a representative's not.
      const countsAway = `ALTER TABLE contact_us_locator_count RENAME TO contact_us_locator_count_away`;
      await undone(async (tx) => {
        await tx.query(countsAway);
        await writeAccount(tx);
      });
      await expect(
        undone(async (tx) => {
          await tx.query(countsAway);
          await writeRepresentative(tx);
        }),
      ).rejects.toThrow(/contact_us_locator_count/);
    });

    it('a change of every representative evicts every answer', async () => {
      await warm();
      await server.db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Fax__c', '000') WHERE object_api_name = 'APT_Contact_Us__c'`,
      );
      // 60 contacts: under the bound, so only those touched; every state of them, so Texas and Ohio too.
      expect(await answerKept(answer('Texas'))).toBe(false);
      expect(await answerKept(answer('Ohio'))).toBe(false);
    });
  },
  120_000,
);
