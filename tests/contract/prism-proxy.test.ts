/**
 * Live traffic held to the contract: Prism's validating proxy (as `npm run proxy` runs it, --errors) in front of
 * the real server, and an end-to-end run's API calls sent through it with the typed client and the queries the
 * pages use: the public Contact Us page (default contact, the content with the support lines, the countries'
 * states, the brands, the locator's chunks of contacts) and a signed-in back-office loop (sign in, the record
 * UI, a list view's records, create, edit and delete a record, sign out). Every violation Prism reports, in its
 * sl-violations header or as its own error answer (a request it refuses, 422; an answer that leaves the
 * contract, 500), fails the test with all of them listed. The last test shows that it can: a request with a
 * query parameter of the wrong type comes back as Prism's violation, and never reaches the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  createRecord,
  deleteRecord,
  getListRecordsByApiName,
  getRecordUi,
  signIn,
  signOut,
  updateRecord,
} from '../../client/index.ts';
import { countryStatesQuery } from '../../client/queries.ts';
import { getDefaultContactsQuery } from '../../client/react.ts';
import { pageContentsQuery } from '../../web/src/content.ts';
import {
  brandPicklistQuery,
  brandRecordTypeId,
  contactUsObjectInfoQuery,
  contactsQuery,
} from '../../web/src/locator-data.ts';
import { startPrismProxy, stopPrism, STARTUP_TIMEOUT_MS } from '../support/prism.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, sessionCookieOf } from '../support/session.ts';

const CONTACT_US = 'APT_Contact_Us__c';
/** Prism's own error answers name their kind under this address. */
const PRISM_ERRORS = 'https://stoplight.io/prism/errors#';

interface Violation {
  location?: string[];
  severity?: string;
  message?: string;
}

/**
 * What Prism said of one call: the violations of its sl-violations header, and its own error answer (the
 * request refused, the route not in the contract, the answer that left it) with the violations it lists.
 */
async function prismReport(request: Request, response: Response): Promise<string[]> {
  const call = `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`;
  const found: string[] = [];
  const header = response.headers.get('sl-violations');
  if (header) {
    const violations = (header.startsWith('[') ? JSON.parse(header) : [{ message: header }]) as Violation[];
    for (const { location = [], severity = '', message = '' } of violations)
      found.push(`${call}: ${severity} ${location.join('.')} ${message}`);
  }
  if (response.headers.get('content-type')?.startsWith('application/problem+json')) {
    const problem = (await response.clone().json()) as { type?: string; title?: string; validation?: Violation[] };
    if (problem.type?.startsWith(PRISM_ERRORS)) {
      const details = (problem.validation ?? []).map((v) => `${v.location?.join('.') ?? ''} ${v.message ?? ''}`);
      found.push(`${call}: Prism answered ${response.status} ${problem.title ?? problem.type}: ${details.join('; ')}`);
    }
  }
  return found;
}

/** Prism's log lines of violations (its errors and warnings) written since offset, without colours. */
function loggedViolations(output: string, offset: number): string[] {
  return stripVTControlCharacters(output.slice(offset))
    .split('\n')
    .filter((line) => /Violation:|Request terminated with error/.test(line))
    .map((line) => `Prism logged: ${line.trim()}`);
}

/** A consumer of the API through the proxy: a cookie jar and the typed client, no Origin (not a browser). */
function consumer(baseUrl: string, violations: string[]) {
  let cookie: string | null = null;
  const fetchThroughProxy = async (request: Request) => {
    const headers = new Headers(request.headers);
    if (cookie) headers.set('Cookie', cookie);
    const sent = new Request(request, { headers });
    const response = await fetch(sent.clone());
    violations.push(...(await prismReport(sent, response)));
    const set = sessionCookieOf(response);
    if (set !== null) cookie = set.endsWith('=') ? null : set;
    return response;
  };
  return { api: createApiClient({ baseUrl, fetch: fetchThroughProxy }), fetch: fetchThroughProxy };
}

