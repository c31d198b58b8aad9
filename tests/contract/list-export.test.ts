/**
 * The CSV export of a list view (/lightning/o/{objectApiName}/list/export.csv?filterName=…) over real HTTP, on
 * every test database: its headers and BOM, the same records in the same order as the list's pages (filters,
 * scope, search term, sort), across several chunks, no chunk read past what the client takes, only the fields
 * the caller may read, values that survive a CSV reader unchanged, and the answers to a guest, an unknown list
 * and a missing list name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import { CONTACT_US, storedContacts } from '../support/api.ts';
import { readCsv, unescapeCell as unescape } from '../support/csv.ts';
import { errorOf, listApi, ok, type ListInfo, type ListRecords } from '../support/lists.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

/** Contact Us records added past the demo ones, so that the export takes several chunks. */
const EXTRA_CONTACTS = 2_100;

describe.each(databases())('the CSV export of a list view on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const api = listApi(() => server);

  const exportUrl = (object: string, query: string) =>
    `${server.baseUrl}/lightning/o/${object}/list/export.csv${query}`;
  const download = (object: string, query: string, session: TestSession | null) =>
    fetch(exportUrl(object, query), { headers: session ? { Cookie: session.cookie } : {}, redirect: 'manual' });
  /** The export's rows (header first), its cells unescaped. */
  async function rowsOf(object: string, query: string, session: TestSession): Promise<string[][]> {
    const response = await download(object, query, session);
    expect(response.status, await response.clone().text()).toBe(200);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith('\uFEFF')).toBe(true);
    return readCsv(text.slice(1)).map((row) => row.map(unescape));
  }
  /** Every record id of a list as its pages give them (at most 2,000: the pages' own limit). */
  async function pageIds(object: string, view: string, query: string, session: TestSession): Promise<string[]> {
    const page = ok<ListRecords>(await api.recordsGet(object, view, `?pageSize=2000${query}`, session));
    return page.records.map((record) => record.id);
  }

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 30 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('is a UTF-8 CSV attachment named after the list and the day, Id first, then the columns by API name', async () => {
    const response = await download(CONTACT_US, '?filterName=AllContactUs', admin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="All Contact Us ${today}.csv"; filename*=UTF-8''All%20Contact%20Us%20${today}.csv`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = readCsv(bytes.toString('utf8').slice(1));
    expect(header).toEqual(['Id', 'Name', 'APT_Company_Name__c', 'APT_City__c', 'APT_UI_Country__c']);
    const stored = await storedContacts(server.db);
    expect(records).toHaveLength(stored.length);
    expect(records.map((record) => record[0])).toEqual(await pageIds(CONTACT_US, 'AllContactUs', '', admin));
    const byId = new Map(stored.map((contact) => [contact.id, contact]));
    for (const [id, name, company, city, country] of records) {
      const { fields } = byId.get(id)!;
      expect([name, company, city, country]).toEqual(
        [fields.Name, fields.APT_Company_Name__c, fields.APT_City__c, fields.APT_UI_Country__c].map((value) =>
          value === null || value === undefined ? '' : String(value),
        ),
      );
    }
  });

  it("honours the list view's filters, the search term and the sort, as its pages do", async () => {
    const cases: [view: string, query: string][] = [
      ['DefaultContacts', ''],
      ['AllContactUs', '&searchTerm=electric'],
      ['AllContactUs', '&sortBy=-APT_City__c'],
      ['AllContactUs', '&sortBy=APT_UI_Country__c,-Name&searchTerm=a'],
    ];
    for (const [view, query] of cases) {
      const [, ...records] = await rowsOf(CONTACT_US, `?filterName=${view}${query}`, standard);
      const expected = await pageIds(CONTACT_US, view, query, standard);
      expect(
        records.map((record) => record[0]),
        `${view}${query}`,
      ).toEqual(expected);
    }
    const [, ...defaults] = await rowsOf(CONTACT_US, '?filterName=DefaultContacts', admin);
    expect(defaults.length).toBeGreaterThan(0);
    expect(defaults.length).toBeLessThan(30);
  });

  it("writes a parent's field by its path, as the list's pages give it", async () => {
    const [header, ...rows] = await rowsOf('Contact', '?filterName=AllContacts', admin);
    expect(header).toEqual(['Id', 'Name', 'Account.Name', 'Title', 'Phone', 'Email']);
    const page = ok<ListRecords>(await api.recordsGet('Contact', 'AllContacts', '?pageSize=2000', admin));
    const accountName = (record: ListRecords['records'][number]) => {
      const account = record.fields.Account?.value as ListRecords['records'][number] | null;
      return account ? String(account.fields.Name.value) : '';
    };
    expect(rows.map((row) => [row[0], row[2]])).toEqual(page.records.map((record) => [record.id, accountName(record)]));
    expect(rows.filter((row) => row[2] !== '').length).toBeGreaterThan(0);
  });

  it('leaves out a column of a field the caller may not read', async () => {
    ok<ListInfo>(
      await api.create(
        'User',
        {
          listViewApiName: 'UsersByEmail',
          label: 'Users by email',
          displayColumns: ['Name', 'Email'],
          visibility: 'Public',
        },
        admin,
      ),
      201,
    );
    const [adminHeader, ...adminRows] = await rowsOf('User', '?filterName=UsersByEmail', admin);
    expect(adminHeader).toEqual(['Id', 'Name', 'Email']);
    expect(adminRows.every((row) => row[2].endsWith('@northgate.example'))).toBe(true);
    const [standardHeader, ...standardRows] = await rowsOf('User', '?filterName=UsersByEmail', standard);
    expect(standardHeader).toEqual(['Id', 'Name']);
    expect(standardRows.map((row) => row[0])).toEqual(adminRows.map((row) => row[0]));
    expect(JSON.stringify(standardRows)).not.toContain('@northgate.example');
  });

  it('writes commas, quotes, line breaks, non-ASCII text and formulas so that they read back unchanged', async () => {
    const [contact] = await storedContacts(server.db);
    const company = 'Comma, "Quote" & Co.\r\nSecond line\nthird – Électricité Québec 😀';
    const city = '=HYPERLINK("http://x.example","x")';
    const country = "'already quoted";
    await server.db.query(
      `UPDATE record SET fields = fields || jsonb_build_object('APT_Company_Name__c', $2::text, 'APT_City__c', $3::text, 'APT_UI_Country__c', $4::text) WHERE id = $1`,
      [contact.id, company, city, country],
    );
    const response = await download(CONTACT_US, '?filterName=AllContactUs', admin);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    // Escaped in the file itself: no cell begins with a formula's first character.
    expect(text).toContain(`"'=HYPERLINK(""http://x.example"",""x"")"`);
    expect(text).toContain(`''already quoted`);
    const row = readCsv(text.slice(1)).find((cells) => cells[0] === contact.id)!;
    expect(row.slice(2).map(unescape)).toEqual([company, city, country]);
  });

  it('reads every record in chunks, in the order of the list', async () => {
    const ids = Array.from({ length: EXTRA_CONTACTS }, (_, i) => makeId('a1C', 500_000 + i));
    await server.db.query(
      `INSERT INTO record (id, object_api_name, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
       SELECT id, $2, jsonb_build_object('Name', 'Bulk ' || lpad((n % 700)::text, 4, '0'), 'APT_Company_Name__c', 'Bulk company ' || n),
              now(), $3, now(), $3, now()
       FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)`,
      [ids, CONTACT_US, '0058d0000000001AAA'],
    );
    const [, ...records] = await rowsOf(CONTACT_US, '?filterName=AllContactUs', admin);
    const stored = await storedContacts(server.db);
    expect(records).toHaveLength(stored.length);
    expect(new Set(records.map((record) => record[0])).size).toBe(stored.length);
    // Name ascending (without regard to case), ties by Id: as the page gives its first 2,000.
    const firstPage = await pageIds(CONTACT_US, 'AllContactUs', '', admin);
    expect(records.slice(0, firstPage.length).map((record) => record[0])).toEqual(firstPage);
    const keys = records.map(([id, name]) => [name.toLowerCase(), id] as const);
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1], keys[i]];
      expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `row ${i}`).toBe(true);
    }
  });

  it('reads the Recently Viewed list in chunks too, most recent first', async () => {
    const { rows } = await server.db.query<{ id: string }>(
      `SELECT id FROM record WHERE object_api_name = $1 ORDER BY id LIMIT 2100`,
      [CONTACT_US],
    );
    // Used one a second apart in an order unlike the ids', some at the same moment (ties broken by Id).
    await server.db.query(
      `INSERT INTO mru_record (user_id, record_id, object_api_name, used_at)
       SELECT $1, id, $2, timestamptz '2026-01-01' + ((n * 7919) % 1500) * interval '1 second'
       FROM unnest($3::text[]) WITH ORDINALITY AS used(id, n)`,
      [admin.userId, CONTACT_US, rows.map((row) => row.id)],
    );
    const [, ...records] = await rowsOf(CONTACT_US, '?filterName=__Recent', admin);
    expect(records).toHaveLength(rows.length);
    const page = ok<ListRecords>(await api.mruRecords(CONTACT_US, '?pageSize=2000', admin));
    expect(records.slice(0, 2000).map((record) => record[0])).toEqual(page.records.map((record) => record.id));
  });

  it('reads no more records once the client goes away', async () => {
    // Counted in process (app.fetch), where no socket buffer takes parts the client has not asked for.
    let chunks = 0;
    const query = server.db.query;
    server.db.query = ((...args: Parameters<typeof query>) => {
      if (args[0].includes('position_0')) chunks++;
      return query.apply(server.db, args);
    }) as typeof query;
    try {
      const request = () =>
        server.app.fetch(
          new Request(exportUrl(CONTACT_US, '?filterName=AllContactUs'), { headers: { Cookie: admin.cookie } }),
        );
      await (await request()).arrayBuffer();
      const whole = chunks;
      expect(whole).toBeGreaterThan(20);
      chunks = 0;
      const reader = (await request()).body!.getReader();
      await reader.read();
      await reader.read();
      await reader.cancel();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(chunks).toBeLessThanOrEqual(2);
    } finally {
      server.db.query = query;
    }
  });

  it('sends a guest to sign in, and comes back to the export', async () => {
    const response = await download(CONTACT_US, '?filterName=AllContactUs', null);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      `/login?startURL=${encodeURIComponent(`/lightning/o/${CONTACT_US}/list/export.csv?filterName=AllContactUs`)}`,
    );
  });

  it('answers 404 for an unknown object or list view, 400 without a list view or with a bad sort', async () => {
    for (const [object, query] of [
      ['Nope__c', '?filterName=AllContactUs'],
      [CONTACT_US, '?filterName=NoSuchView'],
    ]) {
      const response = await download(object, query, admin);
      expect(response.status, `${object}${query}`).toBe(404);
      // As the list's info answers: the platform's error list.
      const info = errorOf(await api.listInfo(object, query.slice('?filterName='.length), admin));
      expect(await response.json()).toEqual([{ errorCode: info.errorCode, message: info.message }]);
    }
    const missing = await download(CONTACT_US, '', admin);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { errorCode: string }[])[0].errorCode).toBe('MISSING_ARGUMENT');
    const badSort = await download(CONTACT_US, '?filterName=AllContactUs&sortBy=Nope__c', admin);
    expect(badSort.status).toBe(400);
    expect(((await badSort.json()) as { errorCode: string }[])[0].errorCode).toBe('INVALID_FIELD');
    expect(errorOf(await api.recordsGet(CONTACT_US, 'AllContactUs', '?sortBy=Nope__c', admin)).errorCode).toBe(
      'INVALID_FIELD',
    );
  });
});
