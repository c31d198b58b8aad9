/**
 * HTTP behaviour common to every operation, over real HTTP on every test database: the contract's cache
 * lifetimes as Cache-Control, ETag and If-None-Match (304 with no body), no-cache on POST, and the
 * platform's 404 for paths that do not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apexUrl,
  CONTACT_US,
  CONTROLLER,
  MASTER_RECORD_TYPE_ID,
  NOT_FOUND_BODY,
  postJson,
  query,
  UI_API,
} from '../support/api.ts';
import { callOperation, contractOperation, operationsOf, contract } from '../support/contract.ts';
import { exampleFetch, exampleRequest } from '../support/examples.ts';
import { implementedOperationIds } from '../support/implemented.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { needsUser, signIn, type TestSession } from '../support/session.ts';

/**
 * Hand-written successful calls, where the contract's own examples (tests/support/examples.ts) are not the
 * call wanted here; every other implemented operation is called with its example request.
 */
const SAMPLES: Record<string, (baseUrl: string) => { url: string; init?: RequestInit }> = {
  getDefaultContacts: (base) => ({ url: apexUrl(base, CONTROLLER, 'getDefaultContacts') }),
  getDependentStatePicklistsValues: (base) => ({ url: apexUrl(base, CONTROLLER, 'getDependentStatePicklistsValues') }),
  getContacts: (base) => ({
    url: apexUrl(base, CONTROLLER, 'getContacts', query({ country: 'United States', state: 'Texas' })),
  }),
  invokeApexCacheable: (base) => ({ url: apexUrl(base, CONTROLLER, 'getContacts', query({ brands: ['Ferrolux'] })) }),
  invokeApexImperative: (base) => ({
    url: apexUrl(base, CONTROLLER, 'getContacts'),
    init: postJson(query({ country: 'Canada' })),
  }),
  getObjectInfo: (base) => ({ url: `${base}${UI_API}/object-info/${CONTACT_US}` }),
  getPicklistValues: (base) => ({
    url: `${base}${UI_API}/object-info/${CONTACT_US}/picklist-values/${MASTER_RECORD_TYPE_ID}/APT_Country__c`,
  }),
};

const implemented = implementedOperationIds();
const operations = operationsOf(contract).filter((operation) => implemented.has(operation.operationId));
const cached = operations.filter(
  (operation) => operation.method === 'get' && (operation.operation['x-cache-ttl'] as number) > 0,
);

/** The sample call of an implemented operation: hand-written in SAMPLES, or else its example request. */
function sample(operationId: string, baseUrl: string): { url: string; init?: RequestInit } {
  return SAMPLES[operationId]?.(baseUrl) ?? exampleFetch(baseUrl, operationId);
}

