/**
 * Record avatars over real HTTP, on every test database: the batch read (per-item status, Theme or Photo)
 * and the association call, valid and invalid input, every answer checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import { DEFAULT_CONTACT_ID, UI_API, type ErrorList } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Avatar = {
  type: 'Theme' | 'Photo';
  recordId: string;
  eTag: string;
  backgroundColor: string | null;
  iconUrl?: string | null;
  photoUrl?: string;
  provider?: string | null;
  photoMetadata?: { companyBluemasterId: string | null };
};
interface Bulk {
  hasErrors: boolean;
  results: ({ statusCode: 200; result: Avatar } | { statusCode: 400 | 404; result: ErrorList })[];
}

const ADMIN_ACCOUNT = makeId('001', 1);
const SECOND_ADMIN_ACCOUNT = makeId('001', 2);
const STANDARD_ACCOUNT = makeId('001', 3);
const LOGO = {
  actionType: 'AssociateAvatar',
  blueMasterId: '804735132',
  externalId: 'logo-804735132',
  photoUrl: 'https://logos.example/804735132.png',
  profileName: 'Lakeshore Switchgear Group',
};

describe.each(databases())('record avatars on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;

  const batch = (ids: string, session: TestSession | null = admin, headers: Record<string, string> = {}) =>
    callOperation<Bulk | ErrorList>('getRecordAvatars', `${server.baseUrl}${UI_API}/record-avatars/batch/${ids}`, {
      headers: { ...(session?.headers ?? {}), ...headers },
    });
  const associate = (recordId: string, body: unknown, session: TestSession | null = admin) =>
    callOperation<Avatar | ErrorList>(
      'updateRecordAvatar',
      `${server.baseUrl}${UI_API}/record-avatars/${recordId}/association`,
      {
        method: 'POST',
        headers: { ...(session?.headers ?? {}), 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      },
    );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 3 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('answers one result per id, in order: theme avatars, 404 for a missing record, 400 for a bad id', async () => {
    const badId = `${DEFAULT_CONTACT_ID.slice(0, 15)}ZZZ`;
    const { status, body, headers } = await batch(
      `${DEFAULT_CONTACT_ID},${makeId('001', 999)},${badId},${SECOND_ADMIN_ACCOUNT}`,
    );
    expect(status).toBe(200);
    const bulk = body as Bulk;
    expect(bulk.hasErrors).toBe(true);
    expect(bulk.results.map((result) => result.statusCode)).toEqual([200, 404, 400, 200]);
    expect(bulk.results[0].result).toMatchObject({ type: 'Theme', recordId: DEFAULT_CONTACT_ID });
    expect(bulk.results[1].result).toEqual([
      { errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' },
    ]);
    expect((bulk.results[2].result as ErrorList)[0].errorCode).toBe('INVALID_ID_FIELD');
    expect(bulk.results[3].result).toMatchObject({ type: 'Theme', recordId: SECOND_ADMIN_ACCOUNT });
    expect(headers.get('cache-control')).toBe('private, max-age=3600');
    const again = await batch(`${DEFAULT_CONTACT_ID},${makeId('001', 999)},${badId},${SECOND_ADMIN_ACCOUNT}`, admin, {
      'If-None-Match': headers.get('etag')!,
    });
    expect(again.status).toBe(304);
  });

  it('has no errors when every record is found', async () => {
    const { status, body } = await batch(`${DEFAULT_CONTACT_ID},${STANDARD_ACCOUNT}`);
    expect(status).toBe(200);
    expect((body as Bulk).hasErrors).toBe(false);
  });

  it('associates a logo: the record then has a Photo avatar, in the batch read too; disassociating restores the theme', async () => {
    const set = await associate(ADMIN_ACCOUNT, LOGO);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      type: 'Photo',
      recordId: ADMIN_ACCOUNT,
      photoUrl: LOGO.photoUrl,
      provider: 'logos.example',
      photoMetadata: { companyBluemasterId: LOGO.blueMasterId },
    });
    const read = await batch(ADMIN_ACCOUNT);
    expect((read.body as Bulk).results[0]).toEqual({ statusCode: 200, result: set.body });
    const removed = await associate(ADMIN_ACCOUNT, { actionType: 'DisassociateAvatar' });
    expect(removed.status).toBe(200);
    expect((removed.body as Avatar).type).toBe('Theme');
    expect(((await batch(ADMIN_ACCOUNT)).body as Bulk).results[0].result).toMatchObject({ type: 'Theme' });
  });

  it('treats a record the caller may not see as missing, in the batch and in the association call', async () => {
    const { body } = await batch(`${ADMIN_ACCOUNT},${STANDARD_ACCOUNT}`, standard);
    expect((body as Bulk).results.map((result) => result.statusCode)).toEqual([404, 200]);
    const hidden = await associate(ADMIN_ACCOUNT, LOGO, standard);
    const missing = await associate(makeId('001', 999), LOGO, standard);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
  });

  it('answers 403 to a caller who may see but not edit the record', async () => {
    // Users are readable by the standard profile, not editable.
    const { status, body } = await associate('0058d0000000001AAA', { ...LOGO, blueMasterId: undefined }, standard);
    expect(status).toBe(403);
    expect((body as ErrorList)[0].errorCode).toBe('INSUFFICIENT_ACCESS_OR_READONLY');
  });

  it('answers 400 "Invalid config for updateRecordAvatar" to a bad action, a missing or non-https photoUrl, a bad body', async () => {
    for (const body of [
      { actionType: 'Paint' },
      { actionType: 'AssociateAvatar' },
      { ...LOGO, photoUrl: 'http://logos.example/1.png' },
      {},
      'not json',
    ]) {
      const { status, body: errors } = await associate(ADMIN_ACCOUNT, body);
      expect(status, JSON.stringify(body)).toBe(400);
      if (body !== 'not json')
        expect((errors as ErrorList)[0].message, JSON.stringify(body)).toContain('updateRecordAvatar');
    }
    expect((await associate('001-bad', LOGO)).status).toBe(400);
  });

  it('answers 401 to a guest', async () => {
    expect((await batch(DEFAULT_CONTACT_ID, null)).status).toBe(401);
    expect((await associate(ADMIN_ACCOUNT, LOGO, null)).status).toBe(401);
  });
});
