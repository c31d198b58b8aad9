/**
 * What servers keep in memory rather than read at every request, and how it is read again when it changes:
 * the org metadata (object info, layouts, picklist values) and signed-in sessions. A change through the
 * server's own database handle holds at the next request; on PostgreSQL, a change through another handle
 * (another server process on the same database: here a second app in this process, on its own pool and
 * listening connection) holds as soon as its notification arrives, and the answers are then the same as
 * before anything was kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { openPostgres, type Database } from '../../server/db/connection.ts';
import { UI_API } from '../support/api.ts';
import { databases, startTestServer, withSearchPath, type TestServer } from '../support/server.ts';
import { CSRF_PATH, DEMO_USERS, SESSION_PATH, sessionApi, signIn, type TestSession } from '../support/session.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

const OBJECT = 'APT_Contact_Us__c';
const OBJECT_INFO = `${UI_API}/object-info/${OBJECT}`;
const LAYOUT = `${UI_API}/layout/${OBJECT}?layoutType=Full&mode=View`;
const MASTER = '012000000000000AAA';
const PICKLIST = `${UI_API}/object-info/${OBJECT}/picklist-values/${MASTER}/APT_Brand__c`;
/** An operation only a signed-in user may call (a guest gets 401). */
const USER_ONLY = CSRF_PATH;

interface ObjectInfoBody {
  eTag: string;
  label: string;
}
interface LayoutBody {
  eTag: string;
  sections: { heading: string | null }[];
}
interface PicklistBody {
  eTag: string;
  values: { label: string; value: string }[];
}

