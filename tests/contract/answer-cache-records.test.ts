/**
 * A signed-in user's records and record UIs answered before routing (server/http/answers/answer-cache.ts):
 * a repeated GET is answered before routing and the middleware chain with the representation the router's way
 * made, header for header, for as long as none of the records it was read from (nor the user's layout
 * states) has changed, whoever changed them; and only to the user it was made for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import { UI_API } from '../support/api.ts';
import { callOperation, expectValidResponse } from '../support/contract.ts';
import { expectFrontAsWholeWay } from '../support/replay.ts';
import { rawGet, waitFor, type RawAnswer } from '../support/raw-http.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

const ADMIN_ACCOUNT = makeId('001', 1);
const OTHER_ACCOUNT = makeId('001', 2);
const FIRST_CONTACT = makeId('003', 1);
const RECORD = `${UI_API}/records/${FIRST_CONTACT}?fields=Contact.LastName&optionalFields=Contact.Account.Name`;
const RECORD_UI = `${UI_API}/record-ui/${ADMIN_ACCOUNT}?layoutTypes=Full&modes=View`;

interface FieldValue {
  value: unknown;
}
interface RecordRep {
  id: string;
  recordTypeId: string | null;
  fields: Record<string, FieldValue & { value: unknown }>;
}
interface RecordUi {
  layoutUserStates: Record<string, { sectionUserStates: Record<string, { collapsed: boolean }> }>;
  records: Record<string, RecordRep>;
}

describe.skipIf(!CACHES_ON).each(databases())(
  'records answered before routing on %s (needs the caches on: not CACHES=off)',
  (kind) => {
    let server: TestServer;
    let admin: TestSession;
    let standard: TestSession;
    const answered = () => server.app.answerCache.answered;
    const as = (session: TestSession, headers: Record<string, string> = {}) => ({ Cookie: session.cookie, ...headers });
    const json = <T>(answer: RawAnswer) => JSON.parse(answer.body.toString()) as T;
    const update = (id: string, fields: Record<string, unknown>) =>
      callOperation('updateRecord', `${server.baseUrl}${UI_API}/records/${id}`, {
        method: 'PATCH',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields }),
      });
    /** Whether a GET of path is replayed before routing, and with what. */
    const front = async (path: string, session = admin) => {
      const before = answered();
      const answer = await rawGet(server.baseUrl + path, as(session));
      return { atFront: answered() === before + 1, answer };
    };
    /** GETs path twice: the second answer of an unchanged representation is replayed before routing. */
    const noted = async (path: string, session = admin) => {
      await rawGet(server.baseUrl + path, as(session));
      return front(path, session);
    };

    beforeAll(async () => {
      server = await startTestServer({ database: kind, demoContacts: 3 });
      admin = await signIn(server, 'admin');
      standard = await signIn(server, 'standard');
    });
    afterAll(() => server?.close());

    it.each([
      ['plain', {}],
      ['in Brotli', { 'Accept-Encoding': 'gzip, deflate, br' }],
    ])(
      'gives a repeated GET (%s) of a record and of a record UI the same headers and body as the router',
      async (_name, headers) => {
        for (const [operationId, path] of [
          ['getRecord', RECORD],
          ['getRecordUi', RECORD_UI],
        ]) {
          const atFront = await expectFrontAsWholeWay(server.baseUrl + path, as(admin, headers), answered, 2);
          expect(atFront.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
          if (!atFront.headers['content-encoding']) expectValidResponse(operationId, 200, json(atFront));
        }
      },
    );

    it('answers again only after the router once the record changed through the API', async () => {
      expect((await noted(RECORD)).atFront).toBe(true);
      expect((await update(FIRST_CONTACT, { LastName: 'Renamed Once' })).status).toBe(200);
      const after = await front(RECORD);
      expect(after.atFront).toBe(false);
      expect(json<RecordRep>(after.answer).fields.LastName.value).toBe('Renamed Once');
      const again = await front(RECORD);
      expect(again.atFront).toBe(true);
      expect(again.answer.body.equals(after.answer.body)).toBe(true);
    });

    it('stops at a change of a related record it shows, and not at a change of a record it does not', async () => {
      const record = json<RecordRep>((await noted(RECORD)).answer);
      const accountId =
        record.fields.AccountId?.value ??
        (
          await server.db.query<{ id: string }>(`SELECT fields->>'AccountId' AS id FROM record WHERE id = $1`, [
            FIRST_CONTACT,
          ])
        ).rows[0].id;
      expect(typeof accountId).toBe('string');
      const unrelated = accountId === OTHER_ACCOUNT ? ADMIN_ACCOUNT : OTHER_ACCOUNT;
      expect((await update(unrelated, { Name: 'Another Name' })).status).toBe(200);
      expect((await front(RECORD)).atFront).toBe(true);

      expect((await update(accountId as string, { Name: 'Renamed Account' })).status).toBe(200);
      const after = await front(RECORD);
      expect(after.atFront).toBe(false);
      expect(
        json<{ fields: { Account: { value: RecordRep } } }>(after.answer).fields.Account.value.fields.Name.value,
      ).toBe('Renamed Account');
    });

    it('stops at a change made in the database by another server', async () => {
      expect((await noted(RECORD)).atFront).toBe(true);
      await server.db.query(`UPDATE record SET fields = fields || '{"LastName": "Changed Elsewhere"}' WHERE id = $1`, [
        FIRST_CONTACT,
      ]);
      await waitFor(
        async () => json<RecordRep>((await front(RECORD)).answer).fields.LastName.value === 'Changed Elsewhere',
      );
      expect((await front(RECORD)).atFront).toBe(true);
    });

    it('answers only the user it was made for', async () => {
      expect((await noted(RECORD_UI)).atFront).toBe(true);
      // The standard user may not see the administrator's account: the router answers 404.
      const other = await front(RECORD_UI, standard);
      expect(other.atFront).toBe(false);
      expect(other.answer.status).toBe(404);
      expect((await front(RECORD_UI, standard)).atFront).toBe(false);
    });

    it("stops a record UI at a change of the user's layout states", async () => {
      const { answer } = await noted(RECORD_UI);
      const ui = json<RecordUi>(answer);
      const [layoutId, state] = Object.entries(ui.layoutUserStates)[0];
      const { recordTypeId } = ui.records[ADMIN_ACCOUNT];
      const [sectionId] = Object.keys(state.sectionUserStates);
      expect(sectionId).toBeDefined();
      const patched = await callOperation(
        'updateLayoutUserState',
        `${server.baseUrl}${UI_API}/layout/Account/user-state?layoutType=Full&mode=View&recordTypeId=${recordTypeId}`,
        {
          method: 'PATCH',
          headers: { ...admin.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            sectionUserStates: { [sectionId]: { collapsed: !state.sectionUserStates[sectionId].collapsed } },
          }),
        },
      );
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const after = await front(RECORD_UI);
      expect(after.atFront).toBe(false);
      expect(json<RecordUi>(after.answer).layoutUserStates[layoutId].sectionUserStates[sectionId].collapsed).toBe(
        !state.sectionUserStates[sectionId].collapsed,
      );
    });

    it('leaves to the router a GET that moves the record up the recently used list, or pages its children', async () => {
      for (const params of [
        'fields=Account.Name&updateMru=true',
        'fields=Account.Name&childRelationships=Account.Contacts',
      ]) {
        const path = `${UI_API}/records/${ADMIN_ACCOUNT}?${params}`;
        const { atFront, answer } = await noted(path);
        expect(answer.status).toBe(200);
        expect(atFront, params).toBe(false);
      }
    });
  },
);

