/**
 * Replayed before routing: a GET the locator's result cache can answer is answered before routing and the
 * middleware chain. Its answers must be the router's, header for header, and it must apply what the
 * middleware would (the guest rate limit, the security headers, sessions by going through the router).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apexUrl, CONTROLLER, contactsUrl, query } from '../support/api.ts';
import { expectValidResponse } from '../support/contract.ts';
import { expectFrontAsWholeWay } from '../support/replay.ts';
import { rawGet } from '../support/raw-http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signIn } from '../support/session.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

describe.skipIf(!CACHES_ON)('answers before routing (needs the caches on: not CACHES=off)', () => {
  let server: TestServer;
  const replayed = () => server.app.locatorCache.stats.replayed;

  beforeAll(async () => {
    server = await startTestServer({ app: { trustProxy: true } });
  });
  afterAll(() => server?.close());

  const variants: [string, Record<string, string>][] = [
    ['plain', {}],
    ['gzipped', { 'Accept-Encoding': 'gzip, deflate, br' }],
    ['over HTTPS through the trusted proxy', { 'X-Forwarded-Proto': 'https', 'Accept-Encoding': 'gzip' }],
    [
      'with the continuation header and other cookies',
      { 'X-SFDC-Allow-Continuation': 'false', Cookie: 'theme=dark; sidebar=open' },
    ],
  ];

  it.each(variants)(
    'gives a repeated GET (%s) the same status, headers and body as the router',
    async (_name, headers) => {
      const urls = [
        contactsUrl(server.baseUrl, query({ country: 'Canada' })),
        apexUrl(server.baseUrl, CONTROLLER, 'getDefaultContacts'),
        apexUrl(server.baseUrl, CONTROLLER, 'getDependentStatePicklistsValues'),
      ];
      for (const url of urls) await expectFrontAsWholeWay(url, headers, replayed, 1);
    },
  );

  it('sends the security headers, HSTS only over HTTPS, and a contract-valid body', async () => {
    const url = contactsUrl(server.baseUrl, query({ country: 'Canada', brands: ['Arcline'] }));
    await rawGet(url);
    const before = replayed();
    const plain = await rawGet(url);
    const https = await rawGet(url, { 'X-Forwarded-Proto': 'https' });
    expect(replayed()).toBe(before + 2);
    for (const answer of [plain, https]) {
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-security-policy': expect.stringContaining("default-src 'none'"),
        'cache-control': 'private, max-age=300',
        vary: 'Accept-Encoding, Cookie',
      });
      expectValidResponse('getContacts', 200, JSON.parse(answer.body.toString()));
    }
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('leaves to the router what needs it: sessions, conditional requests, bad headers, HEAD', async () => {
    const url = contactsUrl(server.baseUrl, query({ country: 'Mexico' }));
    const first = await rawGet(url);
    const before = replayed();
    // A session cookie: the session is looked up (and an ended one's cookie cleared).
    const ended = await rawGet(url, { Cookie: `sid=${'x'.repeat(43)}` });
    expect(ended.status).toBe(200);
    expect(ended.headers['set-cookie']?.join()).toMatch(/^sid=;.*Max-Age=0/);
    const session = await signIn(server, 'standard');
    expect((await rawGet(url, { Cookie: session.cookie })).status).toBe(200);
    // Conditional, with the answer's own ETag: 304 from cacheFor, with the 200's Vary.
    const notModified = await rawGet(url, { 'If-None-Match': String(first.headers.etag) });
    expect(notModified.status).toBe(304);
    expect(notModified.headers).toMatchObject({
      etag: first.headers.etag,
      vary: 'Accept-Encoding, Cookie',
      'cache-control': 'private, max-age=300',
    });
    // A continuation header the contract does not allow: 400 from the route's validation.
    const refused = await rawGet(url, { 'X-SFDC-Allow-Continuation': 'maybe' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString()).errorMessage).toMatch(/x-sfdc-allow-continuation/i);
    const head = await rawGet(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(replayed()).toBe(before);
  });
});

describe.skipIf(!CACHES_ON)('the guest rate limit before routing (needs the caches on: not CACHES=off)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ app: { trustProxy: true, limits: { publicRequestsPerMinute: 3 } } });
  });
  afterAll(() => server?.close());

  it('counts replayed answers once each, and refuses past the limit in the Apex error shape', async () => {
    const url = contactsUrl(server.baseUrl, query({ country: 'Canada' }));
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const before = server.app.locatorCache.stats.replayed;
    const statuses = [];
    for (let call = 0; call < 4; call++) statuses.push((await rawGet(url, from('203.0.113.7'))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(server.app.locatorCache.stats.replayed).toBe(before + 2);
    const refused = await rawGet(url, from('203.0.113.7'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body.toString())).toEqual({ errorMessage: expect.stringMatching(/Too many requests/) });
    // Another address has its own count, and is replayed before routing.
    expect((await rawGet(url, from('203.0.113.8'))).status).toBe(200);
    expect(server.app.locatorCache.stats.replayed).toBe(before + 3);
  });
});
