/**
 * The CSV import of records over real HTTP (server/routes/record-import.ts), on every test database: the dry
 * run's report, as JSON and as a CSV attachment; the commit's NDJSON (progress lines, then the report), after
 * which the records and their history read back through the record API (checked against the contract), and a
 * second import of the same file creates nothing; each bad input answered with its error and nothing written
 * (an empty file, a file that is not CSV, no mappable column, a file too large by Content-Length and as it
 * arrives, 10,000 columns, too many rows); an unknown object, one that cannot be created, a guest, a write with
 * no CSRF token; the saved mapping; a client that goes away during a commit; and `npm run import` itself.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../generated/types.ts';
import { recordImportPath, type RecordImportStep } from '../../common/pages.ts';
import { IMPORT_MAX_BODY_BYTES } from '../../server/http/limits/limits.ts';
import type { ImportReport } from '../../common/import-report.ts';
import { MAX_FILE_BYTES } from '../../server/platform/import/parse.ts';
import { PGLITE_EXTENSIONS } from '../../server/db/pglite-extensions.ts';
import { CONTACT_US, UI_API, type RecordRep } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { readCsv } from '../support/csv.ts';
import { databaseImage } from '../support/database-image.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';

type RelatedPage = Schemas['RelatedListRecordCollectionRepresentation'];
type ErrorBody = { errorCode: string; message: string }[];
type CommitLine =
  | { type: 'progress'; done: number; total: number }
  | { type: 'error'; errorCode: string; message: string }
  | ({ type: 'report' } & ImportReport);

const ROOT = resolve(import.meta.dirname, '../..');
const HISTORY = 'APT_Contact_Us__History';
const HEADER = 'Company Name,Email,City,Country,Primary State/Province,Phone,Brand';

/** A row of the test files, by the header above. */
const row = (company: string, email: string, brand = 'Arcline', state = 'Pennsylvania') =>
  `${company},${email},Erie,United States,${state},814-555-0142,${brand}`;

const csv = (...rows: string[]) => [HEADER, ...rows].join('\r\n') + '\r\n';

