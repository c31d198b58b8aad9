/**
 * The locator's server-method result cache: repeated calls are answered from it (its counters say so, not
 * timing), a change to a contact in the database is seen on the very next call, and, on PostgreSQL, a
 * change made through one server is seen by another server on the same database as soon as the database's
 * notification reaches it. Plus the cache's own rules (bounds, expiry, changes during a computation).
 */
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import type { Database, Listening } from '../../server/db/connection.ts';
import { openDatabase } from '../../server/bootstrap.ts';
import {
  locatorResultCache,
  ResultCache,
  type HeardChange,
  type ResultCacheStats,
} from '../../server/cache/result-cache.ts';
import { contactsUrl, matches, query, storedContacts, type ContactsQuery } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { rawGet } from '../support/raw-http.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

interface ContactsResult {
  contacts: ({ Id: string } & Record<string, string | null>)[];
  totalRecords: number;
}

const TEXAS = query({ country: 'United States', state: 'Texas' });
const CANADA = query({ country: 'Canada' });

/** An answer's ETag: the first 32 hex digits of its body's SHA-1. */
const answerEtag = (text: string) => `"${createHash('sha1').update(text).digest('hex').slice(0, 32)}"`;

/** Waits until condition() holds, checking every 10 ms, at most timeoutMs. */
async function until(condition: () => boolean, timeoutMs = 5_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The counters' change since a snapshot. */
function since(before: ResultCacheStats, now: ResultCacheStats): ResultCacheStats {
  return {
    hits: now.hits - before.hits,
    replayed: now.replayed - before.replayed,
    joined: now.joined - before.joined,
    misses: now.misses - before.misses,
    invalidations: now.invalidations - before.invalidations,
    evictions: now.evictions - before.evictions,
  };
}

async function getContacts(baseUrl: string, q: ContactsQuery, init?: RequestInit) {
  const response = await callOperation<ContactsResult>('getContacts', contactsUrl(baseUrl, q), init);
  expect(response.status).toBe(200);
  return response;
}

describe.each(databases())('the locator result cache on %s', (kind) => {
  let server: TestServer;
  const stats = () => ({ ...server.app.locatorCache.stats });

  beforeAll(async () => {
    server = await startTestServer({ database: kind });
  });
  afterAll(() => server?.close());

  it.skipIf(!CACHES_ON)(
    'answers repeated calls from the cache: one computation, then hits with the same body and ETag (needs the caches on: not CACHES=off)',
    async () => {
      const before = stats();
      const first = await getContacts(server.baseUrl, CANADA);
      const again = [];
      for (let call = 0; call < 4; call++) again.push(await getContacts(server.baseUrl, CANADA));
      expect(since(before, stats())).toMatchObject({ misses: 1, hits: 4 });
      for (const response of again) {
        expect(response.text).toBe(first.text);
        for (const name of ['etag', 'cache-control', 'content-type'])
          expect(response.headers.get(name), name).toBe(first.headers.get(name));
      }
      // The ETag stored with the entry is the one the HTTP layer would compute from the body (fetch asks for
      // gzip: the gzipped representation's ETag is the same with -gzip).
      expect(first.headers.get('etag')).toBe(answerEtag(first.text).replace(/"$/, '-gzip"'));
      expect(first.headers.get('cache-control')).toMatch(/max-age=300/);
    },
  );

  it('sends cached answers gzipped to clients that accept gzip, and plain to the others, varying on Accept-Encoding', async () => {
    const url = contactsUrl(server.baseUrl, CANADA);
    await getContacts(server.baseUrl, CANADA);
    const raw = (acceptEncoding: string) => rawGet(url, { 'Accept-Encoding': acceptEncoding });
    const plain = await raw('identity');
    const zipped = await raw('br;q=1, gzip;q=0.8');
    const refused = await raw('gzip;q=0, identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    for (const answer of [plain, zipped]) expect(answer.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.headers.etag).toBe(answerEtag(plain.body.toString()));
    expect(zipped.headers.etag).toBe(String(plain.headers.etag).replace(/"$/, '-gzip"'));
    // Either ETag names the same content: a conditional GET with the other one is still a 304.
    const crossed = await fetch(url, {
      headers: { 'If-None-Match': String(plain.headers.etag), 'Accept-Encoding': 'gzip' },
    });
    expect(crossed.status).toBe(304);
  });

  it.skipIf(!CACHES_ON)(
    'answers a conditional GET with 304 from the cache (needs the caches on: not CACHES=off)',
    async () => {
      const { headers } = await getContacts(server.baseUrl, CANADA);
      const before = stats();
      const response = await fetch(contactsUrl(server.baseUrl, CANADA), {
        headers: { 'If-None-Match': headers.get('etag')! },
      });
      expect(response.status).toBe(304);
      expect(since(before, stats())).toMatchObject({ misses: 0, hits: 1 });
    },
  );

  it('checks the headers of a repeated request before answering it from the cache', async () => {
    await getContacts(server.baseUrl, CANADA);
    const before = stats();
    const response = await callOperation<{ errorMessage: string }>('getContacts', contactsUrl(server.baseUrl, CANADA), {
      headers: { 'X-SFDC-Allow-Continuation': 'maybe' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errorMessage).toMatch(/x-sfdc-allow-continuation/i);
    expect(since(before, stats())).toMatchObject({ hits: 0, misses: 0 });
  });

  it.skipIf(!CACHES_ON)(
    'keys entries by method and arguments: equal arguments in another order share one, other arguments do not (needs the caches on: not CACHES=off)',
    async () => {
      const reordered = { lastRecordId: null, brands: [], state: null, country: 'Canada' };
      await getContacts(server.baseUrl, CANADA);
      const before = stats();
      await getContacts(server.baseUrl, reordered as ContactsQuery);
      expect(since(before, stats())).toMatchObject({ misses: 0, hits: 1 });
      await getContacts(server.baseUrl, query({ country: 'Canada', brands: ['Arcline'] }));
      expect(since(before, stats())).toMatchObject({ misses: 1, hits: 1 });
    },
  );

  it('shows an UPDATE of a contact in the database on the very next call', async () => {
    const warm = await getContacts(server.baseUrl, TEXAS);
    await getContacts(server.baseUrl, TEXAS);
    const [contact] = warm.body.contacts;
    expect(contact, 'the demo data has a contact in Texas').toBeDefined();

    const renamed = `Renamed ${randomBytes(3).toString('hex')}`;
    await server.db.query(
      `UPDATE record SET fields = fields || jsonb_build_object('APT_Company_Name__c', $2::text) WHERE id = $1`,
      [contact.Id, renamed],
    );
    const afterRename = await getContacts(server.baseUrl, TEXAS);
    expect(afterRename.body.contacts.find((card) => card.Id === contact.Id)?.APT_Company_Name__c).toBe(renamed);
    expect(afterRename.headers.get('etag')).not.toBe(warm.headers.get('etag'));

    // Moved out of the filter: gone from the answer and from the count at once.
    await server.db.query(`UPDATE record SET fields = fields || '{"APT_Primary_State__c": "Ohio"}' WHERE id = $1`, [
      contact.Id,
    ]);
    const afterMove = await getContacts(server.baseUrl, TEXAS);
    expect(afterMove.body.totalRecords).toBe(warm.body.totalRecords - 1);
    expect(afterMove.body.contacts.map((card) => card.Id)).not.toContain(contact.Id);
    const ohio = await getContacts(server.baseUrl, query({ country: 'United States', state: 'Ohio' }));
    expect(ohio.body.contacts.map((card) => card.Id)).toContain(contact.Id);
  });

  it('keeps totalRecords exact through deletes, bulk updates and inserts', async () => {
    const queries = [
      CANADA,
      query({ country: 'Canada', brands: ['Ironspan'] }),
      query({ state: 'Ontario' }),
      query({ brands: ['Ironspan', 'Gridmark'] }),
    ];
    const expectExactCounts = async (when: string) => {
      const all = await storedContacts(server.db);
      for (const q of queries) {
        const { body } = await getContacts(server.baseUrl, q);
        expect(body.totalRecords, `${when}: ${JSON.stringify(q)}`).toBe(
          all.filter((contact) => matches(contact, q)).length,
        );
      }
    };
    await expectExactCounts('before');
    const { rows } = await server.db.query<Record<string, unknown>>(
      `DELETE FROM record WHERE id = (SELECT min(id) FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Primary_State__c' = 'Ontario')
       RETURNING id, object_api_name, record_type_id, fields::text AS fields, created_date, last_modified_date, system_modstamp`,
    );
    await expectExactCounts('after a delete');
    await server.db.query(
      `UPDATE record SET fields = fields || '{"APT_Brand__c": "Ironspan"}' WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Primary_State__c' = 'Ontario'`,
    );
    await expectExactCounts('after a bulk update');
    const [deleted] = rows;
    await server.db.query(
      `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, last_modified_date, system_modstamp) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
      [
        deleted.id,
        deleted.object_api_name,
        deleted.record_type_id,
        deleted.fields,
        deleted.created_date,
        deleted.last_modified_date,
        deleted.system_modstamp,
      ],
    );
    await expectExactCounts('after an insert');
  });

  it.skipIf(!CACHES_ON)(
    'is emptied by a change to the picklist values the arguments are checked against (needs the caches on: not CACHES=off)',
    async () => {
      await getContacts(server.baseUrl, CANADA);
      const before = stats();
      await server.db.query(
        `UPDATE picklist_value SET label = label WHERE field_api_name = 'APT_Brand__c' AND value = 'Arcline'`,
      );
      expect(since(before, stats()).invalidations).toBeGreaterThan(0);
      await getContacts(server.baseUrl, CANADA);
      expect(since(before, stats())).toMatchObject({ misses: 1 });
    },
  );

  it('keeps nothing when LOCATOR_CACHE=off: every call computes its answer', async () => {
    const off = locatorResultCache(server.db, { LOCATOR_CACHE: 'off' });
    let runs = 0;
    const compute = async () => ({ run: ++runs });
    const first = await off.answer('k', compute);
    const second = await off.answer('k', compute);
    expect(runs).toBe(2);
    expect(off.stats).toMatchObject({ misses: 2, hits: 0 });
    expect(Buffer.from(second.body).toString()).toBe('{"run":2}');
    expect(first.etag).not.toBe(second.etag);
  });

  it('answers what the database holds, chunk after chunk, with the cache warm', async () => {
    const all = await storedContacts(server.db);
    const q = query({ country: 'United States' });
    const expected = all
      .filter((contact) => contact.fields.APT_Country__c === 'United States')
      .map((contact) => contact.id);
    for (let pass = 0; pass < 2; pass++) {
      const ids: string[] = [];
      let lastRecordId: string | null = null;
      for (;;) {
        const { body } = await getContacts(server.baseUrl, { ...q, lastRecordId });
        expect(body.totalRecords).toBe(expected.length);
        if (body.contacts.length === 0) break;
        ids.push(...body.contacts.map((card) => card.Id));
        lastRecordId = ids.at(-1)!;
      }
      expect(ids).toEqual(expected);
    }
  });
});

/** The connection string with a search_path, so that every pooled connection lands in that schema. */
function withSearchPath(connectionString: string, schema: string): string {
  const url = new URL(connectionString);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

interface Instance {
  db: Database;
  app: ReturnType<typeof createApp>;
  baseUrl: string;
  close(): Promise<void>;
}

/** One more server on a database that another test server already opened, migrated and seeded. */
async function startInstance(connectionString: string): Promise<Instance> {
  const db = await openDatabase({ databaseUrl: connectionString, dataDir: ':memory:', demoContacts: 0 });
  const app = createApp(db);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
    started.once('error', reject);
  });
  return {
    db,
    app,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await db.close();
    },
  };
}

describe.skipIf(!CACHES_ON || !databases().includes('postgres'))(
  'the locator result cache with two servers on one PostgreSQL database (needs PostgreSQL: set TEST_DATABASE_URL and the caches on: not CACHES=off)',
  () => {
    let a: TestServer;
    let b: Instance;

    beforeAll(async () => {
      a = await startTestServer({ database: 'postgres' });
      const { rows } = await a.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      b = await startInstance(withSearchPath(process.env.TEST_DATABASE_URL!, rows[0].schema));
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    /** Renames the first contact of TEXAS through one server's database; returns its Id and new name. */
    async function renameFirstTexan(db: Database): Promise<{ id: string; name: string }> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Primary_State__c' = 'Texas' ORDER BY id LIMIT 1`,
      );
      const name = `Renamed ${randomBytes(3).toString('hex')}`;
      await db.query(
        `UPDATE record SET fields = fields || jsonb_build_object('APT_Company_Name__c', $2::text) WHERE id = $1`,
        [rows[0].id, name],
      );
      return { id: rows[0].id, name };
    }

    const nameIn = (body: ContactsResult, id: string) =>
      body.contacts.find((card) => card.Id === id)?.APT_Company_Name__c;

    for (const [from, to] of [
      ['the first', 'the second'],
      ['the second', 'the first'],
    ] as const) {
      it(`a change made through ${from} server is seen by ${to} as soon as the notification arrives`, async () => {
        const [writer, reader] = from === 'the first' ? [a, b] : [b, a];
        // Both warm: the second call of each is a hit.
        for (const server of [writer, reader]) {
          await getContacts(server.baseUrl, TEXAS);
          const before = { ...server.app.locatorCache.stats };
          await getContacts(server.baseUrl, TEXAS);
          expect(since(before, server.app.locatorCache.stats)).toMatchObject({ hits: 1, misses: 0 });
        }
        const invalidations = reader.app.locatorCache.stats.invalidations;
        const { id, name } = await renameFirstTexan(writer.db);

        // The writer's own server sees it on the very next call.
        expect(nameIn((await getContacts(writer.baseUrl, TEXAS)).body, id)).toBe(name);
        // The other server: once its LISTEN connection has the notification (bounded wait, not a sleep).
        await until(() => reader.app.locatorCache.stats.invalidations > invalidations, 5_000, 'the notification');
        expect(nameIn((await getContacts(reader.baseUrl, TEXAS)).body, id)).toBe(name);
      });
    }

    it('a change made by another client of the database (no server of ours) empties both caches', async () => {
      await getContacts(a.baseUrl, CANADA);
      await getContacts(b.baseUrl, CANADA);
      const before = [a.app.locatorCache.stats.invalidations, b.app.locatorCache.stats.invalidations];
      const { rows } = await a.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      const client = new pg.Client({
        connectionString: withSearchPath(process.env.TEST_DATABASE_URL!, rows[0].schema),
      });
      await client.connect();
      try {
        await client.query(
          `UPDATE record SET fields = fields || '{"APT_Zip__c": "00000"}' WHERE id = (SELECT min(id) FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Country__c' = 'Canada')`,
        );
      } finally {
        await client.end();
      }
      await until(
        () => a.app.locatorCache.stats.invalidations > before[0] && b.app.locatorCache.stats.invalidations > before[1],
        5_000,
        'both notifications',
      );
      for (const server of [a, b]) {
        const { body } = await getContacts(server.baseUrl, CANADA);
        expect(body.contacts[0].APT_Zip__c).toBe('00000');
      }
    });
  },
);

describe('the result cache itself', () => {
  /** A cache over a fake subscription whose changes the test triggers. */
  function cacheWith(
    options: Partial<{ maxEntries: number; maxBytes: number; ttlMs: number; now: () => number }> = {},
  ) {
    let onChange = (_change: HeardChange) => {};
    const listening: Listening = { live: true, unlisten: async () => {} };
    const cache = new ResultCache({
      enabled: true,
      ttlMs: options.ttlMs ?? 300_000,
      maxEntries: options.maxEntries ?? 100,
      maxBytes: options.maxBytes ?? 1 << 20,
      now: options.now,
      subscribe: async (callback) => {
        onChange = callback;
        return listening;
      },
    });
    return { cache, change: () => onChange({ channel: 'contact_us_changed', payload: '*' }) };
  }
  const value = (text: string) => async () => ({ text });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const { cache } = cacheWith({ maxEntries: 2 });
    await cache.answer('a', value('a'));
    await cache.answer('b', value('b'));
    await cache.answer('a', value('a')); // a is now the most recently used
    await cache.answer('c', value('c'));
    expect(cache.stats.evictions).toBe(1);
    expect(cache.size.entries).toBe(2);
    const misses = cache.stats.misses;
    await cache.answer('a', value('a'));
    await cache.answer('c', value('c'));
    expect(cache.stats.misses).toBe(misses);
    await cache.answer('b', value('b'));
    expect(cache.stats.misses).toBe(misses + 1);
  });

  it('keeps at most maxBytes of answers', async () => {
    const { cache } = cacheWith({ maxBytes: 1000 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.answer(key, value(key.repeat(200)));
    expect(cache.size.bytes).toBeLessThanOrEqual(1000);
    expect(cache.stats.evictions).toBeGreaterThan(0);
  });

  it('recomputes an answer older than the time-to-live', async () => {
    let now = 0;
    const { cache } = cacheWith({ ttlMs: 300_000, now: () => now });
    await cache.answer('a', value('a'));
    now = 299_999;
    await cache.answer('a', value('a'));
    expect(cache.stats).toMatchObject({ misses: 1, hits: 1 });
    now = 300_000;
    await cache.answer('a', value('a'));
    expect(cache.stats).toMatchObject({ misses: 2, hits: 1 });
  });

  it('joins identical calls under way, and does not keep an answer computed across a change', async () => {
    const { cache, change } = cacheWith();
    await cache.answer('warm', value('subscribed'));
    let release = () => {};
    const slow = () => new Promise<unknown>((resolve) => (release = () => resolve({ text: 'old' })));
    const first = cache.answer('a', slow);
    const joined = cache.answer('a', slow);
    expect(cache.stats).toMatchObject({ misses: 2, joined: 1 });
    change();
    // A call after the change does not join the computation that began before it.
    const after = cache.answer('a', value('new'));
    release();
    expect(Buffer.from((await first).body).toString()).toBe('{"text":"old"}');
    expect(Buffer.from((await joined).body).toString()).toBe('{"text":"old"}');
    expect(Buffer.from((await after).body).toString()).toBe('{"text":"new"}');
    const again = await cache.answer('a', value('newer'));
    expect(Buffer.from(again.body).toString()).toBe('{"text":"new"}');
  });
});
