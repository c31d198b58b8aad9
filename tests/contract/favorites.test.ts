/**
 * Favorites over real HTTP, on every test database: each signed-in user's own favorites of records, list views,
 * object homes and tabs, created with their targets checked, listed in the user's order, renamed and moved,
 * deleted, reordered all at once (all or nothing), and counted when used; one user's favorites unseen by
 * another; a guest refused; bad input answered 400 and unknown ids 404 in the platform's error shape; every
 * operation answering at an older API version. Every answer is checked against the contract.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { MAX_FAVORITES } from '../../server/platform/favorites.ts';
import { NOT_FOUND_BODY, UI_API, type ErrorList } from '../support/api.ts';
import { callOperation, type CheckedResponse } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Favorite = components['schemas']['FavoriteRepresentation'];
type Favorites = components['schemas']['FavoriteCollectionRepresentation'];

const DEFAULT_CONTACT_ID = 'a1C8d0000000001EAA';
/** The first demo Account, the administrator's; Accounts are private, so the standard user does not see it. */
const ADMIN_ACCOUNT_ID = '0018d0000000001AAA';
const DEFAULT_CONTACTS_LIST_ID = '00B8d0000000002EAA';
/** Well-formed ids of nothing. */
const NO_RECORD_ID = '0018d0000000Q0tAAE';
const NO_FAVORITE_ID = '0MV8d0000000Q0tGAE';
const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
const FAVORITE_ID = /^0MV8d0[a-zA-Z0-9]{12}$/;

const toId15 = (id: string) => id.slice(0, 15);