describe.each(databases())('the CSV import of records on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;

  const urlOf = (object: string, step: RecordImportStep, query = '') =>
    `${server.baseUrl}${recordImportPath(object, step)}${query}`;
  const formOf = (file: string | Uint8Array<ArrayBuffer>, options?: unknown) => {
    const form = new FormData();
    form.set('file', new Blob([file], { type: 'text/csv' }), 'contacts.csv');
    if (options !== undefined) form.set('options', JSON.stringify(options));
    return form;
  };
  const upload = (
    step: 'dry-run' | 'commit',
    file: string | Uint8Array<ArrayBuffer>,
    { options, session = admin, object = CONTACT_US, query = '', signal } = {} as {
      options?: unknown;
      session?: TestSession | null;
      object?: string;
      query?: string;
      signal?: AbortSignal;
    },
  ) =>
    fetch(urlOf(object, step, query), {
      method: 'POST',
      headers: session?.headers ?? {},
      body: formOf(file, options),
      redirect: 'manual',
      signal,
    });
  const dryRun = async (file: string, options?: unknown): Promise<ImportReport> => {
    const response = await upload('dry-run', file, { options });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as ImportReport;
  };
  /** The commit's answer, line by line. */
  const commit = async (file: string, options?: unknown): Promise<CommitLine[]> => {
    const response = await upload('commit', file, { options });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const text = await response.text();
    expect(text.endsWith('\n')).toBe(true);
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CommitLine);
  };
  const reportOf = (lines: CommitLine[]): ImportReport => {
    const last = lines.at(-1)!;
    expect(last.type).toBe('report');
    const { type: _type, ...report } = last as { type: 'report' } & ImportReport;
    return report;
  };
  /** How many records the database holds (Contact Us and their history): a refused import changes neither. */
  const counts = async () =>
    (
      await server.db.query<{ object_api_name: string; count: string }>(
        `SELECT object_api_name, count(*) FROM record WHERE object_api_name IN ($1, $2) GROUP BY 1 ORDER BY 1`,
        [CONTACT_US, HISTORY],
      )
    ).rows.map((found) => `${found.object_api_name} ${found.count}`);
  const expectError = async (response: Response, status: number, errorCode: string) => {
    const body = (await response.json()) as ErrorBody;
    expect({ status: response.status, body }).toEqual({
      status,
      body: [{ errorCode, message: expect.any(String) }],
    });
    return body[0].message;
  };

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 10 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('answers a dry run with the report of every row, and writes nothing', async () => {
    const before = await counts();
    const report = await dryRun(
      csv(row('Dry Run Relays', 'dry@relays.example'), row('Dry Run Brands', 'brands@relays.example', 'Foo')),
    );
    expect(report.objectApiName).toBe(CONTACT_US);
    expect(report.committed).toBe(false);
    expect(report.columns.find((column) => column.header === 'Company Name')).toMatchObject({
      field: 'APT_Company_Name__c',
      by: 'label',
    });
    expect(report.totals).toMatchObject({ rows: 2, new: 1, changed: 0, unchanged: 0, invalid: 1 });
    expect(report.rows.map((found) => [found.line, found.status])).toEqual([
      [2, 'new'],
      [3, 'invalid'],
    ]);
    expect(report.rows[1].errors).toEqual([{ field: 'APT_Brand__c', message: expect.stringContaining('Foo') }]);
    expect(await counts()).toEqual(before);
  });

  it('answers the dry run as a CSV attachment with ?format=csv', async () => {
    const response = await upload(
      'dry-run',
      csv(row('Report Relays', 'report@relays.example'), row('Report Brands', 'rb@relays.example', 'Foo')),
      { query: '?format=csv' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Contact Us import report ${today}.csv"; filename*=UTF-8''Contact%20Us%20import%20report%20${today}.csv`,
    );
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = readCsv(text.slice(1));
    expect(header).toEqual(['Line', 'Status', 'Record Id', 'Changes', 'Errors', 'Warnings', 'Outcome']);
    expect(rows.map((cells) => cells.slice(0, 3))).toEqual([
      ['2', 'new', ''],
      ['3', 'invalid', ''],
    ]);
    expect(rows[1][4]).toContain('Foo');
  });

  it('commits the valid rows with progress lines, then the report; the records and history read back', async () => {
    const rows = Array.from({ length: 450 }, (_, i) => row(`Commit Relays ${i}`, `commit${i}@relays.example`));
    const file = csv(...rows, row('Commit Brands', 'cb@relays.example', 'Foo'));
    const lines = await commit(file);
    const progress = lines.slice(0, -1);
    expect(progress.length).toBeGreaterThan(1);
    for (const [index, line] of progress.entries()) {
      expect(line).toEqual({ type: 'progress', done: expect.any(Number), total: 450 });
      if (index > 0)
        expect((line as { done: number }).done).toBeGreaterThan((progress[index - 1] as { done: number }).done);
    }
    expect(progress.at(-1)).toEqual({ type: 'progress', done: 450, total: 450 });
    const report = reportOf(lines);
    expect(report.committed).toBe(true);
    expect(report.totals).toMatchObject({ rows: 451, new: 450, invalid: 1, created: 450, updated: 0, failed: 0 });
    expect(report.rows.at(-1)).toMatchObject({ status: 'invalid', outcome: 'not written' });
    expect(report.history?.transactionIds.length).toBeGreaterThan(0);
    expect(report.history?.rows).toBe(450);

    // Through the record API, as any client reads them.
    const created = report.rows[0];
    expect(created.outcome).toBe('created');
    const record = await callOperation<RecordRep>(
      'getRecord',
      `${server.baseUrl}${UI_API}/records/${created.recordId}?fields=${CONTACT_US}.APT_Company_Name__c,${CONTACT_US}.APT_Email__c`,
      { headers: admin.headers },
    );
    expect(record.status).toBe(200);
    expect(record.body.fields.APT_Company_Name__c.value).toBe('Commit Relays 0');
    expect(record.body.fields.APT_Email__c.value).toBe('commit0@relays.example');
    const history = await callOperation<RelatedPage>(
      'getRelatedListRecords',
      `${server.baseUrl}${UI_API}/related-list-records/${created.recordId}/Histories`,
      {
        method: 'POST',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields: [`${HISTORY}.Field`, `${HISTORY}.CreatedById`], pageSize: 10 }),
      },
    );
    expect(history.status).toBe(200);
    expect(history.body.records.map((found) => [found.fields.Field.value, found.fields.CreatedById.value])).toEqual([
      ['created', DEMO_USERS.admin.userId],
    ]);
    const { rows: transactions } = await server.db.query<{ transaction_id: string }>(
      `SELECT DISTINCT fields ->> 'TransactionId' AS transaction_id FROM record WHERE object_api_name = $1 AND fields ->> 'ParentId' = $2`,
      [HISTORY, created.recordId],
    );
    expect(report.history?.transactionIds).toContain(transactions[0].transaction_id);

    // The same file again: every row found by its match key, nothing created.
    const before = await counts();
    const again = reportOf(await commit(file));
    expect(again.totals).toMatchObject({ new: 0, unchanged: 450, invalid: 1, created: 0, updated: 0 });
    expect(await counts()).toEqual(before);
  });

  it('refuses each bad input with its error, and writes nothing', async () => {
    const before = await counts();
    const wide = `${Array.from({ length: 10_000 }, (_, i) => `Column ${i}`).join(',')}\r\n${',x'.repeat(9_999)}\r\n`;
    const long = csv(...Array.from({ length: 50_001 }, (_, i) => row(`Many ${i}`, `m${i}@x.example`)));
    const cases: [name: string, file: string | Uint8Array<ArrayBuffer>, status: number, errorCode: string][] = [
      ['empty', '', 400, 'EMPTY_FILE'],
      ['header alone', `${HEADER}\r\n`, 400, 'EMPTY_FILE'],
      ['not text', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0xfe, 0x00]), 415, 'NOT_CSV'],
      ['no mappable column', 'Colour,Size\r\nred,9\r\n', 400, 'NO_MAPPABLE_COLUMN'],
      ['10,000 columns', wide, 400, 'TOO_MANY_COLUMNS'],
      ['50,001 rows', long, 400, 'TOO_MANY_ROWS'],
    ];
    for (const [name, file, status, errorCode] of cases) {
      for (const step of ['dry-run', 'commit'] as const) {
        const response = await upload(step, file);
        expect(response.headers.get('content-type'), `${name} (${step})`).toMatch(/^application\/json/);
        await expectError(response, status, errorCode);
      }
    }
    expect(await counts()).toEqual(before);
    // The server is unharmed: it answers the next import at once.
    expect((await dryRun(csv(row('After Bad Input', 'after@relays.example')))).totals.new).toBe(1);
  });

  it('refuses a body that is not multipart, a form without a file and options that are not the options', async () => {
    const notForm = await fetch(urlOf(CONTACT_US, 'dry-run'), {
      method: 'POST',
      headers: { ...admin.headers, 'Content-Type': 'text/csv' },
      body: csv(row('A', 'a@a.example')),
    });
    await expectError(notForm, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const form = new FormData();
    form.set('options', '{}');
    await expectError(
      await fetch(urlOf(CONTACT_US, 'dry-run'), { method: 'POST', headers: admin.headers, body: form }),
      400,
      'MISSING_ARGUMENT',
    );
    for (const options of [{ allOrNone: 'yes' }, { matchKey: 'APT_Email__c' }, { unknown: true }])
      await expectError(await upload('commit', csv(row('A', 'a@a.example')), { options }), 400, 'INVALID_INPUT');
  });

  it('answers 413 FILE_TOO_LARGE to a file over 25 MB, from Content-Length or as it arrives, without reading it whole', async () => {
    const before = await counts();
    // 100 MB announced: refused before any of it is read (what was sent by then is what the sockets' buffers
    // took, well below the limit).
    const announced = await rawUpload(urlOf(CONTACT_US, 'commit'), admin, 100 * 1024 * 1024);
    expect(announced.sent).toBeLessThan(MAX_FILE_BYTES / 2);
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.body)).toEqual([{ errorCode: 'FILE_TOO_LARGE', message: expect.any(String) }]);
    // Sent without Content-Length: refused once the body passes the limit, not at its end.
    const streamed = await rawUpload(urlOf(CONTACT_US, 'dry-run'), admin, 100 * 1024 * 1024, { chunked: true });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toEqual([{ errorCode: 'FILE_TOO_LARGE', message: expect.any(String) }]);
    expect(streamed.sent).toBeGreaterThan(IMPORT_MAX_BODY_BYTES);
    expect(streamed.sent).toBeLessThan(IMPORT_MAX_BODY_BYTES + 16 * 1024 * 1024);
    // A file over 25 MB in a body within the body's limit (the limit's margin is for the form's framing).
    const justOver = await upload('dry-run', new Uint8Array(MAX_FILE_BYTES + 1).fill(0x61));
    await expectError(justOver, 413, 'FILE_TOO_LARGE');
    expect(await counts()).toEqual(before);
  });

  it('answers 404 for an unknown object and 403 for an object whose records cannot be created', async () => {
    const file = csv(row('A', 'a@a.example'));
    // As the record API answers an object the caller may not see: like one that does not exist.
    await expectError(await upload('dry-run', file, { object: 'No_Such_Object__c' }), 404, 'INSUFFICIENT_ACCESS');
    await expectError(await upload('commit', file, { object: 'User' }), 403, 'INSUFFICIENT_ACCESS_OR_READONLY');
    await expectError(await upload('dry-run', file, { object: HISTORY }), 403, 'INSUFFICIENT_ACCESS_OR_READONLY');
  });

  it('sends a guest to sign in', async () => {
    for (const step of ['dry-run', 'commit'] as const) {
      const response = await upload(step, csv(row('Guest', 'guest@x.example')), { session: null });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(
        `/login?startURL=${encodeURIComponent(`/lightning/o/${CONTACT_US}/list`)}`,
      );
    }
    const mapping = await fetch(urlOf(CONTACT_US, 'mapping'), { redirect: 'manual' });
    expect(mapping.status).toBe(302);
  });

  it('refuses a write with the session cookie but no CSRF token (nor the browser’s word), like every write', async () => {
    const before = await counts();
    const file = csv(row('No Token', 'notoken@x.example'));
    const refused = await fetch(urlOf(CONTACT_US, 'commit'), {
      method: 'POST',
      headers: { Cookie: admin.cookie },
      body: formOf(file),
    });
    await expectError(refused, 403, 'CSRF_TOKEN_INVALID');
    const wrongToken = await fetch(urlOf(CONTACT_US, 'commit'), {
      method: 'POST',
      headers: { Cookie: admin.cookie, 'X-CSRF-Token': standard.csrfToken },
      body: formOf(file),
    });
    await expectError(wrongToken, 403, 'CSRF_TOKEN_INVALID');
    const put = await fetch(urlOf(CONTACT_US, 'mapping'), {
      method: 'PUT',
      headers: { Cookie: admin.cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mapping: {} }),
    });
    await expectError(put, 403, 'CSRF_TOKEN_INVALID');
    expect(await counts()).toEqual(before);
  });

  it("saves a user's mapping, reads it back, and a dry run without one uses it", async () => {
    const get = async (session: TestSession) => {
      const response = await fetch(urlOf(CONTACT_US, 'mapping'), { headers: session.headers });
      expect(response.status).toBe(200);
      return response.json();
    };
    expect(await get(standard)).toEqual({ mapping: {} });
    const mapping = { Firm: 'APT_Company_Name__c', 'E-mail address': 'APT_Email__c', Notes: null };
    const put = await fetch(urlOf(CONTACT_US, 'mapping'), {
      method: 'PUT',
      headers: { ...standard.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mapping }),
    });
    expect(put.status).toBe(204);
    expect(await get(standard)).toEqual({ mapping });
    expect(await get(admin)).toEqual({ mapping: {} });
    const response = await upload('dry-run', 'Firm,E-mail address,Notes\r\nSaved Mapping Co,saved@x.example,hi\r\n', {
      session: standard,
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as ImportReport;
    expect(report.columns.map((column) => [column.header, column.field, column.by])).toEqual([
      ['Firm', 'APT_Company_Name__c', 'saved'],
      ['E-mail address', 'APT_Email__c', 'saved'],
      ['Notes', null, null],
    ]);
    const bad = await fetch(urlOf(CONTACT_US, 'mapping'), {
      method: 'PUT',
      headers: { ...standard.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mapping: { Firm: 5 } }),
    });
    await expectError(bad, 400, 'INVALID_INPUT');
  });

  it('stops a commit whose client goes away at the end of a batch; the same file again finishes the rest', async () => {
    const rows = Array.from({ length: 1_000 }, (_, i) => row(`Gone Relays ${i}`, `gone${i}@relays.example`));
    const file = csv(...rows);
    const aborted = new AbortController();
    const response = await upload('commit', file, { signal: aborted.signal });
    expect(response.status).toBe(200);
    // The first progress line, then the client goes away.
    await response.body!.getReader().read();
    aborted.abort();
    // The server is not stuck: it answers at once, and the commit has stopped writing.
    const written = async () =>
      Number(
        (
          await server.db.query<{ count: string }>(
            `SELECT count(*) FROM record WHERE object_api_name = $1 AND fields ->> 'APT_Company_Name__c' LIKE 'Gone Relays %'`,
            [CONTACT_US],
          )
        ).rows[0].count,
      );
    // Settled once no batch has been written for 2 s (a batch of 200 takes well under a second here); a second
    // import started while the first still writes would race it.
    let settled = await written();
    for (let quiet = 0, wait = 0; quiet < 20 && wait < 300; wait++) {
      await new Promise((done) => setTimeout(done, 100));
      const now = await written();
      quiet = now === settled ? quiet + 1 : 0;
      settled = now;
    }
    expect(settled).toBeGreaterThan(0);
    expect(settled).toBeLessThan(1_000);
    // Each batch is a transaction of its own: what stays is whole batches.
    expect(settled % 200).toBe(0);
    const rest = reportOf(await commit(file));
    expect(rest.totals.created).toBe(1_000 - settled);
    expect(await written()).toBe(1_000);
  });

  describe('npm run import', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'import-command-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const command = (...args: string[]) => commandWith({}, ...args);
    const commandWith = (env: Record<string, string>, ...args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
        const { DATABASE_URL: _none, ...inherited } = process.env;
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...args], {
          cwd: ROOT,
          env: {
            ...inherited,
            IMPORT_USERNAME: DEMO_USERS.admin.username,
            IMPORT_PASSWORD: server.passwords.admin,
            ...env,
          },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
        child.on('error', fail);
        child.on('close', (code) => done({ code, stdout, stderr }));
      });

    it('dry-runs through the server, writes the report and says why rows are invalid (exit code 2)', async () => {
      const file = join(dir, 'contacts.csv');
      const report = join(dir, 'report.csv');
      writeFileSync(
        file,
        csv(row('Command Relays', 'command@relays.example'), row('Command Brands', 'c@x.example', 'Foo')),
      );
      const before = await counts();
      const run = await command(file, '--server', server.baseUrl, '--report', report);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(2);
      expect(run.stdout).toContain('2 rows: 1 new, 0 changed, 0 unchanged, 1 invalid.');
      expect(run.stdout).toMatch(/line 3: .*Foo/);
      expect(readCsv(readFileSync(report, 'utf8').slice(1))[0][0]).toBe('Line');
      expect(await counts()).toEqual(before);

      const committed = await command(file, '--commit', '--server', server.baseUrl);
      expect(committed.code).toBe(2);
      expect(committed.stdout).toContain('Written: 1 created, 0 updated, 0 failed');
      const again = await command(join(dir, 'contacts.csv'), '--commit', '--server', server.baseUrl, '--all-or-none');
      expect(again.stdout).toContain('0 new');
    });

    it.skipIf(kind !== 'pglite')(
      'imports directly into a PGlite data directory, as its administrator, without a server',
      async () => {
        // A data directory of its own, from the run's image of a seeded database (no contacts).
        const image = await databaseImage();
        const dataDir = join(dir, 'data');
        const made = await PGlite.create(dataDir, { loadDataDir: image!.image, extensions: PGLITE_EXTENSIONS });
        await made.close();
        const file = join(dir, 'direct.csv');
        writeFileSync(file, csv(row('Direct Relays', 'direct@relays.example')));
        const committed = await commandWith({ DATA_DIR: dataDir }, file, '--commit');
        expect(committed.code, committed.stderr).toBe(0);
        expect(committed.stdout).toContain('Written: 1 created, 0 updated, 0 failed; 1 history row.');
        const written = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS });
        const { rows } = await written.query<{ owner: string; creator: string }>(
          `SELECT fields ->> 'OwnerId' AS owner, created_by_id AS creator FROM record WHERE fields ->> 'APT_Email__c' = $1`,
          ['direct@relays.example'],
        );
        await written.close();
        expect(rows).toEqual([{ owner: DEMO_USERS.admin.userId, creator: DEMO_USERS.admin.userId }]);
      },
    );

    it('refuses bad arguments with exit code 1', async () => {
      const run = await command('--dry-run', '--commit', 'a.csv');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('Usage: npm run import');
    });
  });
});