describe.skipIf(!CACHES_ON)('the answer cache keeps, at most (needs the caches on: not CACHES=off)', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('drops the targets noted first past the most targets, and past the most JSON', async () => {
    server = await startTestServer({ demoContacts: 3, app: { answerCache: { targets: 2 } } });
    const admin = await signIn(server, 'admin');
    const paths = [1, 2, 3].map((n) => `${UI_API}/records/${makeId('001', n)}?fields=Account.Name`);
    for (const path of paths) await rawGet(server.baseUrl + path, { Cookie: admin.cookie });
    const atFront = async (path: string) => {
      const before = server.app.answerCache.answered;
      expect((await rawGet(server.baseUrl + path, { Cookie: admin.cookie })).status).toBe(200);
      return server.app.answerCache.answered === before + 1;
    };
    // The first was dropped when the third was noted; answered through the router, it is noted again, and the
    // second goes.
    expect(await atFront(paths[2])).toBe(true);
    expect(await atFront(paths[1])).toBe(true);
    expect(await atFront(paths[0])).toBe(false);
    expect(await atFront(paths[0])).toBe(true);
    expect(await atFront(paths[1])).toBe(false);
    await server.close();

    // Room for one record's JSON: each target noted drops the one before, and is kept itself.
    server = await startTestServer({ demoContacts: 3, app: { answerCache: { size: 1 } } });
    const again = await signIn(server, 'admin');
    const get = (path: string) => rawGet(server.baseUrl + path, { Cookie: again.cookie });
    await get(paths[0]);
    await get(paths[1]);
    const before = server.app.answerCache.answered;
    await get(paths[1]);
    expect(server.app.answerCache.answered).toBe(before + 1);
    await get(paths[0]);
    expect(server.app.answerCache.answered).toBe(before + 1);
  });
});