describe.each(databases())('favorites on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const clock = { at: Date.now(), now: () => clock.at };

  const call = <T>(
    operationId: string,
    method: string,
    path: string,
    session: TestSession | null,
    body?: unknown,
    version = 'v65.0',
  ): Promise<CheckedResponse<T | ErrorList>> =>
    callOperation<T | ErrorList>(operationId, `${server.baseUrl}${UI_API.replace('v65.0', version)}${path}`, {
      method,
      headers: {
        ...(session?.headers ?? {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  const api = {
    list: (session: TestSession | null) => call<Favorites>('getFavorites', 'GET', '/favorites', session),
    create: (session: TestSession | null, body: unknown) =>
      call<Favorite>('createFavorite', 'POST', '/favorites', session, body),
    get: (session: TestSession | null, id: string) => call<Favorite>('getFavorite', 'GET', `/favorites/${id}`, session),
    update: (session: TestSession | null, id: string, body: unknown) =>
      call<Favorite>('updateFavorite', 'PATCH', `/favorites/${id}`, session, body),
    remove: (session: TestSession | null, id: string) =>
      call<undefined>('deleteFavorite', 'DELETE', `/favorites/${id}`, session),
    batch: (session: TestSession | null, body: unknown) =>
      call<Favorites>('updateFavoritesBatch', 'PUT', '/favorites/batch', session, body),
    use: (session: TestSession | null, id: string) =>
      call<Favorite>('updateFavoriteUsage', 'PATCH', `/favorites/${id}/usage`, session),
  };

  /** The body of an answer of the status, failing with the answer's text otherwise. */
  function ok<T>(answer: CheckedResponse<unknown>, status = 200): T {
    expect(answer.status, answer.text.slice(0, 500)).toBe(status);
    return answer.body as T;
  }

  const names = async (session: TestSession) => ok<Favorites>(await api.list(session)).favorites.map((f) => f.name);

  /** Makes a favorite of each target (of `Record` unless given), named as given, in order. */
  async function favorites(session: TestSession, ...specs: { target: string; targetType?: string; name?: string }[]) {
    const made: Favorite[] = [];
    for (const spec of specs)
      made.push(ok<Favorite>(await api.create(session, { targetType: 'Record', ...spec }), 201));
    return made;
  }

  /** Removes all of a user's favorites, through the batch (an empty list keeps none). */
  const clear = async (session: TestSession) => ok<Favorites>(await api.batch(session, { favorites: [] }));

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 20, app: { clock } });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await clear(admin);
    await clear(standard);
  });

  it('answers a guest 401 INVALID_SESSION_ID on every operation', async () => {
    for (const answer of [
      await api.list(null),
      await api.create(null, { target: DEFAULT_CONTACT_ID, targetType: 'Record' }),
      await api.get(null, NO_FAVORITE_ID),
      await api.update(null, NO_FAVORITE_ID, { name: 'x' }),
      await api.remove(null, NO_FAVORITE_ID),
      await api.batch(null, { favorites: [] }),
      await api.use(null, NO_FAVORITE_ID),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(INVALID_SESSION);
    }
  });

  it('creates favorites of a record, a list view, an object home and a tab, each from what it names', async () => {
    const { favorites: none } = ok<Favorites>(await api.list(admin));
    expect(none).toEqual([]);
    clock.at += 1_250;
    const createdAt = new Date(clock.at).toISOString();
    const record = ok<Favorite>(
      await api.create(admin, { target: toId15(DEFAULT_CONTACT_ID), targetType: 'Record' }),
      201,
    );
    expect(record).toEqual({
      accessCount: 0,
      iconColor: '1B96FF',
      iconUrl: '/img/icon/t4v35/custom/custom20_120.png',
      id: expect.stringMatching(FAVORITE_ID),
      lastAccessDate: createdAt,
      // The record's name, as the caller sees it.
      name: 'CU-000001',
      objectType: 'APT_Contact_Us__c',
      sortOrder: 1,
      subtitle: 'Contact Us',
      // The record's 18-character id, whatever the caller gave.
      target: DEFAULT_CONTACT_ID,
      targetType: 'Record',
    });
    const [list, home, tab, objectTab] = await favorites(
      admin,
      { target: DEFAULT_CONTACTS_LIST_ID, targetType: 'ListView' },
      { target: 'account', targetType: 'ObjectHome', name: 'All the accounts' },
      { target: 'standard-home', targetType: 'Tab' },
      { target: 'standard-User', targetType: 'Tab' },
    );
    expect(list).toMatchObject({
      name: 'Default Contacts',
      objectType: 'APT_Contact_Us__c',
      sortOrder: 2,
      target: DEFAULT_CONTACTS_LIST_ID,
      targetType: 'ListView',
    });
    // The object's API name as the org spells it; the name given rather than the object's plural label.
    expect(home).toMatchObject({
      name: 'All the accounts',
      objectType: 'Account',
      subtitle: 'Account',
      iconColor: '7F8DE1',
      iconUrl: '/img/icon/t4v35/standard/account_120.png',
      sortOrder: 3,
      target: 'Account',
      targetType: 'ObjectHome',
    });
    // A tab of no object shows its own icon; a tab of an object is of that object.
    expect(tab).toMatchObject({
      name: 'Home',
      objectType: '',
      subtitle: 'Tab',
      iconColor: 'D9544F',
      iconUrl: '/img/icon/t4v35/standard/home_120.png',
      target: 'standard-home',
    });
    expect(objectTab).toMatchObject({ name: 'Users', objectType: 'User', subtitle: 'User', sortOrder: 5 });
    // Each one is there to get, as created.
    for (const favorite of [record, list, home, tab, objectTab])
      expect(ok<Favorite>(await api.get(admin, favorite.id))).toEqual(favorite);
    expect(ok<Favorite>(await api.get(admin, toId15(record.id)))).toEqual(record);
  });

  it("lists the favorites in the user's order, and puts a new one where sortOrder asks", async () => {
    await favorites(
      admin,
      { target: DEFAULT_CONTACT_ID, name: 'A' },
      { target: 'Account', targetType: 'ObjectHome', name: 'B' },
      { target: 'Case', targetType: 'ObjectHome', name: 'C' },
    );
    expect(await names(admin)).toEqual(['A', 'B', 'C']);
    const first = ok<Favorite>(
      await api.create(admin, { target: 'Contact', targetType: 'ObjectHome', name: 'D', sortOrder: 1 }),
      201,
    );
    expect(first.sortOrder).toBe(1);
    const middle = ok<Favorite>(
      await api.create(admin, { target: DEFAULT_CONTACTS_LIST_ID, targetType: 'ListView', name: 'E', sortOrder: 3 }),
      201,
    );
    expect(middle.sortOrder).toBe(3);
    // A place past the last is the last.
    const last = ok<Favorite>(
      await api.create(admin, { target: 'standard-home', targetType: 'Tab', name: 'F', sortOrder: 99 }),
      201,
    );
    expect(last.sortOrder).toBe(6);
    const { favorites: all } = ok<Favorites>(await api.list(admin));
    expect(all.map((f) => f.name)).toEqual(['D', 'A', 'E', 'B', 'C', 'F']);
    expect(all.map((f) => f.sortOrder)).toEqual([1, 2, 3, 4, 5, 6]);
    // Never kept by a cache, the list nor one favorite: a write of another favorite changes either.
    for (const answer of [await api.list(admin), await api.get(admin, first.id)]) {
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('etag')).toBeNull();
    }
  });

  it('renames and moves a favorite with PATCH, the others making room', async () => {
    const [a, , , d] = await favorites(
      admin,
      { target: DEFAULT_CONTACT_ID, name: 'A' },
      { target: 'Account', targetType: 'ObjectHome', name: 'B' },
      { target: 'Case', targetType: 'ObjectHome', name: 'C' },
      { target: 'Contact', targetType: 'ObjectHome', name: 'D' },
    );
    const renamed = ok<Favorite>(await api.update(admin, a.id, { name: '  The default contact ' }));
    expect(renamed).toEqual({ ...a, name: 'The default contact' });
    expect(await names(admin)).toEqual(['The default contact', 'B', 'C', 'D']);
    // Down: those between move up.
    expect(ok<Favorite>(await api.update(admin, a.id, { sortOrder: 3 })).sortOrder).toBe(3);
    expect(await names(admin)).toEqual(['B', 'C', 'The default contact', 'D']);
    // Up, renamed at once: those between move down.
    const moved = ok<Favorite>(await api.update(admin, toId15(d.id), { name: 'First', sortOrder: 1 }));
    expect(moved).toMatchObject({ id: d.id, name: 'First', sortOrder: 1 });
    expect(await names(admin)).toEqual(['First', 'B', 'C', 'The default contact']);
    // Past the last: the last.
    expect(ok<Favorite>(await api.update(admin, d.id, { sortOrder: 40 })).sortOrder).toBe(4);
    const { favorites: all } = ok<Favorites>(await api.list(admin));
    expect(all.map((f) => [f.name, f.sortOrder])).toEqual([
      ['B', 1],
      ['C', 2],
      ['The default contact', 3],
      ['First', 4],
    ]);
    expect(ok<Favorite>(await api.get(admin, a.id))).toMatchObject({ name: 'The default contact', sortOrder: 3 });
  });

  it('deletes a favorite with 204, those after it moving up, and then knows it no more', async () => {
    const [a, b] = await favorites(
      admin,
      { target: DEFAULT_CONTACT_ID, name: 'A' },
      { target: 'Account', targetType: 'ObjectHome', name: 'B' },
      { target: 'Case', targetType: 'ObjectHome', name: 'C' },
    );
    const deleted = await api.remove(admin, b.id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const { favorites: all } = ok<Favorites>(await api.list(admin));
    expect(all.map((f) => [f.name, f.sortOrder])).toEqual([
      ['A', 1],
      ['C', 2],
    ]);
    for (const answer of [
      await api.get(admin, b.id),
      await api.remove(admin, b.id),
      await api.update(admin, b.id, { name: 'again' }),
      await api.use(admin, b.id),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND_BODY);
    }
    // The target may be a favorite again, under a new id.
    const [again] = await favorites(admin, { target: 'Account', targetType: 'ObjectHome' });
    expect(again.id).not.toBe(b.id);
    expect(again).toMatchObject({ name: 'Accounts', sortOrder: 3 });
    expect(ok<Favorite>(await api.get(admin, a.id)).sortOrder).toBe(1);
  });

  it('counts each use: accessCount goes up by one and lastAccessDate becomes now', async () => {
    clock.at += 1_000;
    const createdAt = new Date(clock.at).toISOString();
    const [a, b] = await favorites(
      admin,
      { target: DEFAULT_CONTACT_ID, name: 'A' },
      { target: 'Account', targetType: 'ObjectHome', name: 'B' },
    );
    expect(a).toMatchObject({ accessCount: 0, lastAccessDate: createdAt });
    clock.at += 61_500;
    const used = ok<Favorite>(await api.use(admin, a.id));
    expect(used).toEqual({ ...a, accessCount: 1, lastAccessDate: new Date(clock.at).toISOString() });
    clock.at += 1_000;
    expect(ok<Favorite>(await api.use(admin, toId15(a.id)))).toMatchObject({
      accessCount: 2,
      lastAccessDate: new Date(clock.at).toISOString(),
    });
    expect(ok<Favorite>(await api.get(admin, a.id))).toMatchObject({ accessCount: 2, sortOrder: 1 });
    // The other favorite is untouched.
    expect(ok<Favorite>(await api.get(admin, b.id))).toEqual(b);
  });

  it("keeps each user's favorites its own: another user's id answers 404 to every operation", async () => {
    const [mine] = await favorites(admin, { target: DEFAULT_CONTACT_ID, name: 'Admin contact' });
    const [theirs] = await favorites(standard, { target: DEFAULT_CONTACT_ID, name: 'Standard contact' });
    // The same target is each user's own favorite.
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.sortOrder).toBe(1);
    expect(await names(admin)).toEqual(['Admin contact']);
    expect(await names(standard)).toEqual(['Standard contact']);
    for (const answer of [
      await api.get(standard, mine.id),
      await api.update(standard, mine.id, { name: 'Taken' }),
      await api.use(standard, mine.id),
      await api.remove(standard, mine.id),
      await api.batch(standard, { favorites: [{ id: theirs.id }, { id: mine.id }] }),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND_BODY);
    }
    // Nothing of the administrator's changed, nor of the standard user's.
    expect(ok<Favorite>(await api.get(admin, mine.id))).toEqual(mine);
    expect(ok<Favorites>(await api.list(standard)).favorites).toEqual([theirs]);
    // A batch is the caller's alone: emptying the standard user's list leaves the administrator's.
    await clear(standard);
    expect(await names(admin)).toEqual(['Admin contact']);
  });

  it('updates a batch: the order given, the names given, and the favorites left out deleted', async () => {
    const [a, b, c, d] = await favorites(
      admin,
      { target: DEFAULT_CONTACT_ID, name: 'A' },
      { target: 'Account', targetType: 'ObjectHome', name: 'B' },
      { target: 'Case', targetType: 'ObjectHome', name: 'C' },
      { target: 'Contact', targetType: 'ObjectHome', name: 'D' },
    );
    const answer = ok<Favorites>(
      await api.batch(admin, { favorites: [{ id: c.id }, { id: toId15(a.id), name: 'A renamed' }, { id: d.id }] }),
    );
    expect(answer.favorites.map((f) => [f.id, f.name, f.sortOrder])).toEqual([
      [c.id, 'C', 1],
      [a.id, 'A renamed', 2],
      [d.id, 'D', 3],
    ]);
    expect(ok<Favorites>(await api.list(admin))).toEqual(answer);
    expect((await api.get(admin, b.id)).status).toBe(404);
    // Everything else of each favorite is as it was.
    expect(answer.favorites[1]).toEqual({ ...a, name: 'A renamed', sortOrder: 2 });
  });

  it('refuses a bad batch whole, with 400 or 404, and changes nothing', async () => {
    const [a, b] = await favorites(
      admin,
      { target: DEFAULT_CONTACT_ID, name: 'A' },
      { target: 'Account', targetType: 'ObjectHome', name: 'B' },
    );
    const [other] = await favorites(standard, { target: DEFAULT_CONTACT_ID, name: 'Not yours' });
    const before = ok<Favorites>(await api.list(admin));
    const refusals: [unknown, number, string][] = [
      // b renamed and first, but a listed twice (once by its 15-character id).
      [{ favorites: [{ id: b.id, name: 'B first' }, { id: a.id }, { id: toId15(a.id) }] }, 400, 'INVALID_INPUT'],
      // A blank name after a good change.
      [
        {
          favorites: [
            { id: b.id, name: 'B first' },
            { id: a.id, name: '   ' },
          ],
        },
        400,
        'INVALID_INPUT',
      ],
      [{ favorites: [{ id: b.id, name: '' }] }, 400, 'INVALID_INPUT'],
      // Ids that are not favorites, or not the caller's.
      [{ favorites: [{ id: b.id }, { id: NO_FAVORITE_ID }] }, 404, 'NOT_FOUND'],
      [{ favorites: [{ id: b.id }, { id: other.id }] }, 404, 'NOT_FOUND'],
      [{ favorites: [{ id: b.id }, { id: '001000000000000AAA' }] }, 400, 'INVALID_INPUT'],
      [{ favorites: [{ id: b.id, sortOrder: 1 }] }, 400, 'INVALID_INPUT'],
      [{ favorites: [{ name: 'no id' }] }, 400, 'INVALID_INPUT'],
      [{ favorites: 'all' }, 400, 'INVALID_INPUT'],
      [{}, 400, 'INVALID_INPUT'],
      ['{"favorites": [', 400, 'JSON_PARSER_ERROR'],
    ];
    for (const [body, status, errorCode] of refusals) {
      const answer = await api.batch(admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect((answer.body as ErrorList)[0].errorCode, answer.text).toBe(errorCode);
      expect(ok<Favorites>(await api.list(admin)), JSON.stringify(body)).toEqual(before);
    }
    expect(ok<Favorites>(await api.list(standard)).favorites).toEqual([other]);
  });

  it('refuses invalid bodies with 400 in the platform error shape, creating and changing nothing', async () => {
    const [a] = await favorites(admin, { target: DEFAULT_CONTACT_ID, name: 'A' });
    const refusedCreations: [unknown, string][] = [
      [{ targetType: 'Record' }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Dashboard' }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Record', sortOrder: 0 }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Record', sortOrder: 1.5 }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Record', name: '' }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Record', name: ' \t ' }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Record', name: 'x'.repeat(256) }, 'INVALID_INPUT'],
      [{ target: DEFAULT_CONTACT_ID, targetType: 'Record', color: 'red' }, 'INVALID_INPUT'],
      [{ target: 'not an id', targetType: 'Record' }, 'INVALID_ID_FIELD'],
      // Targets that do not exist, or that the caller may not see.
      [{ target: NO_RECORD_ID, targetType: 'Record' }, 'INVALID_CROSS_REFERENCE_KEY'],
      [{ target: '00B8d0000000Q0tEAE', targetType: 'ListView' }, 'INVALID_CROSS_REFERENCE_KEY'],
      [{ target: 'No_Such_Object__c', targetType: 'ObjectHome' }, 'INVALID_CROSS_REFERENCE_KEY'],
      [{ target: 'No_Such_Item', targetType: 'Tab' }, 'INVALID_CROSS_REFERENCE_KEY'],
      // Already a favorite (by its 15-character id too).
      [{ target: toId15(DEFAULT_CONTACT_ID), targetType: 'Record' }, 'DUPLICATE_VALUE'],
      ['[]', 'INVALID_INPUT'],
      ['{"target": ', 'JSON_PARSER_ERROR'],
    ];
    for (const [body, errorCode] of refusedCreations) {
      const answer = await api.create(admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as ErrorList)[0].errorCode, answer.text).toBe(errorCode);
    }
    // What the standard user may not see is as good as not there: the administrator's private Account, the
    // administrators' tab.
    for (const body of [
      { target: ADMIN_ACCOUNT_ID, targetType: 'Record' },
      { target: 'standard-User', targetType: 'Tab' },
    ]) {
      const answer = await api.create(standard, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual([
        {
          errorCode: 'INVALID_CROSS_REFERENCE_KEY',
          message: `The favorite's target does not exist or you cannot see it: ${body.target}`,
        },
      ]);
    }
    expect(
      ok<Favorite>(await api.create(admin, { target: ADMIN_ACCOUNT_ID, targetType: 'Record' }), 201),
    ).toMatchObject({ name: 'Lakeshore Switchgear Group', objectType: 'Account' });
    const refusedChanges: [unknown, string][] = [
      [{}, 'INVALID_INPUT'],
      [{ target: ADMIN_ACCOUNT_ID }, 'INVALID_INPUT'],
      [{ name: 'B', targetType: 'Record' }, 'INVALID_INPUT'],
      [{ name: '  ' }, 'INVALID_INPUT'],
      [{ sortOrder: -1 }, 'INVALID_INPUT'],
      [{ sortOrder: '2' }, 'INVALID_INPUT'],
      [{ name: 'B', accessCount: 9 }, 'INVALID_INPUT'],
    ];
    for (const [body, errorCode] of refusedChanges) {
      const answer = await api.update(admin, a.id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as ErrorList)[0].errorCode, answer.text).toBe(errorCode);
    }
    const { favorites: all } = ok<Favorites>(await api.list(admin));
    expect(all.map((f) => [f.name, f.sortOrder])).toEqual([
      ['A', 1],
      ['Lakeshore Switchgear Group', 2],
    ]);
  });

  it('answers 400 INVALID_ID_FIELD for an id that is not a favorite id, and 404 NOT_FOUND for one of nothing', async () => {
    for (const id of ['batch', '001000000000000AAA', '0MV8d00000000', '0MV8d0000000001GAA0']) {
      const answer = await api.get(admin, id);
      expect(answer.status, id).toBe(400);
      expect((answer.body as ErrorList)[0].errorCode).toBe('INVALID_ID_FIELD');
      expect((await api.remove(admin, id)).status, id).toBe(400);
      expect((await api.use(admin, id)).status, id).toBe(400);
    }
    // Well formed, but of nothing: an unknown id, and an 18-character id whose suffix does not match.
    for (const id of [NO_FAVORITE_ID, '0MV8d0000000001XYZ']) {
      for (const answer of [
        await api.get(admin, id),
        await api.update(admin, id, { name: 'x' }),
        await api.remove(admin, id),
        await api.use(admin, id),
      ]) {
        expect(answer.status, id).toBe(404);
        expect(answer.body).toEqual(NOT_FOUND_BODY);
      }
    }
  });

  it(`holds a user to ${MAX_FAVORITES} favorites`, async () => {
    expect(MAX_FAVORITES).toBe(200);
    // All but one written directly, then the last and one more through the API.
    await server.db.query(
      `INSERT INTO favorite (id, user_id, name, target, target_type, object_type, sort_order, access_count, last_access_date, created_date)
       SELECT '0MV8d0' || lpad(n::text, 9, '0') || 'AAA', $1, 'Filler ' || n, 'Filler_' || n, 'ObjectHome', 'Account', n, 0, now(), now()
       FROM generate_series(1, $2::int) AS n`,
      [standard.userId, MAX_FAVORITES - 1],
    );
    const last = ok<Favorite>(await api.create(standard, { target: 'Case', targetType: 'ObjectHome' }), 201);
    expect(last.sortOrder).toBe(MAX_FAVORITES);
    const refused = await api.create(standard, { target: 'Contact', targetType: 'ObjectHome' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual([
      { errorCode: 'LIMIT_EXCEEDED', message: `You have ${MAX_FAVORITES} favorites, the most you may have` },
    ]);
    expect(ok<Favorites>(await api.list(standard)).favorites).toHaveLength(MAX_FAVORITES);
  });

  it('answers every operation at an older API version (v55.0)', async () => {
    const version = 'v55.0';
    const created = ok<Favorite>(
      await call<Favorite>(
        'createFavorite',
        'POST',
        '/favorites',
        admin,
        { target: DEFAULT_CONTACT_ID, targetType: 'Record' },
        version,
      ),
      201,
    );
    const [other] = await favorites(admin, { target: 'Account', targetType: 'ObjectHome' });
    const path = `/favorites/${created.id}`;
    expect(
      ok<Favorites>(await call('getFavorites', 'GET', '/favorites', admin, undefined, version)).favorites,
    ).toHaveLength(2);
    expect(ok<Favorite>(await call('getFavorite', 'GET', path, admin, undefined, version)).id).toBe(created.id);
    expect(ok<Favorite>(await call('updateFavorite', 'PATCH', path, admin, { sortOrder: 2 }, version)).sortOrder).toBe(
      2,
    );
    expect(
      ok<Favorite>(await call('updateFavoriteUsage', 'PATCH', `${path}/usage`, admin, undefined, version)).accessCount,
    ).toBe(1);
    const batch = ok<Favorites>(
      await call(
        'updateFavoritesBatch',
        'PUT',
        '/favorites/batch',
        admin,
        { favorites: [{ id: created.id }, { id: other.id }] },
        version,
      ),
    );
    expect(batch.favorites.map((f) => f.id)).toEqual([created.id, other.id]);
    expect((await call('deleteFavorite', 'DELETE', path, admin, undefined, version)).status).toBe(204);
    expect(ok<Favorites>(await api.list(admin)).favorites.map((f) => f.id)).toEqual([other.id]);
  });
});
