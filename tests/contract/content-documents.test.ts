/**
 * File uploads over real HTTP, on every test database: a new file (document, first version, owner's link)
 * and new versions of it, valid and invalid input, every answer checked against the contract; and the
 * stored bytes survive closing and reopening the database.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseSettings } from '../../server/bootstrap.ts';
import {
  contentVersionData,
  createContentDocumentAndVersion,
  createContentVersion,
  MAX_FILE_BYTES,
} from '../../server/platform/content-documents.ts';
import { profileNamed, type Principal } from '../../server/platform/core/principal.ts';
import { readRecord } from '../../server/platform/records/read.ts';
import { UI_API, type ErrorList } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';

interface RecordBody {
  id: string;
  apiName: string;
  fields: Record<string, { value: unknown }>;
}
interface Composite {
  contentDocument: RecordBody;
  contentDocumentLinks: RecordBody[];
  contentVersion: RecordBody;
}

const PDF = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\nAuthorized distributors by region\n', 'latin1');
const upload = (bytes: Buffer, name = 'authorized-distributors-2027.pdf', extra: Record<string, unknown> = {}) => ({
  fileData: { name, type: 'application/pdf', content: bytes.toString('base64') },
  ...extra,
});
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

describe.each(databases())('content documents on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;

  const post = (path: string, body: unknown, session: TestSession | null, operationId: string) =>
    callOperation<Composite | ErrorList>(operationId, `${server.baseUrl}${UI_API}/records/content-documents${path}`, {
      method: 'POST',
      headers: { ...(session?.headers ?? {}), 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const createFile = (body: unknown, session: TestSession | null = admin) =>
    post('/content-versions', body, session, 'createContentDocumentAndVersion');
  const addVersion = (documentId: string, body: unknown, session: TestSession | null = admin) =>
    post(`/${documentId}/content-versions`, body, session, 'createContentVersion');

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 3 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('creates a file: the document, its first version and the link to its owner; the bytes are stored', async () => {
    const { status, body } = await createFile(
      upload(PDF, 'authorized-distributors-2027.pdf', { description: 'Authorized sales representatives by region' }),
    );
    expect(status).toBe(201);
    const { contentDocument, contentVersion, contentDocumentLinks } = body as Composite;
    expect(contentDocument.id).toMatch(/^069/);
    expect(contentVersion.id).toMatch(/^068/);
    expect(contentDocument.fields).toMatchObject({
      Title: { value: 'authorized-distributors-2027' },
      FileExtension: { value: 'pdf' },
      FileType: { value: 'PDF' },
      ContentSize: { value: PDF.length },
      LatestPublishedVersionId: { value: contentVersion.id },
      OwnerId: { value: DEMO_USERS.admin.userId },
    });
    expect(contentVersion.fields).toMatchObject({
      ContentDocumentId: { value: contentDocument.id },
      PathOnClient: { value: 'authorized-distributors-2027.pdf' },
      VersionNumber: { value: '1' },
      IsLatest: { value: true },
      Checksum: { value: md5(PDF) },
      Description: { value: 'Authorized sales representatives by region' },
    });
    expect(contentDocumentLinks).toHaveLength(1);
    expect(contentDocumentLinks[0].fields).toMatchObject({
      ContentDocumentId: { value: contentDocument.id },
      LinkedEntityId: { value: DEMO_USERS.admin.userId },
    });
    expect((await contentVersionData(server.db, contentVersion.id))?.equals(PDF)).toBe(true);
  });

  it('adds versions: the version number grows, IsLatest and the latest version move, the old bytes stay', async () => {
    const first = (await createFile(upload(PDF, 'price-list.pdf', { title: 'Price list' }))).body as Composite;
    const revised = Buffer.concat([PDF, Buffer.from('Revised\n')]);
    const { status, body } = await addVersion(
      first.contentDocument.id,
      upload(revised, 'price-list-v2.pdf', { title: 'Price list, revised' }),
    );
    expect(status).toBe(201);
    const second = body as Composite;
    expect(second.contentDocument.id).toBe(first.contentDocument.id);
    expect(second.contentVersion.id).not.toBe(first.contentVersion.id);
    expect(second.contentVersion.fields).toMatchObject({
      VersionNumber: { value: '2' },
      IsLatest: { value: true },
      ContentSize: { value: revised.length },
    });
    expect(second.contentDocument.fields).toMatchObject({
      LatestPublishedVersionId: { value: second.contentVersion.id },
      Title: { value: 'Price list, revised' },
      ContentSize: { value: revised.length },
    });
    const adminPrincipal: Principal = {
      userId: DEMO_USERS.admin.userId,
      isGuest: false,
      profile: profileNamed('System Administrator'),
    };
    const old = await readRecord(server.db, adminPrincipal, first.contentVersion.id, {
      optionalFields: ['ContentVersion.IsLatest', 'ContentVersion.VersionNumber'],
    });
    expect(old.fields.IsLatest.value).toBe(false);
    expect((await contentVersionData(server.db, first.contentVersion.id))?.equals(PDF)).toBe(true);
    expect((await contentVersionData(server.db, second.contentVersion.id))?.equals(revised)).toBe(true);
    // A 15-character document id works too.
    const third = await addVersion(first.contentDocument.id.slice(0, 15), upload(PDF, 'price-list-v3.pdf'));
    expect(third.status).toBe(201);
    expect((third.body as Composite).contentVersion.fields.VersionNumber.value).toBe('3');
  });

  it('answers 403 to a version of a file the caller neither owns nor collaborates on, and 404 to a file that does not exist', async () => {
    const file = (await createFile(upload(PDF, 'owned-by-admin.pdf'))).body as Composite;
    const refused = await addVersion(file.contentDocument.id, upload(PDF, 'x.pdf'), standard);
    expect(refused.status).toBe(403);
    const missing = await addVersion('0698d000000ZZZZAAA'.slice(0, 15), upload(PDF, 'x.pdf'));
    expect(missing.status).toBe(404);
    expect((missing.body as ErrorList)[0].errorCode).toBe('NOT_FOUND');
  });

  it('lets a standard user upload a file of their own', async () => {
    const { status, body } = await createFile(upload(Buffer.from('plain text\n'), 'notes.txt'), standard);
    expect(status).toBe(201);
    expect((body as Composite).contentDocument.fields).toMatchObject({
      FileType: { value: 'TEXT' },
      OwnerId: { value: DEMO_USERS.standard.userId },
    });
  });

  it('answers 400 "Invalid config for" the operation to a fileData that is not an object, bad base64, an empty file, a bad name', async () => {
    const bad: [string, unknown][] = [
      ['fileData must be an object', { fileData: 'JVBERi0xLjcK' }],
      ['base64', upload(PDF, 'a.pdf', { fileData: { name: 'a.pdf', type: 'application/pdf', content: 'not*base64' } })],
      ['empty', { fileData: { name: 'a.pdf', type: 'application/pdf', content: '' } }],
      ['name', { fileData: { name: 'dir/a.pdf', type: 'application/pdf', content: 'QUJD' } }],
      ['title', upload(PDF, 'a.pdf', { title: '' })],
    ];
    for (const [what, body] of bad) {
      const created = await createFile(body);
      expect(created.status, what).toBe(400);
      expect((created.body as ErrorList)[0].message, what).toMatch(
        /^Invalid config for createContentDocumentAndVersion/,
      );
    }
    const file = (await createFile(upload(PDF))).body as Composite;
    const version = await addVersion(file.contentDocument.id, { fileData: ['not', 'an', 'object'] });
    expect(version.status).toBe(400);
    expect((version.body as ErrorList)[0].message).toBe(
      'Invalid config for createContentVersion: fileData must be an object',
    );
    const badId = await addVersion('0018d0000000001AAA', upload(PDF));
    expect(badId.status).toBe(400);
  });

  it('takes a file of exactly 10 MB and refuses a larger one', async () => {
    const atLimit = `${'AAAA'.repeat(Math.floor(MAX_FILE_BYTES / 3))}AA==`;
    const taken = await createFile({ fileData: { name: 'catalog.zip', type: 'application/zip', content: atLimit } });
    expect(taken.status).toBe(201);
    expect((taken.body as Composite).contentVersion.fields.ContentSize.value).toBe(MAX_FILE_BYTES);
    const refused = await createFile({
      fileData: { name: 'catalog.zip', type: 'application/zip', content: `${atLimit}AAAA` },
    });
    expect(refused.status).toBe(400);
    expect((refused.body as ErrorList)[0].message).toMatch(/^Invalid config for createContentDocumentAndVersion/);
  });

  it('answers 401 to a guest', async () => {
    expect((await createFile(upload(PDF), null)).status).toBe(401);
  });
});

describe.each(databases())('content version bodies across a restart on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });
  const quiet = {
    demoPasswords: { admin: 'restart-test-admin-password', standard: 'restart-test-user-password' },
    log: () => {},
  };
  const adminSql = async (url: string, sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql);
    await client.end();
  };

  it('keeps the file, its versions and their bytes', async () => {
    let settings: DatabaseSettings;
    if (kind === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'content-restart-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      settings = { dataDir, demoContacts: 3 };
    } else {
      const base = process.env.TEST_DATABASE_URL!;
      const schema = `content_restart_${process.pid}_${Date.now().toString(36)}`;
      await adminSql(base, `CREATE SCHEMA ${schema}`);
      cleanups.push(() => adminSql(base, `DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      const url = new URL(base);
      url.searchParams.set('options', `-c search_path=${schema}`);
      settings = { databaseUrl: url.toString(), dataDir: ':memory:', demoContacts: 3 };
    }
    const principal: Principal = {
      userId: DEMO_USERS.admin.userId,
      isGuest: false,
      profile: profileNamed('System Administrator'),
    };
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
    const first = await openDatabase(settings, quiet);
    let created: Awaited<ReturnType<typeof createContentDocumentAndVersion>>;
    let revised: Awaited<ReturnType<typeof createContentVersion>>;
    try {
      created = await createContentDocumentAndVersion(first, principal, upload(bytes, 'catalog.bin'));
      revised = await createContentVersion(
        first,
        principal,
        created.contentDocument.id,
        upload(bytes.subarray(0, 100), 'catalog.bin'),
      );
    } finally {
      await first.close();
    }
    const second = await openDatabase(settings, quiet);
    try {
      expect((await contentVersionData(second, created.contentVersion.id))?.equals(bytes)).toBe(true);
      expect((await contentVersionData(second, revised.contentVersion.id))?.equals(bytes.subarray(0, 100))).toBe(true);
      const document = await readRecord(second, principal, created.contentDocument.id, {
        optionalFields: ['ContentDocument.LatestPublishedVersionId'],
      });
      expect(document.fields.LatestPublishedVersionId.value).toBe(revised.contentVersion.id);
    } finally {
      await second.close();
    }
    // A new database opened twice: its migrations, seed and list of places take seconds on a busy machine.
  }, 120_000);
});
