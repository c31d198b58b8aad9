/**
 * Backups (server/db/dump.ts, restore.ts; scripts/backup.ts, restore.ts, move-to-postgres.ts). In one process:
 * what users wrote over HTTP goes PGlite → dump → PostgreSQL (TEST_DATABASE_URL; PGlite otherwise) → dump →
 * PGlite, every table's rows equal at each step and what triggers derive made again; a target that holds data
 * is refused and left as it was; a dump cut short loads nothing. As processes: `npm run backup` against a
 * running server on a PGlite data directory (its control socket), which keeps serving, even when a reader
 * goes away mid-dump; restore into a new directory, where a server then signs the same user in and finds the
 * record written just before the backup; and the move of that directory to PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { controlSocketPath, DUMP_PATH, openControlChannel } from '../../server/db/control-channel.ts';
import { DumpFormatError, linesOf, parseHeader, type DumpHeader } from '../../server/db/dump-format.ts';
import { DumpCutShortError, writeDump } from '../../server/db/dump.ts';
import { openDatabaseAsFound } from '../../server/db/open.ts';
import { RestoreRefusedError, restoreDump } from '../../server/db/restore.ts';
import { UI_API } from '../support/api.ts';
import { adminQuery, startTestServer, withSearchPath, type TestServer } from '../support/server.ts';
import { spawnSite, stopSites } from '../support/site-process.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PDF = Buffer.from('%PDF-1.7\nAuthorized distributors by region\n', 'latin1');

async function dumpOf(db: Database): Promise<string> {
  const out = new PassThrough({ encoding: 'utf8' });
  let text = '';
  out.on('data', (chunk: string) => (text += chunk));
  await writeDump(db, out);
  return text;
}

async function* linesOfText(text: string): AsyncGenerator<string> {
  yield* linesOf(
    (async function* () {
      yield text;
    })(),
  );
}

/** A dump's header and each table's row lines. */
function parseDump(text: string): { header: DumpHeader; rows: Map<string, string[]> } {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = parseHeader(lines[0]);
  const rows = new Map<string, string[]>();
  let at = 1;
  for (const [table, count] of Object.entries(header.tables)) {
    expect(JSON.parse(lines[at]).table).toBe(table);
    rows.set(table, lines.slice(at + 1, at + 1 + count));
    at += 1 + count;
  }
  expect(at).toBe(lines.length);
  return { header, rows };
}

/**
 * The tables whose rows differ between two dumps, each with its first differing row. Rows come in the order
 * a table stores them, which a load into a table that has held rows (a load rolled back) need not keep.
 */
function differences(a: string, b: string): string[] {
  const [one, two] = [parseDump(a), parseDump(b)];
  expect(Object.keys(two.header.tables)).toEqual(Object.keys(one.header.tables));
  return [...one.rows].flatMap(([table, unsorted]) => {
    const rows = unsorted.toSorted();
    const other = two.rows.get(table)!.toSorted();
    const at = rows.findIndex((row, index) => row !== other[index]);
    if (at === -1 && rows.length === other.length) return [];
    return [`${table}: ${rows.length} and ${other.length} rows; first difference at ${at}:\n${rows[at]}\n${other[at]}`];
  });
}

/** What triggers derive: the search documents (carried by the dump), the locator's counts (made again as records load). */
async function derived(db: Database) {
  const { rows: documents } = await db.query(`SELECT id, search_document::text AS document FROM record ORDER BY id`);
  const { rows: counts } = await db.query(
    `SELECT country, state, brands, n::int AS n FROM contact_us_locator_count WHERE n > 0 ORDER BY country, state, brands::text COLLATE "C"`,
  );
  return { documents, counts };
}