it('every implemented operation has a sample call (hand-written or from the examples)', () => {
  const without = operations
    .filter(({ operationId }) => !SAMPLES[operationId])
    .flatMap(({ operationId }) => {
      try {
        exampleRequest(operationId);
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    });
  expect(without).toEqual([]);
  expect(cached.length).toBeGreaterThan(0);
});

/** Paths the contract does not have: a prefix of a real path, a sub-resource that does not exist, a later API version. */
const MISSING_PATHS = [
  '/no/such/path',
  `${UI_API}/no-such-resource`,
  `${UI_API}/object-info/${CONTACT_US}/picklist-values`,
  `${UI_API}/object-info/${CONTACT_US}/fields`,
  '/services/data/v66.0/ui-api/object-info/APT_Contact_Us__c',
];

describe.each(databases())('HTTP behaviour on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;

  beforeAll(async () => {
    server = await startTestServer({ database: kind });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  describe.each(
    cached.map((operation) => [operation.operationId, operation.operation['x-cache-ttl'] as number] as const),
  )('%s (x-cache-ttl %i ms)', (operationId, ttl) => {
    const call = (headers: Record<string, string> = {}) => {
      const { url, init } = sample(operationId, server.baseUrl);
      // The operations guests may not call are called as the signed-in administrator.
      const session = needsUser(contractOperation(operationId)) ? admin.headers : {};
      return callOperation(operationId, url, {
        ...init,
        headers: { ...(init?.headers as Record<string, string> | undefined), ...session, ...headers },
      });
    };

    it('answers 200 with Cache-Control max-age from the contract and a strong ETag, the same on each call', async () => {
      const first = await call();
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe(`private, max-age=${ttl / 1000}`);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);
      const second = await call();
      expect(second.headers.get('etag')).toBe(etag);
      expect(second.text).toBe(first.text);
    });

    it('answers 304 with no body to If-None-Match of the current ETag, also in a list or as a weak validator', async () => {
      const etag = (await call()).headers.get('etag')!;
      for (const ifNoneMatch of [etag, `"stale", ${etag}`, `W/${etag}`, '*']) {
        const notModified = await call({ 'If-None-Match': ifNoneMatch });
        expect(notModified.status, ifNoneMatch).toBe(304);
        expect(notModified.text).toBe('');
        expect(notModified.headers.get('etag')).toBe(etag);
        expect(notModified.headers.get('cache-control')).toBe(`private, max-age=${ttl / 1000}`);
      }
    });

    it('answers 200 with the body to If-None-Match of another ETag', async () => {
      const response = await call({ 'If-None-Match': '"0123456789abcdef0123456789abcdef"' });
      expect(response.status).toBe(200);
      expect(response.text.length).toBeGreaterThan(0);
    });
  });

  it('gives different ETags to different answers of one operation', async () => {
    const texas = await callOperation(
      'getContacts',
      apexUrl(server.baseUrl, CONTROLLER, 'getContacts', query({ state: 'Texas' })),
    );
    const ontario = await callOperation(
      'getContacts',
      apexUrl(server.baseUrl, CONTROLLER, 'getContacts', query({ state: 'Ontario' })),
    );
    expect(texas.text).not.toBe(ontario.text);
    expect(texas.headers.get('etag')).not.toBe(ontario.headers.get('etag'));
    const withOtherEtag = await callOperation(
      'getContacts',
      apexUrl(server.baseUrl, CONTROLLER, 'getContacts', query({ state: 'Ontario' })),
      {
        headers: { 'If-None-Match': texas.headers.get('etag')! },
      },
    );
    expect(withOtherEtag.status).toBe(200);
  });

  it('marks POST answers no-cache, without an ETag, and ignores If-None-Match on POST', async () => {
    const { url, init } = SAMPLES.invokeApexImperative(server.baseUrl);
    const response = await callOperation('invokeApexImperative', url, init);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('etag')).toBeNull();
    const again = await callOperation('invokeApexImperative', url, {
      ...init,
      headers: { ...(init?.headers as object), 'If-None-Match': '*' },
    });
    expect(again.status).toBe(200);
  });

  it('gives errors no ETag, so that no client keeps them as current', async () => {
    const response = await callOperation(
      'getContacts',
      apexUrl(server.baseUrl, CONTROLLER, 'getContacts', query({ country: 'Narnia' })),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('etag')).toBeNull();
  });

  describe('a path that does not exist', () => {
    it('none of the paths below is a path of the contract (GET /object-info became one: §7 lists it)', () => {
      const templates = operationsOf(contract).map(
        ({ path }) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      );
      expect(MISSING_PATHS.filter((path) => templates.some((template) => template.test(path)))).toEqual([]);
    });

    it.each(MISSING_PATHS)('%s answers 404 with exactly the platform error list', async (path) => {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(NOT_FOUND_BODY);
    });

    it('a browser going to a page that does not exist gets a short document with the way to the page; API paths stay JSON', async () => {
      // What a browser sends when it goes to a page (fetch sends its own Sec-Fetch-Mode, so Accept decides here).
      const navigate = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
      for (const headers of [navigate, { Accept: 'TEXT/HTML' }]) {
        const page = await fetch(`${server.baseUrl}/contact-us/no-such-page?x=1`, { headers });
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(page.headers.get('x-content-type-options')).toBe('nosniff');
        const html = await page.text();
        expect(html).toContain('<title>Page not found</title>');
        expect(html).toContain('<a href="/">');
      }
      for (const path of MISSING_PATHS.filter((missing) => missing.startsWith('/services/'))) {
        const response = await fetch(`${server.baseUrl}${path}`, { headers: navigate });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual(NOT_FOUND_BODY);
      }
      const posted = await fetch(`${server.baseUrl}/no/such/path`, { method: 'POST', headers: navigate });
      expect(await posted.json()).toEqual(NOT_FOUND_BODY);
    });

    it('a method a path does not have answers 404 with the platform error list too', async () => {
      const response = await fetch(`${server.baseUrl}${UI_API}/object-info/${CONTACT_US}`, { method: 'DELETE' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(NOT_FOUND_BODY);
    });
  });

  it('the operations of the Apex transport are where the contract puts them', () => {
    // A guard for the samples above: they call the paths the contract names.
    for (const operationId of ['getDefaultContacts', 'getDependentStatePicklistsValues', 'getContacts']) {
      const { path } = contractOperation(operationId);
      expect(SAMPLES[operationId](server.baseUrl).url.replace(server.baseUrl, '').split('?')[0]).toBe(path);
    }
  });
});