/**
 * A multipart upload of `bytes` bytes written on a socket as a client that keeps sending would: with a
 * Content-Length, or chunked. Stops writing at the first byte of the answer, or when the server closes the
 * connection; gives the answer's status and body and how much had been written.
 */
function rawUpload(
  url: string,
  session: TestSession,
  bytes: number,
  { chunked = false } = {},
): Promise<{ status: number; body: string; sent: number }> {
  const { hostname, port, pathname } = new URL(url);
  const boundary = 'import-test-boundary';
  const head = [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...Object.entries(session.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes}`,
    '',
    '',
  ].join('\r\n');
  const part = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const data = Buffer.alloc(1024 * 1024, 'a,b,c\r\n');
  const framed = (chunk: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
  return new Promise((resolveAnswer) => {
    const received: Buffer[] = [];
    let sent = 0;
    let stopped = false;
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      const pump = () => {
        while (!stopped && sent < bytes) {
          const chunk = sent === 0 ? part : data;
          sent += chunk.length;
          if (!socket.write(framed(chunk))) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('data', (chunk: Buffer) => {
      stopped = true;
      received.push(chunk);
    });
    // The server closes the connection after its answer; writing to it then fails, which ends the upload too.
    socket.on('error', () => (stopped = true));
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolveAnswer({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), sent });
    });
  });
}