describe('Prism validating proxy in front of the server (npm run proxy)', () => {
  let server: TestServer;
  let prism: Awaited<ReturnType<typeof startPrismProxy>> | undefined;
  /** A server that answers every call with a default contact whose Id is a number, and the proxy in front of it. */
  let wrongServer: Server | undefined;
  let wrongPrism: Awaited<ReturnType<typeof startPrismProxy>> | undefined;

  beforeAll(async () => {
    wrongServer = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify([{ Id: 1, APT_Company_Name__c: 'Northgate' }]));
    });
    await new Promise<void>((listening) => wrongServer!.listen(0, '127.0.0.1', listening));
    const wrongUpstream = `http://127.0.0.1:${(wrongServer.address() as AddressInfo).port}`;
    // The two proxies start while the server opens its database.
    const proxyOfWrong = startPrismProxy(wrongUpstream);
    server = await startTestServer();
    [prism, wrongPrism] = await Promise.all([startPrismProxy(server.baseUrl), proxyOfWrong]);
  }, STARTUP_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await Promise.all([prism, wrongPrism].map((started) => started && stopPrism(started.child)));
    await new Promise((closed) => (wrongServer ? wrongServer.close(closed) : closed(undefined)));
    await server?.close();
  });

  it('reports no violation in the public page flow and a back-office create, edit and delete', async () => {
    const violations: string[] = [];
    const { api, fetch: fetchThroughProxy } = consumer(prism!.baseUrl, violations);
    const logged = prism!.output().length;
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

    // The Contact Us page: default contact, content (banner, heading, support lines), the dependent state
    // picklist, the brands, and the locator's contacts for a country, then a state and a brand, two chunks deep.
    const defaults = await queryClient.fetchQuery(getDefaultContactsQuery(api));
    expect(defaults.length).toBeGreaterThan(0);
    await queryClient.fetchQuery(pageContentsQuery(api));
    const states = await queryClient.fetchQuery(countryStatesQuery(api));
    expect(states['United States']).toContain('Minnesota');
    const objectInfo = await queryClient.fetchQuery(contactUsObjectInfoQuery(api));
    // A browser's revalidation of what it holds: the server's 304 passes through the proxy as it is.
    const objectInfoPath = `/services/data/v65.0/ui-api/object-info/${CONTACT_US}`;
    const first = await fetchThroughProxy(new Request(`${prism!.baseUrl}${objectInfoPath}`));
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const revalidated = await fetchThroughProxy(
      new Request(`${prism!.baseUrl}${objectInfoPath}`, { headers: { 'If-None-Match': etag! } }),
    );
    expect(revalidated.status).toBe(304);
    const brands = await queryClient.fetchQuery(brandPicklistQuery(api, brandRecordTypeId(objectInfo)));
    const brand = brands.values[0]?.value ?? null;
    for (const filters of [
      { country: 'United States', state: null, brand: null },
      { country: 'United States', state: 'Minnesota', brand },
    ]) {
      const chunks = await queryClient.fetchInfiniteQuery({ ...contactsQuery(api, filters), pages: 2 });
      expect(chunks.pages.length).toBeGreaterThan(0);
    }

    // The back office: sign in, a list view's records, the record page of the first, create a record, its record
    // UI for editing, save a change with If-Unmodified-Since, delete it, sign out.
    const session = await signIn(api, {
      body: { username: DEMO_USERS.admin.username, password: server.passwords.admin },
    });
    expect(session.isGuest).toBe(false);
    const list = await getListRecordsByApiName(api, {
      path: { objectApiName: CONTACT_US, listViewApiName: 'AllContactUs' },
      query: { pageSize: 50 },
    });
    expect(list.records.length).toBeGreaterThan(0);
    const listed = list.records[0].id!;
    const viewed = await getRecordUi(api, {
      path: { recordIds: listed },
      query: { layoutTypes: 'Full,Compact', modes: 'View' },
    });
    expect(Object.keys(viewed.records)).toEqual([listed]);
    const created = await createRecord(api, {
      body: {
        apiName: CONTACT_US,
        fields: {
          APT_Company_Name__c: 'Harborline Cable Supply',
          APT_City__c: 'Duluth',
          APT_Country__c: 'United States',
          APT_Primary_State__c: 'Minnesota',
          APT_Phone__c: '218-555-0150',
          APT_Email__c: 'sales@harborline.example',
          APT_Brand__c: 'Arcline;Ironspan',
        },
      },
    });
    const recordUi = await getRecordUi(api, {
      path: { recordIds: created.id },
      query: { layoutTypes: 'Full', modes: 'Edit', optionalFields: `${CONTACT_US}.Name` },
    });
    const record = recordUi.records[created.id];
    const since = new Date(record.lastModifiedDate!).toUTCString();
    const updated = await updateRecord(api, {
      path: { recordId: created.id },
      header: { 'If-Unmodified-Since': since },
      body: { fields: { APT_Phone__c: '218-555-0151' } },
    });
    expect(updated.fields.APT_Phone__c?.value).toBe('218-555-0151');
    await deleteRecord(api, { path: { recordId: created.id } });
    await signOut(api);

    violations.push(...loggedViolations(prism!.output(), logged));
    expect(violations, `Prism reported:\n${violations.join('\n')}`).toEqual([]);
  });

  it('reports a request that leaves the contract, and does not pass it on', async () => {
    const violations: string[] = [];
    const { api, fetch: fetchThroughProxy } = consumer(prism!.baseUrl, violations);
    await signIn(api, { body: { username: DEMO_USERS.standard.username, password: server.passwords.standard } });
    const response = await fetchThroughProxy(
      new Request(
        `${prism!.baseUrl}/services/data/v65.0/ui-api/list-records/${CONTACT_US}/AllContactUs?pageSize=fifty`,
      ),
    );
    expect(response.status).toBe(422);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/Prism answered 422 .*query\.pagesize .*must be integer/i);
  });

  it('reports an answer that leaves the contract', async () => {
    const violations: string[] = [];
    const logged = wrongPrism!.output().length;
    const { fetch: fetchThroughProxy } = consumer(wrongPrism!.baseUrl, violations);
    const response = await fetchThroughProxy(
      new Request(`${wrongPrism!.baseUrl}/lwr/apex/v65.0/APT_ContactUsController/getDefaultContacts`),
    );
    expect(response.status).toBe(500);
    expect(violations.join('\n')).toMatch(/Error response\.body\.0\.Id .*must be string/);
    expect(violations.join('\n')).toMatch(/Prism answered 500 /);
    // With --errors, Prism logs that it answered with its error rather than each violation.
    await new Promise((logging) => setTimeout(logging, 200));
    expect(loggedViolations(wrongPrism!.output(), logged).join('\n')).toMatch(
      /Request terminated with error: .*#VIOLATIONS/,
    );
  });
});