describe.each(databases())('metadata and sessions kept in memory on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  const { getSession } = sessionApi(() => server);
  const get = async <T>(path: string, session = admin) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: session.headers });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 3 });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('reads object info again after its object changes, and answers as before once the change is undone', async () => {
    const before = await get<ObjectInfoBody>(OBJECT_INFO);
    expect(before.status).toBe(200);
    const label = before.body.label;
    await server.db.query(
      `UPDATE sobject SET definition = jsonb_set(definition, '{label}', '"Renamed"') WHERE api_name = $1`,
      [OBJECT],
    );
    try {
      const changed = await get<ObjectInfoBody>(OBJECT_INFO);
      expect(changed.body.label).toBe('Renamed');
      expect(changed.body.eTag).not.toBe(before.body.eTag);
    } finally {
      await server.db.query(
        `UPDATE sobject SET definition = jsonb_set(definition, '{label}', to_jsonb($2::text)) WHERE api_name = $1`,
        [OBJECT, label],
      );
    }
    expect(await get<ObjectInfoBody>(OBJECT_INFO)).toEqual(before);
  });

  it.skipIf(!CACHES_ON)(
    'answers kept metadata in Brotli to a client that names br, compressed once, with the ETag of that coding (needs the caches on: not CACHES=off)',
    async () => {
      const ask = (encoding: string, extra: Record<string, string> = {}) =>
        fetch(`${server.baseUrl}${OBJECT_INFO}`, {
          headers: { ...admin.headers, 'Accept-Encoding': encoding, ...extra },
        });
      const plain = await ask('gzip, deflate');
      const body = (await plain.json()) as ObjectInfoBody;
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('etag')).toBe(`"${body.eTag}"`);
      expect(plain.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      // Answered before, so kept: in Brotli from now on (fetch decodes it), the same JSON.
      const first = await ask('gzip, deflate, br');
      const second = await ask('br');
      for (const response of [first, second]) {
        expect(response.headers.get('content-encoding')).toBe('br');
        expect(response.headers.get('etag')).toBe(`"${body.eTag}-br"`);
        expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
        expect(await response.json()).toEqual(body);
      }
      // Either coding's ETag names the same representation.
      for (const etag of [`"${body.eTag}-br"`, `"${body.eTag}"`]) {
        const revalidated = await ask('br', { 'If-None-Match': etag });
        expect(revalidated.status).toBe(304);
        expect(await revalidated.text()).toBe('');
      }
      // A client that does not name br still gets the JSON itself.
      const again = await ask('gzip');
      expect(again.headers.get('content-encoding')).toBeNull();
      expect(await again.json()).toEqual(body);
    },
  );

  it('reads a layout again after its layout changes', async () => {
    const before = await get<LayoutBody>(LAYOUT);
    expect(before.status).toBe(200);
    const { rows } = await server.db.query<{ id: string; definition: unknown }>(
      `SELECT id, definition FROM layout WHERE object_api_name = $1 AND layout_type = 'Full'`,
      [OBJECT],
    );
    await server.db.query(
      `UPDATE layout SET definition = jsonb_set(definition, '{sections,0,heading}', '"Renamed section"') WHERE id = $1`,
      [rows[0].id],
    );
    try {
      const changed = await get<LayoutBody>(LAYOUT);
      expect(changed.body.sections[0].heading).toBe('Renamed section');
      expect(changed.body.eTag).not.toBe(before.body.eTag);
    } finally {
      await server.db.query('UPDATE layout SET definition = $2::jsonb WHERE id = $1', [
        rows[0].id,
        JSON.stringify(rows[0].definition),
      ]);
    }
    expect(await get<LayoutBody>(LAYOUT)).toEqual(before);
  });

  it('reads picklist values again after a value changes', async () => {
    const before = await get<PicklistBody>(PICKLIST);
    expect(before.status).toBe(200);
    const first = before.body.values[0];
    await server.db.query(
      `UPDATE picklist_value SET label = 'Relabelled' WHERE object_api_name = $1 AND field_api_name = 'APT_Brand__c' AND value = $2`,
      [OBJECT, first.value],
    );
    try {
      expect((await get<PicklistBody>(PICKLIST)).body.values[0]).toEqual({ ...first, label: 'Relabelled' });
    } finally {
      await server.db.query(
        `UPDATE picklist_value SET label = $3 WHERE object_api_name = $1 AND field_api_name = 'APT_Brand__c' AND value = $2`,
        [OBJECT, first.value, first.label],
      );
    }
    expect(await get<PicklistBody>(PICKLIST)).toEqual(before);
  });

  it('ends a kept session at once when its row is deleted or its user deactivated behind the server', async () => {
    const session = await signIn(server, 'standard');
    expect((await getSession(session.headers)).body.isGuest).toBe(false);
    expect((await get(USER_ONLY, session)).status).toBe(200);
    await server.db.query('DELETE FROM user_session WHERE user_id = $1', [DEMO_USERS.standard.userId]);
    expect((await getSession(session.headers)).body.isGuest).toBe(true);
    expect((await get(USER_ONLY, session)).status).toBe(401);

    const again = await signIn(server, 'standard');
    expect((await get(USER_ONLY, again)).status).toBe(200);
    await server.db.query(`UPDATE record SET fields = fields || '{"IsActive": false}'::jsonb WHERE id = $1`, [
      DEMO_USERS.standard.userId,
    ]);
    try {
      expect((await get(USER_ONLY, again)).status).toBe(401);
    } finally {
      await server.db.query(`UPDATE record SET fields = fields || '{"IsActive": true}'::jsonb WHERE id = $1`, [
        DEMO_USERS.standard.userId,
      ]);
    }
  });

  // Only PostgreSQL has a second server: on PGlite the suite is not defined, rather than skipped.
  if (kind === 'postgres')
    describe('with a second server on the same database', () => {
      let other: Database;
      let otherApp: ReturnType<typeof createApp>;
      /** A request to the second server, as if sent to the first one's address (its Origin checks pass). */
      const otherFetch = (path: string, init: RequestInit = {}) =>
        otherApp.fetch(new Request(`${server.baseUrl}${path}`, init));
      const eventually = { timeout: 5_000, interval: 20 };

      beforeAll(async () => {
        const { rows } = await server.db.query<{ schema: string }>('SELECT current_schema() AS schema');
        other = await openPostgres(withSearchPath(process.env.TEST_DATABASE_URL!, rows[0].schema));
        otherApp = createApp(other, { limits: { publicRequestsPerMinute: 0, signInAttemptsPerWindow: 0 } });
      });
      afterAll(() => other?.close());

      it('sees a sign-out through the other server', async () => {
        const session = await signIn(server, 'standard');
        expect((await get(USER_ONLY, session)).status).toBe(200);
        expect((await otherFetch(USER_ONLY, { headers: session.headers })).status).toBe(200);
        expect((await otherFetch(SESSION_PATH, { method: 'DELETE', headers: session.headers })).status).toBe(204);
        await expect.poll(async () => (await get(USER_ONLY, session)).status, eventually).toBe(401);
        expect((await getSession(session.headers)).body.isGuest).toBe(true);
      });

      it('sees a user deactivated through the other server', async () => {
        const session = await signIn(server, 'standard');
        expect((await get(USER_ONLY, session)).status).toBe(200);
        await other.query(`UPDATE record SET fields = fields || '{"IsActive": false}'::jsonb WHERE id = $1`, [
          DEMO_USERS.standard.userId,
        ]);
        try {
          await expect.poll(async () => (await get(USER_ONLY, session)).status, eventually).toBe(401);
        } finally {
          await other.query(`UPDATE record SET fields = fields || '{"IsActive": true}'::jsonb WHERE id = $1`, [
            DEMO_USERS.standard.userId,
          ]);
        }
      });

      it('sees metadata changed through the other server', async () => {
        const before = await get<ObjectInfoBody>(OBJECT_INFO);
        expect((await (await otherFetch(OBJECT_INFO, { headers: admin.headers })).json()) as ObjectInfoBody).toEqual(
          before.body,
        );
        await other.query(
          `UPDATE sobject SET definition = jsonb_set(definition, '{label}', '"Renamed elsewhere"') WHERE api_name = $1`,
          [OBJECT],
        );
        try {
          await expect
            .poll(async () => (await get<ObjectInfoBody>(OBJECT_INFO)).body.label, eventually)
            .toBe('Renamed elsewhere');
        } finally {
          await other.query(
            `UPDATE sobject SET definition = jsonb_set(definition, '{label}', to_jsonb($2::text)) WHERE api_name = $1`,
            [OBJECT, before.body.label],
          );
        }
        await expect.poll(async () => (await get<ObjectInfoBody>(OBJECT_INFO)).body, eventually).toEqual(before.body);
      });
    });
});
