/**
 * Search and lookups over real HTTP, on every test database, as a guest, the standard user and the
 * administrator: lookup suggestions (Recent, Search, TypeAhead, lookup filters), keyword search over one
 * object and over several, search filters and their options, lookup metadata. Every answer is checked
 * against the contract; results are compared with the stored records; a record or a field the caller may
 * not see is never found; bad input answers 400 in the platform's shape and a term never reaches SQL text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { CONTACT_US, UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Schemas = components['schemas'];
type ErrorList = Schemas['ErrorList'];
type LookupValues = Schemas['LookupValuesRepresentation'];
type KeywordResults = Schemas['KeywordSearchResultsRepresentation'];
type SearchSummary = Schemas['SearchResultsSummaryRepresentation'];
type FilterMetadata = Schemas['SearchFilterMetadataCollectionRepresentation'];
type FilterOptions = Schemas['SearchFilterOptionCollectionRepresentation'];
type LookupMetadata = Schemas['LookupMetadataRepresentation'];

interface Row {
  id: string;
  object_api_name: string;
  fields: Record<string, unknown>;
  created_by_id: string | null;
}

const INJECTION = "x'); DROP TABLE record; --";
const STANDARD_USER_ID = '0058d0000000002AAA';

describe.each(databases())('search and lookups on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  let accounts: Row[];
  let contacts: Row[];
  let contactUs: Row[];

  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const headers = (session: TestSession | null, json = false) => ({
    ...(session?.headers ?? {}),
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  });
  const get = <T>(operationId: string, path: string, session: TestSession | null) =>
    callOperation<T | ErrorList>(operationId, url(path), { headers: headers(session) });
  const post = <T>(operationId: string, path: string, session: TestSession | null, body?: unknown) =>
    callOperation<T | ErrorList>(operationId, url(path), {
      method: 'POST',
      headers: headers(session, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const lookup = (object: string, field: string, query: string, session: TestSession | null, body?: unknown) =>
    post<LookupValues>('getLookupRecords', `/lookups/${object}/${field}?${query}`, session, body);
  const keyword = (query: string, session: TestSession | null, body?: unknown) =>
    post<KeywordResults>('getKeywordSearchResults', `/search/results/keyword?${query}`, session, body);
  const results = (query: string, session: TestSession | null, body?: unknown) =>
    post<SearchSummary>('getSearchResults', `/search/results?${query}`, session, body);
  const rows = async (object: string) =>
    (
      await server.db.query<Row>(
        'SELECT id, object_api_name, fields, created_by_id FROM record WHERE object_api_name = $1 ORDER BY id',
        [object],
      )
    ).rows;
  const visibleTo = (session: TestSession, rowsOf: Row[]) =>
    session === admin
      ? rowsOf
      : rowsOf.filter((row) => row.fields.OwnerId === STANDARD_USER_ID || row.created_by_id === STANDARD_USER_ID);
  const ids = (values: LookupValues, object: string) => values.lookupResults[object].records.map((record) => record.id);
  const errorCode = (body: unknown) => (body as ErrorList)[0]?.errorCode;

  /** Every page of a keyword search, following nextPageToken. */
  async function allPages(query: string, session: TestSession, body: Record<string, unknown> = {}) {
    const found: Schemas['SearchResultRecordRepresentation'][] = [];
    let pageToken: string | null = '0';
    while (pageToken !== null) {
      const answer = await keyword(query, session, { ...body, pageToken });
      expect(answer.status).toBe(200);
      const page = (answer.body as KeywordResults).keywordSearchResult;
      found.push(...page.records);
      pageToken = page.nextPageToken;
    }
    return found;
  }

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 60 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
    accounts = await rows('Account');
    contacts = await rows('Contact');
    contactUs = await rows(CONTACT_US);
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID on every search operation', async () => {
    const answers = await Promise.all([
      lookup('Contact', 'AccountId', 'searchType=Recent', null),
      keyword(`q=automation&objectApiName=${CONTACT_US}`, null),
      results('q=automation', null),
      get('getSearchFilterMetadata', `/search-info/${CONTACT_US}/filters`, null),
      get('getSearchFilterOptions', `/search-info/${CONTACT_US}/filters/APT_Country__c/options?q=uni`, null),
      get('getLookupMetadata', '/search-info/Contact/lookup/AccountId', null),
      get('getLookupRecordsForTarget', '/lookups/Contact/AccountId/Account?searchType=Recent', null),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(errorCode(answer.body)).toBe('INVALID_SESSION_ID');
    }
  });

  describe('getLookupRecords', () => {
    it('TypeAhead offers the visible records whose name starts with q, in name order', async () => {
      for (const session of [admin, standard]) {
        for (const q of ['r', 'S', 'summit p', 'l']) {
          const answer = await lookup(
            'Contact',
            'AccountId',
            `searchType=TypeAhead&q=${encodeURIComponent(q)}`,
            session,
          );
          expect(answer.status).toBe(200);
          const expected = visibleTo(session, accounts)
            .filter((row) => String(row.fields.Name).toLowerCase().startsWith(q.toLowerCase()))
            .sort((a, b) => (String(a.fields.Name).toLowerCase() < String(b.fields.Name).toLowerCase() ? -1 : 1))
            .map((row) => row.id);
          expect(ids(answer.body as LookupValues, 'Account')).toEqual(expected);
        }
      }
    });

    it('Search finds visible records by any searchable field and never one the caller may not see', async () => {
      const lakeshore = accounts.find((row) => row.fields.Name === 'Lakeshore Switchgear Group')!;
      const asAdmin = await lookup('Contact', 'AccountId', 'searchType=Search&q=switchgear', admin);
      expect(ids(asAdmin.body as LookupValues, 'Account')).toEqual([lakeshore.id]);
      // Accounts are private: the standard user does not own Lakeshore, so it is not found (by name or city).
      for (const q of ['switchgear', 'cleveland']) {
        const asStandard = await lookup('Contact', 'AccountId', `searchType=Search&q=${q}`, standard);
        expect(asStandard.status).toBe(200);
        expect(ids(asStandard.body as LookupValues, 'Account')).toEqual([]);
      }
      const byCity = await lookup('Contact', 'AccountId', 'searchType=Search&q=milw', standard);
      const riverbend = accounts.find((row) => row.fields.Name === 'Riverbend Industrial Controls')!;
      expect(ids(byCity.body as LookupValues, 'Account')).toEqual([riverbend.id]);
      const record = (byCity.body as LookupValues).lookupResults.Account.records[0];
      expect(record.fields.Name.value).toBe('Riverbend Industrial Controls');
      expect(record.fields.BillingCity.value).toBe('Milwaukee');
    });

    it('Recent offers the records the caller used last, most recent first', async () => {
      const [first, second] = visibleTo(admin, accounts);
      for (const account of [first, second]) {
        const update = await callOperation('updateRecord', url(`/records/${account.id}`), {
          method: 'PATCH',
          headers: headers(admin, true),
          body: JSON.stringify({ fields: { Description: 'Used for the recent lookup' } }),
        });
        expect(update.status).toBe(200);
      }
      const answer = await lookup('Contact', 'AccountId', 'searchType=Recent', admin);
      expect(ids(answer.body as LookupValues, 'Account').slice(0, 2)).toEqual([second.id, first.id]);
      const none = await lookup('Contact', 'AccountId', '', standard);
      expect(ids(none.body as LookupValues, 'Account')).toEqual([]);
    });

    it('pages with page and pageSize, and links the neighbouring pages', async () => {
      const first = (await lookup('Contact', 'AccountId', 'searchType=TypeAhead&q=s&pageSize=1', admin))
        .body as LookupValues;
      const page = first.lookupResults.Account;
      expect(page.count).toBe(1);
      const all = accounts.filter((row) => String(row.fields.Name).toLowerCase().startsWith('s'));
      expect(page.nextPageToken).toBe(all.length > 1 ? '1' : null);
      expect(page.currentPageUrl).toBe(
        `${UI_API}/lookups/Contact/AccountId/Account?page=1&pageSize=1&q=s&searchType=TypeAhead`,
      );
      expect(page.previousPageUrl).toBeNull();
    });

    it("applies the field's lookup filter with the source record's values", async () => {
      const riverbend = accounts.find((row) => row.fields.Name === 'Riverbend Industrial Controls')!;
      const lakeshore = accounts.find((row) => row.fields.Name === 'Lakeshore Switchgear Group')!;
      const ofAccount = (account: Row) =>
        contacts.filter(
          (row) => row.fields.AccountId === account.id && String(row.fields.Name).toLowerCase().includes('desk'),
        );
      const viaBody = await lookup('Case', 'ContactId', 'searchType=Search&q=desk', admin, {
        sourceRecord: { apiName: 'Case', fields: { AccountId: riverbend.id } },
      });
      expect(viaBody.status).toBe(200);
      expect(ids(viaBody.body as LookupValues, 'Contact')).toEqual(ofAccount(riverbend).map((row) => row.id));
      const viaBindings = await lookup(
        'Case',
        'ContactId',
        `searchType=Search&q=desk&dependentFieldBindings=AccountId=${lakeshore.id}`,
        admin,
      );
      expect(ids(viaBindings.body as LookupValues, 'Contact')).toEqual(ofAccount(lakeshore).map((row) => row.id));
      // Without an account on the case, only contacts without an account qualify: none here.
      const unbound = await lookup('Case', 'ContactId', 'searchType=Search&q=desk', admin);
      expect(ids(unbound.body as LookupValues, 'Contact')).toEqual([]);
    });

    it('answers 400 for bad input and never runs a term as SQL', async () => {
      const bad: [string, string, string, unknown?][] = [
        ['Contact', 'AccountId', 'searchType=Search&q=a'],
        ['Contact', 'AccountId', 'searchType=Search'],
        ['Contact', 'AccountId', 'searchType=TypeAhead&q=%20'],
        ['Contact', 'AccountId', `searchType=Search&q=${'x'.repeat(256)}`],
        ['Contact', 'AccountId', 'searchType=Bogus'],
        ['Nope__c', 'AccountId', 'searchType=Recent'],
        ['Contact', 'NoSuchField', 'searchType=Recent'],
        ['Contact', 'LastName', 'searchType=Recent'],
        ['Contact', 'AccountId', 'targetApiName=Case'],
        ['Contact', 'AccountId', 'pageSize=51'],
        ['Contact', 'AccountId', 'page=0'],
        ['Contact', 'AccountId', 'page=500&pageSize=50'],
        ['Contact', 'AccountId', 'searchType=TypeAhead&q=s', { orderBy: [{ fieldApiName: 'NoSuchField' }] }],
        ['Contact', 'AccountId', 'searchType=TypeAhead&q=s', { orderBy: 'Name' }],
      ];
      for (const [object, field, query, body] of bad) {
        for (const session of [admin, standard]) {
          const answer = await lookup(object, field, query, session, body);
          expect(answer.status, `${object}.${field}?${query}`).toBe(400);
          expect(Array.isArray(answer.body)).toBe(true);
        }
      }
      for (const searchType of ['Search', 'TypeAhead']) {
        const answer = await lookup(
          'Contact',
          'AccountId',
          `searchType=${searchType}&q=${encodeURIComponent(INJECTION)}`,
          admin,
        );
        expect(answer.status).toBe(200);
        expect(ids(answer.body as LookupValues, 'Account')).toEqual([]);
      }
      expect((await rows('Account')).length).toBe(accounts.length);
    });

    it('serves the same suggestions in the GET form as in the POST form without a body', async () => {
      for (const session of [admin, standard]) {
        const query = 'searchType=TypeAhead&q=s&pageSize=2';
        const post = (await lookup('Contact', 'AccountId', query, session)).body as LookupValues;
        const answer = await get<LookupValues>(
          'getLookupRecordsByQuery',
          `/lookups/Contact/AccountId?${query}`,
          session,
        );
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(post);
        expect(answer.headers.get('cache-control')).toBe('private, max-age=30');
      }
      const bad = await get('getLookupRecordsByQuery', '/lookups/Contact/AccountId?searchType=Search&q=a', standard);
      expect(bad.status).toBe(400);
    });

    it('serves one target as a record collection in the GET form', async () => {
      for (const session of [admin, standard]) {
        const post = (await lookup('Contact', 'AccountId', 'searchType=TypeAhead&q=s&pageSize=1', session))
          .body as LookupValues;
        const answer = await get<Schemas['RecordCollectionRepresentation']>(
          'getLookupRecordsForTarget',
          '/lookups/Contact/AccountId/Account?searchType=TypeAhead&q=s&pageSize=1',
          session,
        );
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(post.lookupResults.Account);
      }
      const bad = [
        '/lookups/Contact/AccountId/Case?searchType=Recent',
        '/lookups/Contact/AccountId/Account?searchType=Search&q=a',
        '/lookups/Nope__c/AccountId/Account',
        '/lookups/Contact/LastName/Account',
      ];
      for (const path of bad) expect((await get('getLookupRecordsForTarget', path, standard)).status, path).toBe(400);
    });

    it('answers a hidden source record exactly as a missing one', async () => {
      const hidden = contacts.find((row) => row.fields.OwnerId !== STANDARD_USER_ID)!;
      const asStandard = await lookup('Contact', 'AccountId', `sourceRecordId=${hidden.id}`, standard);
      const missing = await lookup('Contact', 'AccountId', `sourceRecordId=003000000000000AAA`, standard);
      expect(asStandard.status).toBe(404);
      expect(asStandard.body).toEqual(missing.body);
      expect((await lookup('Contact', 'AccountId', `sourceRecordId=${hidden.id}`, admin)).status).toBe(200);
    });
  });

  describe('getKeywordSearchResults', () => {
    const term = () => String(contactUs[0].fields.APT_Company_Name__c).split(' ')[0].toLowerCase();
    const hasWordStarting = (value: unknown, word: string) =>
      typeof value === 'string' &&
      value
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .some((part) => part.startsWith(word));

    it('finds every record with a word beginning with the term, and only such records', async () => {
      const word = term();
      const found = await allPages(`q=${word}&objectApiName=${CONTACT_US}`, admin, { pageSize: 7 });
      const foundIds = found.map((result) => result.record.id);
      expect(new Set(foundIds).size).toBe(foundIds.length);
      const byCompany = contactUs
        .filter((row) => hasWordStarting(row.fields.APT_Company_Name__c, word))
        .map((row) => row.id);
      expect(foundIds).toEqual(expect.arrayContaining(byCompany));
      for (const result of found) {
        const stored = contactUs.find((row) => row.id === result.record.id)!;
        expect(Object.values(stored.fields).some((value) => hasWordStarting(value, word))).toBe(true);
      }
      const highlighted = found.find((result) => byCompany.includes(result.record.id))!;
      expect(highlighted.highlightInfo?.fields.APT_Company_Name__c).toMatch(/<mark>/);
    });

    it('filters, sorts and echoes the request', async () => {
      const word = term();
      const country = String(contactUs[0].fields.APT_Country__c);
      const answer = await keyword(`q=${word}&objectApiName=${CONTACT_US}`, standard, {
        configurationName: 'Storefront_Search',
        filters: [{ fieldPath: `${CONTACT_US}.APT_Country__c`, operator: 'eq', values: [country] }],
        sortBy: `-${CONTACT_US}.APT_Company_Name__c`,
        pageSize: 100,
      });
      expect(answer.status).toBe(200);
      const body = answer.body as KeywordResults;
      expect(body.configurationName).toBe('Storefront_Search');
      expect(body.query).toBe(word);
      expect(body.keywordSearchResult.sortBy).toBe(`-${CONTACT_US}.APT_Company_Name__c`);
      const companies = body.keywordSearchResult.records.map((result) =>
        String(result.record.fields.APT_Company_Name__c.value).toLowerCase(),
      );
      expect(companies).toEqual([...companies].sort().reverse());
      expect(body.keywordSearchResult.records.length).toBeGreaterThan(0);
      for (const result of body.keywordSearchResult.records)
        expect(result.record.fields.APT_Country__c.value).toBe(country);
    });

    it('keeps the search index current on every write', async () => {
      const target = contactUs[1];
      const update = await callOperation('updateRecord', url(`/records/${target.id}`), {
        method: 'PATCH',
        headers: headers(admin, true),
        body: JSON.stringify({ fields: { APT_Company_Name__c: 'Quasarflux Holdings' } }),
      });
      expect(update.status).toBe(200);
      const answer = await keyword(`q=quasarfl&objectApiName=${CONTACT_US}`, admin);
      expect((answer.body as KeywordResults).keywordSearchResult.records.map((result) => result.record.id)).toEqual([
        target.id,
      ]);
    });

    it('never finds a record by a field the caller may not read', async () => {
      await server.db.query(`UPDATE record SET fields = fields || '{"Email": "zebracorn"}'::jsonb WHERE id = $1`, [
        '0058d0000000003AAA',
      ]);
      const asAdmin = await keyword('q=zebracorn&objectApiName=User', admin);
      expect((asAdmin.body as KeywordResults).keywordSearchResult.records.map((result) => result.record.id)).toEqual([
        '0058d0000000003AAA',
      ]);
      const asStandard = await keyword('q=zebracorn&objectApiName=User', standard);
      expect(asStandard.status).toBe(200);
      expect((asStandard.body as KeywordResults).keywordSearchResult.records).toEqual([]);
      // Found by a field it may read, the record is shown without the hidden field, which is not highlighted.
      const byName = (await keyword('q=guest&objectApiName=User', standard)).body as KeywordResults;
      const guest = byName.keywordSearchResult.records.find((result) => result.record.id === '0058d0000000003AAA')!;
      expect(guest.record.fields.Email).toBeUndefined();
      expect(guest.highlightInfo?.fields.Email).toBeUndefined();
      expect(byName.keywordSearchResult.fields).not.toContain('User.Email');
    });

    it('answers 400 for bad input and never runs a term as SQL', async () => {
      const field = (path: string, operator = 'eq', values: unknown = ['x']) => ({
        filters: [{ fieldPath: path, operator, values }],
      });
      const bad: [string, unknown?][] = [
        [`q=a&objectApiName=${CONTACT_US}`],
        [`q=${'x'.repeat(256)}&objectApiName=${CONTACT_US}`],
        [`q=%20%20%20&objectApiName=${CONTACT_US}`],
        [`objectApiName=${CONTACT_US}`],
        ['q=automation&objectApiName=Nope__c'],
        ['q=automation&objectApiName=Bad-Name'],
        [`q=automation&objectApiName=${CONTACT_US}`, field(`${CONTACT_US}.Nope__c`)],
        [`q=automation&objectApiName=${CONTACT_US}`, field('Account.Name')],
        [`q=automation&objectApiName=${CONTACT_US}`, field(`${CONTACT_US}.APT_City__c`, 'bogus')],
        [`q=automation&objectApiName=${CONTACT_US}`, field(`${CONTACT_US}.APT_City__c`, 'eq', [])],
        [`q=automation&objectApiName=${CONTACT_US}`, field(`${CONTACT_US}.APT_City__c`, 'eq', 'Inman')],
        ['q=automation&objectApiName=Account', field('Account.NumberOfEmployees', 'gt', ['many'])],
        [
          `q=automation&objectApiName=${CONTACT_US}`,
          { dataCategories: [{ groupName: 'Products__c', operator: 'below', values: ['All'] }] },
        ],
        [`q=automation&objectApiName=${CONTACT_US}`, { sortBy: `${CONTACT_US}.Nope__c` }],
        [`q=automation&objectApiName=${CONTACT_US}`, { pageToken: '9999' }],
        [`q=automation&objectApiName=${CONTACT_US}`, { pageSize: 101 }],
        [`q=automation&objectApiName=${CONTACT_US}`, { configurationName: 'Nope' }],
      ];
      for (const [query, body] of bad) {
        for (const session of [admin, standard]) {
          const answer = await keyword(query, session, body);
          expect(answer.status, `${query} ${JSON.stringify(body)}`).toBe(400);
          expect(Array.isArray(answer.body)).toBe(true);
        }
      }
      // Standard users may not read User.Email: filtering on it fails exactly as on an unknown field.
      const hidden = await keyword('q=guest&objectApiName=User', standard, field('User.Email'));
      const unknown = await keyword('q=guest&objectApiName=User', standard, field('User.Nope'));
      expect(hidden.status).toBe(400);
      expect(errorCode(hidden.body)).toBe(errorCode(unknown.body));
      const injected = await keyword(`q=${encodeURIComponent(INJECTION)}&objectApiName=${CONTACT_US}`, admin);
      expect(injected.status).toBe(200);
      // A term without a word (only punctuation) finds nothing.
      const wordless = await keyword(`q=${encodeURIComponent("!? ''")}&objectApiName=${CONTACT_US}`, admin);
      expect(wordless.status).toBe(200);
      expect((wordless.body as KeywordResults).keywordSearchResult.records).toEqual([]);
      expect((await rows(CONTACT_US)).length).toBe(contactUs.length);
    });
  });

  describe('getSearchResults', () => {
    it("searches the configuration's objects, each with its own filters", async () => {
      const all = await results('q=switchgear', admin);
      expect(all.status).toBe(200);
      const body = all.body as SearchSummary;
      expect(body.keywordSearchResults.results.map((result) => result.objectApiName)).toEqual([
        CONTACT_US,
        'Account',
        'Contact',
        'Case',
      ]);
      const account = body.keywordSearchResults.results.find((result) => result.objectApiName === 'Account')!;
      expect(account.records.map((result) => result.record.id)).toEqual(
        accounts.filter((row) => row.fields.Name === 'Lakeshore Switchgear Group').map((row) => row.id),
      );
      const asStandard = (await results('q=switchgear', standard, { objectApiNames: ['Account'] }))
        .body as SearchSummary;
      expect(asStandard.keywordSearchResults.results).toHaveLength(1);
      expect(asStandard.keywordSearchResults.results[0].records).toEqual([]);

      const country = String(contactUs[0].fields.APT_Country__c);
      const word = String(contactUs[0].fields.APT_Company_Name__c).split(' ')[0];
      const filtered = await results(`q=${encodeURIComponent(word)}`, standard, {
        configurationName: 'Storefront_Search',
        searchObjectOptions: {
          [CONTACT_US]: { filters: [{ fieldPath: `${CONTACT_US}.APT_Country__c`, operator: 'ne', values: [country] }] },
        },
      });
      const page = (filtered.body as SearchSummary).keywordSearchResults.results;
      expect(page.map((result) => result.objectApiName)).toEqual([CONTACT_US]);
      for (const result of page[0].records) expect(result.record.fields.APT_Country__c.value).not.toBe(country);
    });

    it('answers 400 for bad input', async () => {
      const bad: [string, unknown?][] = [
        ['q=a'],
        [''],
        ['q=switchgear', { objectApiNames: ['Nope__c'] }],
        ['q=switchgear', { configurationName: 'Nope' }],
        ['q=switchgear', { objectApiNames: ['Account'], searchObjectOptions: { Contact: { filters: [] } } }],
        [
          'q=switchgear',
          {
            searchObjectOptions: {
              Account: { filters: [{ fieldPath: 'Account.Nope', operator: 'eq', values: ['x'] }] },
            },
          },
        ],
        ['q=switchgear', { objectApiNames: 'Account' }],
      ];
      for (const [query, body] of bad) {
        for (const session of [admin, standard]) {
          const answer = await results(query, session, body);
          expect(answer.status, `${query} ${JSON.stringify(body)}`).toBe(400);
        }
      }
    });
  });

  describe('search filters', () => {
    it('lists the filters of an object, Text and Select, on fields the caller may read', async () => {
      for (const session of [admin, standard]) {
        const answer = await get<FilterMetadata>(
          'getSearchFilterMetadata',
          `/search-info/${CONTACT_US}/filters?configurationName=Storefront_Search`,
          session,
        );
        expect(answer.status).toBe(200);
        const body = answer.body as FilterMetadata;
        expect(body.filters.map((filter) => [filter.apiName, filter.type, filter.kind])).toEqual([
          ['APT_Country__c', 'Select', 'Field'],
          ['APT_Primary_State__c', 'Select', 'Field'],
          ['APT_Brand__c', 'Select', 'Field'],
          ['APT_City__c', 'Text', 'Field'],
        ]);
      }
    });

    it("offers a Select filter's values whose label holds q", async () => {
      const { rows: stored } = await server.db.query<{ label: string; value: string }>(
        `SELECT label, value FROM picklist_value WHERE object_api_name = $1 AND field_api_name = 'APT_Country__c' AND record_type_id = '012000000000000AAA' ORDER BY position`,
        [CONTACT_US],
      );
      const answer = await get<FilterOptions>(
        'getSearchFilterOptions',
        `/search-info/${CONTACT_US}/filters/APT_Country__c/options?q=UNI`,
        standard,
      );
      expect(answer.status).toBe(200);
      expect((answer.body as FilterOptions).options).toEqual(
        stored.filter((row) => row.label.toLowerCase().includes('uni')),
      );
      const initial = await get<FilterOptions>(
        'getSearchFilterOptions',
        `/search-info/${CONTACT_US}/filters/APT_Primary_State__c/options`,
        admin,
      );
      expect((initial.body as FilterOptions).options).toEqual([]);
      const percent = await get<FilterOptions>(
        'getSearchFilterOptions',
        `/search-info/${CONTACT_US}/filters/APT_Country__c/options?q=%25`,
        admin,
      );
      expect((percent.body as FilterOptions).options).toEqual([]);
    });

    it('answers 400 for unknown objects and filters, and Text filters', async () => {
      const bad: [string, string][] = [
        ['getSearchFilterMetadata', '/search-info/Nope__c/filters'],
        ['getSearchFilterMetadata', `/search-info/${CONTACT_US}/filters?configurationName=Nope`],
        ['getSearchFilterOptions', `/search-info/${CONTACT_US}/filters/Nope__c/options`],
        ['getSearchFilterOptions', `/search-info/${CONTACT_US}/filters/APT_City__c/options?q=a`],
        ['getSearchFilterOptions', `/search-info/${CONTACT_US}/filters/APT_Country__c/options?q=${'x'.repeat(256)}`],
      ];
      for (const [operationId, path] of bad) {
        for (const session of [admin, standard]) expect((await get(operationId, path, session)).status, path).toBe(400);
      }
    });
  });

  describe('getLookupMetadata', () => {
    it("describes each target's fields, the lookup filter and the order", async () => {
      const answer = await get<LookupMetadata>('getLookupMetadata', '/search-info/Contact/lookup/AccountId', standard);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        fieldApiName: 'AccountId',
        objectApiName: 'Contact',
        targetInfo: {
          Account: {
            fullSearchInfo: {
              displayFields: ['Account.Name', 'Account.Phone', 'Account.BillingCity'],
              filters: [],
              sortBy: 'Account.Name',
            },
            suggestionsInfo: { displayFields: ['Account.Name', 'Account.BillingCity'], filters: [], sortBy: null },
          },
        },
      });
      const filtered = (await get<LookupMetadata>('getLookupMetadata', '/search-info/Case/lookup/ContactId', admin))
        .body as LookupMetadata;
      expect(filtered.targetInfo.Contact.suggestionsInfo.filters).toEqual([
        { fieldPath: 'Contact.AccountId', operator: 'eq', values: ['$Source.AccountId'] },
      ]);
      // The object info says so too.
      const caseInfo = (await get<Schemas['ObjectInfoRepresentation']>('getObjectInfo', '/object-info/Case', admin))
        .body as Schemas['ObjectInfoRepresentation'];
      expect(caseInfo.fields.ContactId.filteredLookupInfo).toEqual({
        controllingFields: ['AccountId'],
        dependent: true,
        optionalFilter: false,
      });
      expect(caseInfo.fields.AccountId.filteredLookupInfo).toBeNull();
      // Standard users may not read User.Email: it is not shown.
      const owner = (await get<LookupMetadata>('getLookupMetadata', '/search-info/Account/lookup/OwnerId', standard))
        .body as LookupMetadata;
      expect(owner.targetInfo.User.suggestionsInfo.displayFields).toEqual(['User.Name']);
    });

    it('answers 400 for unknown objects and fields, and fields that are no lookups', async () => {
      for (const path of [
        '/search-info/Nope__c/lookup/AccountId',
        '/search-info/Contact/lookup/Nope',
        '/search-info/Contact/lookup/LastName',
      ]) {
        for (const session of [admin, standard])
          expect((await get('getLookupMetadata', path, session)).status, path).toBe(400);
      }
    });
  });
});
