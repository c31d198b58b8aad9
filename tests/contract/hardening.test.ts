/**
 * Hardening over real HTTP on every test database: the body-size limit (413 at the boundary, larger only
 * for the content-version uploads), the rate limits on what a guest may call and on sign-in (429 with
 * Retry-After, recovery after the window, by client address), and the security headers on API answers,
 * errors, the page and the docs (HSTS only over HTTPS).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestOperationsOf, UPLOAD_MAX_BODY_BYTES } from '../../server/http/limits/limits.ts';
import { apexUrl, CONTACT_US, contactsUrl, CONTROLLER, UI_API } from '../support/api.ts';
import { callOperation, expectValidSchema } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const APEX_POST = (base: string) => apexUrl(base, CONTROLLER, 'getContacts');
const RECORDS = (base: string) => `${base}${UI_API}/records`;
const UPLOAD = (base: string) => `${base}${UI_API}/records/content-documents/content-versions`;
const SIGN_IN = (base: string) => `${base}/services/auth/session`;
const DEFAULT_CONTACTS = (base: string) => apexUrl(base, CONTROLLER, 'getDefaultContacts');
const OBJECT_INFO = (base: string) => `${base}${UI_API}/object-info/${CONTACT_US}`;
const A_RECORD = (base: string) => `${base}${UI_API}/records/a1C8d0000000001EAA`;

/** A JSON text of exactly `bytes` bytes: the value, then spaces (JSON allows trailing whitespace). */
function jsonOfSize(value: unknown, bytes: number): string {
  const text = JSON.stringify(value);
  if (text.length > bytes) throw new Error(`${text} is longer than ${bytes} bytes`);
  return text + ' '.repeat(bytes - text.length);
}

const post = (body: BodyInit, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body,
});

/** The same body without Content-Length (Transfer-Encoding: chunked), in two chunks. */
function chunked(text: string): RequestInit {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
  return { ...post(body), duplex: 'half' } as RequestInit;
}

const CONTACTS_QUERY = { country: 'Canada', state: null, brands: [], lastRecordId: null };
const SIGN_IN_BODY = JSON.stringify({ username: 'nobody@example.com', password: 'not the password' });

function movableClock() {
  const clock = { at: Date.UTC(2026, 0, 5, 9), now: () => clock.at };
  return clock;
}

/** The error body in the called path's shape: the Apex transport's, or the record API's list. */
async function expectErrorBody(response: Response, shape: 'record' | 'apex', errorCode: string, message: string) {
  const body = await response.json();
  if (shape === 'apex') {
    expectValidSchema('ApexErrorRepresentation', body);
    expect(body).toEqual({ errorMessage: message });
  } else {
    expectValidSchema('ErrorList', body);
    expect(body).toEqual([{ errorCode, message }]);
  }
}

async function expectTooLarge(response: Response, shape: 'record' | 'apex', limit: number) {
  expect(response.status).toBe(413);
  await expectErrorBody(
    response,
    shape,
    'REQUEST_TOO_LARGE',
    `The request body is larger than the limit of ${limit} bytes.`,
  );
}

async function expectTooMany(response: Response, shape: 'record' | 'apex' | 'page', limit: number, retryAfter: number) {
  expect(response.status).toBe(429);
  expect(response.headers.get('Retry-After')).toBe(String(retryAfter));
  expect(response.headers.get('RateLimit-Limit')).toBe(String(limit));
  expect(response.headers.get('RateLimit-Remaining')).toBe('0');
  expect(response.headers.get('RateLimit-Reset')).toBe(String(retryAfter));
  expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
  const message = `Too many requests from this address: try again in ${retryAfter} seconds.`;
  if (shape !== 'page') return expectErrorBody(response, shape, 'REQUEST_LIMIT_EXCEEDED', message);
  // A visitor's browser shows the page's refusal as a document, not as JSON.
  expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
  expect(response.headers.get('Content-Security-Policy')).toBe(API_POLICY);
  const html = await response.text();
  expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
  expect(html).toContain('<title>Too many requests</title>');
  expect(html).toContain(`<p>${message}</p>`);
}