const postgresUrl = process.env.TEST_DATABASE_URL;
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await adminQuery(postgresUrl!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

/** An empty database: a new schema of TEST_DATABASE_URL's, or PGlite in memory. */
async function emptyDatabase(kind: 'postgres' | 'pglite'): Promise<Database> {
  if (kind === 'pglite') return openDatabaseAsFound({ dataDir: ':memory:', demoContacts: 0 });
  const schema = `backup_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(postgresUrl!, `CREATE SCHEMA ${schema}`);
  schemas.push(schema);
  return openDatabaseAsFound({
    databaseUrl: withSearchPath(postgresUrl!, schema),
    dataDir: ':memory:',
    demoContacts: 0,
  });
}

describe('dump and restore', () => {
  let server: TestServer;
  let admin: TestSession;
  let accountId: string;
  let versionId: string;
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${server.baseUrl}${UI_API}${path}`, {
      method,
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startTestServer({ demoContacts: 40 });
    admin = await signIn(server, 'admin');
    const account = await send('POST', '/records', {
      apiName: 'Account',
      fields: { Name: 'Backup "Électrique"\nSupply ☃', Phone: '555-0100' },
    });
    expect(account.status).toBe(201);
    accountId = ((await account.json()) as { id: string }).id;
    const preferences = await send('PATCH', '/list-preferences/APT_Contact_Us__c/AllContactUs', {
      columnWidths: { Name: 180 },
      orderedBy: [],
    });
    expect(preferences.status).toBe(200);
    const file = await send('POST', '/records/content-documents/content-versions', {
      fileData: { name: 'distributors.pdf', type: 'application/pdf', content: PDF.toString('base64') },
    });
    expect(file.status).toBe(201);
    versionId = ((await file.json()) as { contentVersion: { id: string } }).contentVersion.id;
  });
  afterAll(() => server?.close());

  it(`carries every table's rows PGlite → ${postgresUrl ? 'PostgreSQL' : 'PGlite'} → PGlite, with what users wrote over HTTP`, async () => {
    const first = await dumpOf(server.db);
    const { header, rows } = parseDump(first);
    expect(header).toMatchObject({ source: 'pglite', migration: expect.stringMatching(/^\d{3}_/) });
    expect(header.tables).not.toHaveProperty('schema_migration');
    expect(rows.get('record')!.some((row) => JSON.parse(row).id === accountId)).toBe(true);
    // Generated columns are computed by the target; the search documents are carried as they are.
    expect(
      rows
        .get('record')!
        .every((row) => 'search_document' in JSON.parse(row) && !('contact_us_country' in JSON.parse(row))),
    ).toBe(true);
    expect(rows.get('user_session')!.length).toBeGreaterThanOrEqual(1);
    expect(rows.get('list_preference')!.map((row) => JSON.parse(row))).toContainEqual(
      expect.objectContaining({
        user_id: DEMO_USERS.admin.userId,
        list_view_api_name: 'AllContactUs',
        column_widths: { Name: 180 },
      }),
    );
    expect(rows.get('content_version_data')!.map((row) => JSON.parse(row))).toContainEqual(
      expect.objectContaining({ version_id: versionId, content: `\\x${PDF.toString('hex')}` }),
    );

    const middle = await emptyDatabase(postgresUrl ? 'postgres' : 'pglite');
    const last = await emptyDatabase('pglite');
    try {
      const restored = await restoreDump(middle, linesOfText(first));
      expect(restored.counts).toEqual(header.tables);
      const second = await dumpOf(middle);
      expect(differences(first, second)).toEqual([]);
      await restoreDump(last, linesOfText(second));
      const third = await dumpOf(last);
      expect(differences(first, third)).toEqual([]);
      expect(parseDump(third).header).toMatchObject({ migration: header.migration, tables: header.tables });

      const before = await derived(server.db);
      expect(before.documents.length).toBeGreaterThan(40);
      expect(await derived(middle)).toEqual(before);
      expect(await derived(last)).toEqual(before);

      // The field history loaded as it was, and the next change's history takes ids past it (migration 027).
      const historyIds = async (db: Database) =>
        (
          await db.query<{ id: string }>(
            `SELECT id FROM record WHERE object_api_name = 'APT_Contact_Us__History' ORDER BY id`,
          )
        ).rows.map((row) => row.id);
      const loaded = await historyIds(last);
      expect(loaded.length).toBeGreaterThanOrEqual(40);
      expect(loaded).toEqual(await historyIds(server.db));
      await last.query(
        `UPDATE record SET fields = fields || '{"APT_City__c": "Restored"}' WHERE id = (SELECT min(id) FROM record WHERE object_api_name = 'APT_Contact_Us__c')`,
      );
      const after = await historyIds(last);
      expect(after.slice(0, -1)).toEqual(loaded);
      expect(after.at(-1)! > loaded.at(-1)!).toBe(true);
    } finally {
      await middle.close();
      await last.close();
    }
  });

  it('refuses a target that holds data, and changes nothing in it', async () => {
    const dump = await dumpOf(server.db);
    const target = await emptyDatabase('pglite');
    try {
      await restoreDump(target, linesOfText(dump));
      const before = await dumpOf(target);
      const refusal = restoreDump(target, linesOfText(dump));
      await expect(refusal).rejects.toThrow(RestoreRefusedError);
      await expect(refusal).rejects.toThrow(/not empty \(rows in .*record.*\)/);
      expect(differences(before, await dumpOf(target))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('loads nothing from a dump cut short, and the same target then takes the whole dump', async () => {
    const dump = await dumpOf(server.db);
    const cut = dump.slice(0, Math.floor(dump.length * 0.9));
    const target = await emptyDatabase('pglite');
    try {
      await expect(restoreDump(target, linesOfText(cut))).rejects.toThrow(DumpFormatError);
      const { rows } = await target.query<{ n: number }>('SELECT count(*)::int AS n FROM record');
      expect(rows[0].n).toBe(0);
      await restoreDump(target, linesOfText(dump));
      expect(differences(dump, await dumpOf(target))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('answers only GET /dump on its control socket, which replaces a stale file, is for its owner only, and goes at close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'control-channel-'));
    try {
      writeFileSync(controlSocketPath(dir), 'left by a killed server');
      const channel = await openControlChannel(dir, server.db, () => {});
      expect(channel).not.toBeNull();
      expect(statSync(controlSocketPath(dir)).isSocket()).toBe(true);
      expect(statSync(controlSocketPath(dir)).mode & 0o777).toBe(0o600);
      const ask = (method: string, path: string) =>
        new Promise<{ status: number; body: string }>((done, fail) => {
          const req = request({ socketPath: controlSocketPath(dir), method, path }, (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => done({ status: response.statusCode!, body }));
          });
          req.on('error', fail);
          req.end();
        });
      expect((await ask('GET', '/')).status).toBe(404);
      expect((await ask('POST', DUMP_PATH)).status).toBe(405);
      const dump = await ask('GET', DUMP_PATH);
      expect(dump.status).toBe(200);
      expect(differences(dump.body, await dumpOf(server.db))).toEqual([]);
      await channel!.close();
      expect(existsSync(controlSocketPath(dir))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends its transaction when the reader goes away mid-dump: the database serves on', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    out.once('data', () => out.destroy());
    await expect(writeDump(server.db, out)).rejects.toThrow(DumpCutShortError);
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM record');
    expect(rows[0].n).toBeGreaterThan(40);
    const response = await fetch(`${server.baseUrl}${UI_API}/records/${accountId}?fields=Account.Name`, {
      headers: admin.headers,
    });
    expect(response.status).toBe(200);
  });
});

const running: ChildProcess[] = [];

/** The site as a process on dataDir, listening (it fails the test if the server exits instead). */
async function spawnServer(dataDir: string, env: Record<string, string>) {
  const server = await spawnSite(dataDir, env);
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    throw new Error(`The server exited:\n${server.output()}`);
  return server;
}

/** Runs a script of scripts/ as npm run would, from the TypeScript sources; its exit code and output. */
async function runScript(script: string, args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const status = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { status, output };
}

async function signInAs(baseUrl: string, password: string): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/services/auth/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify({ username: DEMO_USERS.admin.username, password }),
  });
  expect(response.status).toBe(200);
  const cookie = /^(?:__Host-)?sid=[^;]*/.exec(response.headers.getSetCookie().join('\n'))![0];
  return { Cookie: cookie, Origin: baseUrl };
}

/** Reads a dump over the control socket and hangs up after its first chunk. */
function hangUpMidDump(dataDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const req = request({ socketPath: controlSocketPath(dataDir), path: DUMP_PATH }, (response) => {
      expect(response.statusCode).toBe(200);
      response.once('data', () => {
        req.destroy();
        done();
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : fail(error)));
    req.end();
  });
}

describe('npm run backup, restore and move-to-postgres with a server process on a PGlite data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backup-process-'));
  const dataDir = join(dir, 'data');
  const restoredDir = join(dir, 'restored');
  const file = join(dir, 'backup.jsonl.gz');
  const password = 'backup-test-admin-password';
  afterEach(async () => {
    await stopSites();
    for (const child of running.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGKILL');
      await new Promise((done) => child.once('exit', done));
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('backs up the running server with a write made just before; restores it into a new directory, where the same user signs in and finds it', async () => {
    const server = await spawnServer(dataDir, { DEMO_ADMIN_PASSWORD: password });
    expect(statSync(controlSocketPath(dataDir)).mode & 0o777).toBe(0o600);
    const headers = await signInAs(server.baseUrl, password);
    const created = await fetch(`${server.baseUrl}${UI_API}/records`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: 'Account', fields: { Name: 'Written Just Before The Backup' } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // A reader that goes away mid-dump ends the dump's transaction: the server goes on serving, and backing up.
    await hangUpMidDump(dataDir);
    const read = await fetch(`${server.baseUrl}${UI_API}/records/${id}?fields=Account.Name`, {
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    expect(read.status).toBe(200);

    const backup = await runScript('backup.ts', [file], { DATA_DIR: dataDir });
    expect(backup.status, backup.output).toBe(0);
    expect(backup.output).toContain(`the server running on ${dataDir}`);
    const { header, rows } = parseDump(gunzipSync(readFileSync(file)).toString('utf8'));
    expect(rows.get('record')!.map((row) => JSON.parse(row).id)).toContain(id);
    expect(header.tables.record).toBe(rows.get('record')!.length);
    expect(rows.get('user_session')!.length).toBeGreaterThanOrEqual(1);

    if (postgresUrl) {
      const schema = `backup_move_${process.pid}_${randomBytes(4).toString('hex')}`;
      await adminQuery(postgresUrl, `CREATE SCHEMA ${schema}`);
      schemas.push(schema);
      const move = await runScript('move-to-postgres.ts', [withSearchPath(postgresUrl, schema)], { DATA_DIR: dataDir });
      expect(move.status, move.output).toBe(0);
      expect(move.output).toMatch(/record\s+\d[\d,]*\s+\d[\d,]*/);
      const moved = await openDatabaseAsFound({
        databaseUrl: withSearchPath(postgresUrl, schema),
        dataDir: ':memory:',
        demoContacts: 0,
      });
      try {
        const { rows: found } = await moved.query<{ name: string }>(
          `SELECT fields ->> 'Name' AS name FROM record WHERE id = $1`,
          [id],
        );
        expect(found).toEqual([{ name: 'Written Just Before The Backup' }]);
      } finally {
        await moved.close();
      }
    }

    // Killed: its socket is left behind, stale.
    server.child.kill('SIGKILL');
    await server.exited;
    expect(existsSync(controlSocketPath(dataDir))).toBe(true);

    const restore = await runScript('restore.ts', [file], { DATA_DIR: restoredDir });
    expect(restore.status, restore.output).toBe(0);
    expect(restore.output).toMatch(/record\s+\d[\d,]*\s+\d[\d,]*/);
    const again = await runScript('restore.ts', [file], { DATA_DIR: restoredDir });
    expect(again.status).toBe(1);
    expect(again.output).toMatch(/not empty.*nothing was changed/);

    // Its own password is not the one the restored credentials hold: the user signs in with the original.
    const restored = await spawnServer(restoredDir, { DEMO_ADMIN_PASSWORD: 'not-the-restored-password' });
    const restoredHeaders = await signInAs(restored.baseUrl, password);
    const found = await fetch(`${restored.baseUrl}${UI_API}/records/${id}?fields=Account.Name`, {
      headers: restoredHeaders,
    });
    expect(found.status).toBe(200);
    expect(((await found.json()) as { fields: { Name: { value: string } } }).fields.Name.value).toBe(
      'Written Just Before The Backup',
    );
    restored.child.kill('SIGTERM');
    expect((await restored.exited).code).toBe(0);
    expect(existsSync(controlSocketPath(restoredDir))).toBe(false);

    // The killed server's directory: its stale socket is replaced at the next start.
    const next = await spawnServer(dataDir, {});
    const second = await runScript('backup.ts', [join(dir, 'second.jsonl.gz')], { DATA_DIR: dataDir });
    expect(second.status, second.output).toBe(0);
    expect(second.output).toContain(`the server running on ${dataDir}`);
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
    expect(existsSync(controlSocketPath(dataDir))).toBe(false);
  }, 240_000);
});