/** Every answer's; documents (the page, the docs) also get the referrer and opener policies. */
function expectSecurityHeaders(headers: Headers, kind: 'document' | 'api' = 'api') {
  expect(headers.get('X-Content-Type-Options')).toBe('nosniff');
  expect(headers.get('X-Frame-Options')).toBe('DENY');
  expect(headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
  expect(headers.get('Referrer-Policy')).toBe(kind === 'document' ? 'strict-origin-when-cross-origin' : null);
  expect(headers.get('Cross-Origin-Opener-Policy')).toBe(kind === 'document' ? 'same-origin' : null);
}

const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const directive = (policy: string, name: string) =>
  policy.split('; ').find((part) => part.split(' ')[0] === name) ?? '';

describe.each(databases())('Hardening on %s', (kind) => {
  describe('body-size limit', () => {
    const LIMIT = 4096;
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        database: kind,
        demoContacts: 24,
        app: { limits: { maxBodyBytes: LIMIT, publicRequestsPerMinute: 0, signInAttemptsPerWindow: 0 } },
      });
    });
    afterAll(() => server?.close());

    it('takes a body of exactly the limit and answers 413 one byte above, in the record API shape', async () => {
      const atLimit = await fetch(
        RECORDS(server.baseUrl),
        post(jsonOfSize({ apiName: CONTACT_US, fields: {} }, LIMIT)),
      );
      expect(atLimit.status).not.toBe(413);
      await atLimit.arrayBuffer();
      await expectTooLarge(
        await fetch(RECORDS(server.baseUrl), post(jsonOfSize({ apiName: CONTACT_US, fields: {} }, LIMIT + 1))),
        'record',
        LIMIT,
      );
    });

    it('answers the Apex transport in its own shape, and runs the method when the body fits', async () => {
      const atLimit = await callOperation(
        'invokeApexImperative',
        APEX_POST(server.baseUrl),
        post(jsonOfSize(CONTACTS_QUERY, LIMIT)),
      );
      expect(atLimit.status).toBe(200);
      await expectTooLarge(
        await fetch(APEX_POST(server.baseUrl), post(jsonOfSize(CONTACTS_QUERY, LIMIT + 1))),
        'apex',
        LIMIT,
      );
    });

    it('counts a body sent without Content-Length as it arrives', async () => {
      const atLimit = await fetch(APEX_POST(server.baseUrl), chunked(jsonOfSize(CONTACTS_QUERY, LIMIT)));
      expect(atLimit.status).toBe(200);
      await atLimit.arrayBuffer();
      await expectTooLarge(
        await fetch(APEX_POST(server.baseUrl), chunked(jsonOfSize(CONTACTS_QUERY, LIMIT + 1))),
        'apex',
        LIMIT,
      );
    });

    it('lets the content-version uploads through far above the limit (the caller then needs a session)', async () => {
      const response = await fetch(UPLOAD(server.baseUrl), post(jsonOfSize({ title: 'Price list' }, 200_000)));
      expect(response.status).toBe(401);
      await response.arrayBuffer();
    });

    it('limits bodies sent to paths that do not exist too', async () => {
      const response = await fetch(`${server.baseUrl}/no/such/path`, post(jsonOfSize({}, LIMIT + 1)));
      await expectTooLarge(response, 'record', LIMIT);
    });
  });

  describe('defaults', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database: kind, demoContacts: 24 });
    });
    afterAll(() => server?.close());

    // In-process (app.request): over a socket, the server stops reading a refused body of megabytes after
    // half a second and closes the connection, which a client still sending sees as an error.
    const inProcess = (url: string, text: string) =>
      server.app.request(
        url.replace(server.baseUrl, 'http://localhost'),
        post(text, { 'Content-Length': String(Buffer.byteLength(text)) }),
      );

    it('limits bodies to 1 MiB', async () => {
      const atLimit = await inProcess(APEX_POST(server.baseUrl), jsonOfSize(CONTACTS_QUERY, 1024 * 1024));
      expect(atLimit.status).toBe(200);
      await expectTooLarge(
        await inProcess(APEX_POST(server.baseUrl), jsonOfSize(CONTACTS_QUERY, 1024 * 1024 + 1)),
        'apex',
        1024 * 1024,
      );
    });

    it('takes a 10 MB file in base64 on the upload operations, and no more', async () => {
      const atLimit = await inProcess(
        UPLOAD(server.baseUrl),
        jsonOfSize({ title: 'Catalogue' }, UPLOAD_MAX_BODY_BYTES),
      );
      expect(atLimit.status).toBe(401);
      const over = await inProcess(
        UPLOAD(server.baseUrl),
        jsonOfSize({ title: 'Catalogue' }, UPLOAD_MAX_BODY_BYTES + 1),
      );
      await expectTooLarge(over, 'record', UPLOAD_MAX_BODY_BYTES);
      expect(UPLOAD_MAX_BODY_BYTES).toBeGreaterThan(Math.ceil((10 * 1024 * 1024) / 3) * 4);
      // Any other operation keeps the default limit.
      await expectTooLarge(
        await inProcess(RECORDS(server.baseUrl), jsonOfSize({ apiName: CONTACT_US }, 1024 * 1024 + 1)),
        'record',
        1024 * 1024,
      );
    });

    it('has no rate limits in test servers unless a test sets them', async () => {
      for (let attempt = 0; attempt < 12; attempt++) {
        const response = await fetch(SIGN_IN(server.baseUrl), post(SIGN_IN_BODY));
        expect(response.status).toBe(401);
        await response.arrayBuffer();
      }
    });

    it('sends the security headers and a policy that allows nothing on API answers and errors', async () => {
      const answers = [
        await fetch(DEFAULT_CONTACTS(server.baseUrl)),
        await fetch(OBJECT_INFO(server.baseUrl)),
        await fetch(A_RECORD(server.baseUrl)),
        await fetch(`${server.baseUrl}/no/such/path`),
        await fetch(`${server.baseUrl}/openapi.json`),
        await fetch(APEX_POST(server.baseUrl), post('{"country":')),
        // The second is answered from the locator's result cache, before routing.
        await fetch(contactsUrl(server.baseUrl, CONTACTS_QUERY)),
        await fetch(contactsUrl(server.baseUrl, CONTACTS_QUERY), { headers: { 'Accept-Encoding': 'gzip' } }),
      ];
      expect(answers.map((response) => response.status)).toEqual([200, 200, 401, 404, 200, 400, 200, 200]);
      for (const response of answers) {
        expectSecurityHeaders(response.headers);
        expect(response.headers.get('Content-Security-Policy')).toBe(API_POLICY);
        expect(response.headers.get('Strict-Transport-Security')).toBeNull();
        await response.arrayBuffer();
      }
    });

    it('sends no HSTS over plain HTTP, whatever an untrusted X-Forwarded-Proto says', async () => {
      const response = await fetch(DEFAULT_CONTACTS(server.baseUrl), { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(response.headers.get('Strict-Transport-Security')).toBeNull();
      await response.arrayBuffer();
    });

    it('gives the page a policy with the hashes of its inline styles and style attributes, never unsafe-inline or a nonce', async () => {
      const first = await fetch(`${server.baseUrl}/?country=Canada`);
      expect(first.status).toBe(200);
      const html = await first.text();
      const policy = first.headers.get('Content-Security-Policy') ?? '';
      expectSecurityHeaders(first.headers, 'document');
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
      // No inline script runs: the page's inline scripts are data only.
      expect(directive(policy, 'script-src')).toBe("script-src 'self'");
      for (const tag of html.match(/<script[^>]*>/g) ?? [])
        expect(tag).toMatch(/\bsrc="\/assets\/|type="application\/json"/);
      // Exactly the inline <style> elements the page holds, by hash.
      const styles = [...html.matchAll(/<style>(.*?)<\/style>/gs)].map((match) => match[1]);
      expect(html.match(/<style[^>]*>/g)).toHaveLength(styles.length);
      expect(styles.length).toBeGreaterThan(0);
      expect(directive(policy, 'style-src-elem')).toBe(`style-src-elem 'self' ${styles.map(sha256).join(' ')}`);
      const attributes = [...html.matchAll(/ style="([^"]*)"/g)].map((match) =>
        match[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
      );
      expect(attributes.length).toBeGreaterThan(0);
      const allowed = directive(policy, 'style-src-attr');
      for (const value of attributes) expect(allowed).toContain(sha256(value));
    });

    it.runIf(existsSync(resolve(ROOT, 'dist/docs/index.html')))(
      'gives the docs page its own policy: its inline scripts by hash (needs the docs built: npm run docs)',
      async () => {
        const response = await fetch(`${server.baseUrl}/docs`);
        expect(response.status).toBe(200);
        const html = await response.text();
        const policy = response.headers.get('Content-Security-Policy') ?? '';
        expectSecurityHeaders(response.headers, 'document');
        const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
          (match) => match[1],
        );
        expect(inline.length).toBeGreaterThan(0);
        for (const script of inline) expect(directive(policy, 'script-src')).toContain(sha256(script));
        expect(directive(policy, 'script-src')).not.toContain('unsafe');
      },
    );
  });

  describe('rate limits', () => {
    const PER_MINUTE = 5;
    const SIGN_INS = 3;
    const clock = movableClock();
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        database: kind,
        demoContacts: 24,
        app: { clock, limits: { publicRequestsPerMinute: PER_MINUTE, signInAttemptsPerWindow: SIGN_INS } },
      });
    });
    afterAll(() => server?.close());

    it('routes every operation a guest may call through the limit', () => {
      const routes = new Set(server.app.routes.map((route) => `${route.method} ${route.path}`));
      const missing = [...guestOperationsOf().keys()].filter((key) => !routes.has(key));
      expect(missing).toEqual([]);
      expect(guestOperationsOf().size).toBeGreaterThan(10);
    });

    it('answers 429 with Retry-After after N public requests from one address, and again after the window', async () => {
      for (let request = 0; request < PER_MINUTE; request++) {
        const response = await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl));
        expect(response.status).toBe(200);
      }
      await expectTooMany(await fetch(DEFAULT_CONTACTS(server.baseUrl)), 'apex', PER_MINUTE, 60);
      // One count per address, whatever the operation; the record API answers in its own shape.
      await expectTooMany(await fetch(OBJECT_INFO(server.baseUrl)), 'record', PER_MINUTE, 60);
      // Another X-Forwarded-For does not make another client when no proxy is trusted.
      await expectTooMany(
        await fetch(OBJECT_INFO(server.baseUrl), { headers: { 'X-Forwarded-For': '198.51.100.9' } }),
        'record',
        PER_MINUTE,
        60,
      );
      // The pages count too.
      await expectTooMany(await fetch(`${server.baseUrl}/login`), 'page', PER_MINUTE, 60);
      // Operations only a user may call are not counted here: the guest gets their 401.
      const userOnly = await fetch(A_RECORD(server.baseUrl));
      expect(userOnly.status).toBe(401);
      await userOnly.arrayBuffer();

      clock.at += 45_000;
      await expectTooMany(await fetch(DEFAULT_CONTACTS(server.baseUrl)), 'apex', PER_MINUTE, 15);
      clock.at += 15_000;
      expect((await callOperation('getObjectInfo', OBJECT_INFO(server.baseUrl))).status).toBe(200);
    });

    it('counts the page as one request, not the API calls it makes to render', async () => {
      clock.at += 60_000;
      const page = await fetch(`${server.baseUrl}/?country=Canada`);
      expect(page.status).toBe(200);
      // The page was rendered with data its API calls fetched in-process.
      const state = /<script id="[^"]+" type="application\/json">(.*?)<\/script>/.exec(await page.text())?.[1] ?? '{}';
      expect((JSON.parse(state) as { queries?: unknown[] }).queries?.length).toBeGreaterThan(1);
      for (let request = 1; request < PER_MINUTE; request++) {
        expect((await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl))).status).toBe(200);
      }
      await expectTooMany(await fetch(`${server.baseUrl}/`), 'page', PER_MINUTE, 60);
    });

    it('limits sign-in attempts more strictly, for 15 minutes, apart from the public count', async () => {
      clock.at += 60_000;
      for (let attempt = 0; attempt < SIGN_INS; attempt++) {
        expect((await callOperation('signIn', SIGN_IN(server.baseUrl), post(SIGN_IN_BODY))).status).toBe(401);
      }
      const limited = await callOperation('signIn', SIGN_IN(server.baseUrl), post(SIGN_IN_BODY));
      expect(limited.status).toBe(429);
      expect(limited.headers.get('Retry-After')).toBe('900');
      expect(limited.headers.get('RateLimit-Limit')).toBe(String(SIGN_INS));
      expect(limited.body).toEqual([
        {
          errorCode: 'REQUEST_LIMIT_EXCEEDED',
          message: 'Too many requests from this address: try again in 900 seconds.',
        },
      ]);
      // The public operations still answer.
      expect((await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl))).status).toBe(200);

      clock.at += 14 * 60_000;
      expect(
        (await callOperation('signIn', SIGN_IN(server.baseUrl), post(SIGN_IN_BODY))).headers.get('Retry-After'),
      ).toBe('60');
      clock.at += 60_000;
      expect((await callOperation('signIn', SIGN_IN(server.baseUrl), post(SIGN_IN_BODY))).status).toBe(401);
    });
  });

  describe('behind a trusted proxy', () => {
    const clock = movableClock();
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        database: kind,
        demoContacts: 24,
        app: { clock, trustProxy: true, limits: { publicRequestsPerMinute: 2, signInAttemptsPerWindow: 0 } },
      });
    });
    afterAll(() => server?.close());

    const from = (address: string, proto = 'http') => ({
      headers: { 'X-Forwarded-For': address, 'X-Forwarded-Proto': proto },
    });

    it('counts by the first X-Forwarded-For address', async () => {
      for (let request = 0; request < 2; request++) {
        expect(
          (await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl), from('203.0.113.7'))).status,
        ).toBe(200);
      }
      await expectTooMany(await fetch(DEFAULT_CONTACTS(server.baseUrl), from('203.0.113.7, 10.0.0.2')), 'apex', 2, 60);
      expect(
        (await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl), from('203.0.113.8, 203.0.113.7')))
          .status,
      ).toBe(200);
      // The addresses of one IPv6 /64 are one client.
      expect(
        (await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl), from('2001:db8:1:2::a'))).status,
      ).toBe(200);
      expect(
        (await callOperation('getDefaultContacts', DEFAULT_CONTACTS(server.baseUrl), from('2001:db8:1:2::b'))).status,
      ).toBe(200);
      await expectTooMany(await fetch(DEFAULT_CONTACTS(server.baseUrl), from('2001:db8:1:2:ffff::c')), 'apex', 2, 60);
    });

    it('sends HSTS when the proxy says the client used HTTPS, and only then', async () => {
      clock.at += 60_000;
      const secure = await fetch(OBJECT_INFO(server.baseUrl), from('192.0.2.1', 'https'));
      expect(secure.status).toBe(200);
      expect(secure.headers.get('Strict-Transport-Security')).toBe('max-age=31536000');
      await secure.arrayBuffer();
      const plain = await fetch(OBJECT_INFO(server.baseUrl), from('192.0.2.2', 'http'));
      expect(plain.headers.get('Strict-Transport-Security')).toBeNull();
      await plain.arrayBuffer();
    });
  });
});
