/**
 * The pieces of the request limits and security headers that need no server: the fixed-window counter,
 * address keys, which operations a guest may call, the policies' hashes, the environment, the client's
 * scheme behind a proxy, and the 500 body of a defect (no stack, no message of the error), which a client
 * gone before its request arrived whole is not.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorHandler } from '../../server/http/errors.ts';
import { guestMayCall } from '../../scripts/lib/security.ts';
import {
  addressKey,
  DEFAULT_LIMITS,
  FixedWindowLimiter,
  guestOperationsOf,
  limitOptionsFromEnv,
} from '../../server/http/limits/limits.ts';
import { clientScheme } from '../../server/http/connections/request-header.ts';
import { docsPolicy, pagePolicy, styleAttributeHashes } from '../../server/http/answers/security-headers.ts';
import { expectValidSchema } from '../support/contract.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function movableClock(start = 1_700_000_000_000) {
  const clock = { at: start, now: () => clock.at };
  return clock;
}

describe('FixedWindowLimiter', () => {
  it('allows the limit within a window, then answers the seconds left, and starts again after the window', () => {
    const clock = movableClock();
    const limiter = new FixedWindowLimiter(3, 60_000, clock);
    expect([limiter.hit('a'), limiter.hit('a'), limiter.hit('a')]).toEqual([0, 0, 0]);
    expect(limiter.hit('a')).toBe(60);
    clock.at += 59_001;
    expect(limiter.hit('a')).toBe(1);
    clock.at += 999;
    expect(limiter.hit('a')).toBe(0);
  });

  it('counts each key apart', () => {
    const limiter = new FixedWindowLimiter(1, 60_000, movableClock());
    expect(limiter.hit('a')).toBe(0);
    expect(limiter.hit('b')).toBe(0);
    expect(limiter.hit('a')).toBeGreaterThan(0);
  });

  it('rounds the wait up to whole seconds, never 0', () => {
    const clock = movableClock();
    const limiter = new FixedWindowLimiter(1, 15 * 60_000, clock);
    limiter.hit('a');
    expect(limiter.hit('a')).toBe(900);
    clock.at += 15 * 60_000 - 1;
    expect(limiter.hit('a')).toBe(1);
  });

  it('forgets keys whose window ended, so memory follows the addresses of one window', () => {
    const clock = movableClock();
    const limiter = new FixedWindowLimiter(5, 60_000, clock);
    for (let i = 0; i < 100; i++) limiter.hit(`10.0.0.${i}`);
    expect(limiter.size).toBe(100);
    clock.at += 60_000;
    limiter.hit('10.0.1.1');
    expect(limiter.size).toBe(1);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped IPv6 ones', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('groups IPv6 addresses by their /64 prefix', () => {
    expect(addressKey('2001:db8:85a3:12:1:2:3:4')).toBe('2001:db8:85a3:12::/64');
    expect(addressKey('2001:db8:85a3:12::99')).toBe('2001:db8:85a3:12::/64');
    expect(addressKey('2001:0DB8:0000:0012::1')).toBe('2001:db8:0:12::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('2001:db8:85a3:12:1:2:3:4')).not.toBe(addressKey('2001:db8:85a3:13:1:2:3:4'));
  });
});

describe('guestMayCall, which fills the guest column of the operation table', () => {
  type Document = {
    security: Record<string, string[]>[];
    paths: Record<string, Record<string, { operationId: string; security?: Record<string, string[]>[] }>>;
  };
  const contract: Document = {
    security: [{}, { sessionCookie: [] }],
    paths: {
      '/public/{id}': {
        get: { operationId: 'inherits' },
        post: { operationId: 'userOnly', security: [{ sessionCookie: [] }] },
      },
      '/open': {
        put: { operationId: 'explicitlyOpen', security: [{}] },
        delete: { operationId: 'noneRequired', security: [] },
      },
    },
  };

  const guestOperations = (document: Document) =>
    Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => guestMayCall(operation.security, document.security))
      .map((operation) => operation.operationId)
      .sort();

  it('lists the operations whose security allows no credentials', () => {
    expect(guestOperations(contract)).toEqual(['explicitlyOpen', 'inherits', 'noneRequired']);
  });

  it('follows the document security when an operation has none of its own', () => {
    const closed = { ...contract, security: [{ sessionCookie: [] }] };
    expect(guestOperations(closed)).toEqual(['explicitlyOpen', 'noneRequired']);
  });

  it('is what the generated operation table says, as Hono routes', () => {
    expect(guestOperationsOf().get('GET /lwr/apex/v65.0/APT_ContactUsController/getContacts')).toBe('getContacts');
    expect(guestOperationsOf().get('POST /services/auth/session')).toBe('signIn');
    expect([...guestOperationsOf().values()]).not.toContain('getCsrfToken');
  });
});

describe('limitOptionsFromEnv', () => {
  it('keeps the defaults for unset or empty variables', () => {
    expect(limitOptionsFromEnv({})).toEqual(DEFAULT_LIMITS);
    expect(limitOptionsFromEnv({ MAX_BODY_BYTES: ' ' })).toEqual(DEFAULT_LIMITS);
  });

  it('reads whole numbers, 0 (off) included', () => {
    expect(
      limitOptionsFromEnv({
        MAX_BODY_BYTES: '4096',
        PUBLIC_REQUESTS_PER_MINUTE: '0',
        SIGN_IN_ATTEMPTS_PER_WINDOW: '3',
        INQUIRIES_PER_WINDOW: '2',
      }),
    ).toEqual({
      maxBodyBytes: 4096,
      publicRequestsPerMinute: 0,
      signInAttemptsPerWindow: 3,
      inquiriesPerWindow: 2,
    });
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => limitOptionsFromEnv({ PUBLIC_REQUESTS_PER_MINUTE: 'lots' })).toThrow(/PUBLIC_REQUESTS_PER_MINUTE/);
    expect(() => limitOptionsFromEnv({ MAX_BODY_BYTES: '-1' })).toThrow(/MAX_BODY_BYTES/);
    expect(() => limitOptionsFromEnv({ SIGN_IN_ATTEMPTS_PER_WINDOW: '2.5' })).toThrow(/SIGN_IN_ATTEMPTS_PER_WINDOW/);
  });
});

describe('the page policy', () => {
  const html =
    '<header class="banner" style="--banner-height:420px;--banner-content-width:60%"><p>He said &quot;style=&quot;x&quot;&quot;</p></header>' +
    '<div style="--section-bg-desktop:url(&quot;/sfsites/c/img/a.png?w=1&amp;h=2&quot;)"></div>' +
    '<div style="--banner-height:420px;--banner-content-width:60%"></div>';

  it('hashes each distinct style attribute as the browser reads it, and nothing in text', () => {
    expect(styleAttributeHashes(html)).toEqual([
      hash('--banner-height:420px;--banner-content-width:60%'),
      hash('--section-bg-desktop:url("/sfsites/c/img/a.png?w=1&h=2")'),
    ]);
  });

  it('allows scripts from the server only, and styles from the server or the inline ones by hash, never unsafe-inline', () => {
    const policy = pagePolicy(['.a{color:red}', '.b{}', '.a{color:red}'], html);
    const directives = Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0], directive]));
    expect(directives['script-src']).toBe("script-src 'self'");
    expect(directives['style-src']).toBe(`style-src 'self' ${hash('.a{color:red}')} ${hash('.b{}')}`);
    expect(directives['style-src-elem']).toBe(`style-src-elem 'self' ${hash('.a{color:red}')} ${hash('.b{}')}`);
    expect(directives['style-src-attr']).toContain(
      `'unsafe-hashes' ${hash('--banner-height:420px;--banner-content-width:60%')}`,
    );
    expect(directives['frame-ancestors']).toBe("frame-ancestors 'none'");
    expect(directives['object-src']).toBe("object-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  it('allows no style attribute when the markup has none', () => {
    expect(pagePolicy([], '<p>plain</p>')).toContain("style-src-attr 'none'");
    expect(pagePolicy([], '<p>plain</p>')).toContain("style-src 'self';");
  });
});

describe('the docs policy', () => {
  it('allows exactly its inline scripts by hash, and no inline event handlers', () => {
    const html =
      '<script>var a=1</script><script type="module">\nimport x from "/docs/r.js";\n</script><script src="/docs/r.js"></script>';
    const policy = docsPolicy(html);
    expect(policy).toContain(`script-src 'self' ${hash('var a=1')} ${hash('\nimport x from "/docs/r.js";\n')};`);
    expect(policy).toContain("worker-src 'self' blob:");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy.match(/script-src[^;]*/)?.[0]).not.toContain('unsafe');
  });
});

describe('clientScheme', () => {
  const request = (url: string, proto?: string) =>
    new Request(url, { headers: proto === undefined ? {} : { 'X-Forwarded-Proto': proto } });

  it("is the URL's scheme when the proxy is not trusted, whatever X-Forwarded-Proto says", () => {
    expect(clientScheme(request('http://shop.example/', 'https'), undefined, false)).toBe('http');
    expect(clientScheme(request('https://shop.example/', 'http'), undefined, false)).toBe('https');
  });

  it("takes a trusted proxy's word: the first value, any case and spacing", () => {
    expect(clientScheme(request('http://shop.example/', 'https'), undefined, true)).toBe('https');
    expect(clientScheme(request('http://shop.example/', ' HTTPS , http'), undefined, true)).toBe('https');
    expect(clientScheme(request('https://shop.example/', 'http'), undefined, true)).toBe('http');
    expect(clientScheme(request('http://shop.example/', 'http, https'), undefined, true)).toBe('http');
  });

  it('falls back to the URL when the trusted proxy says nothing or no scheme of HTTP', () => {
    expect(clientScheme(request('http://shop.example/'), undefined, true)).toBe('http');
    expect(clientScheme(request('https://shop.example/'), undefined, true)).toBe('https');
    expect(clientScheme(request('http://shop.example/', 'wss'), undefined, true)).toBe('http');
    expect(clientScheme(request('http://shop.example/', ''), undefined, true)).toBe('http');
  });
});

describe('the 500 of a defect', () => {
  afterEach(() => vi.restoreAllMocks());

  function appThatFails() {
    const app = new Hono();
    app.get('/services/data/v65.0/broken', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'fields') in /work/secret/records.ts");
    });
    app.get('/lwr/apex/v65.0/Broken/method', () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    app.onError(errorHandler);
    return app;
  }

  it('tells the client an error id only: no stack, no message, no file of the server', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await appThatFails().request('/services/data/v65.0/broken');
    expect(response.status).toBe(500);
    const text = await response.text();
    const body = JSON.parse(text) as [{ errorCode: string; message: string }];
    expectValidSchema('ErrorList', body);
    expect(body).toHaveLength(1);
    expect(body[0].errorCode).toBe('UNKNOWN_EXCEPTION');
    expect(body[0].message).toMatch(
      /^An unexpected error occurred\. Please include this ErrorId if you contact support: [0-9a-f]{8}$/,
    );
    expect(text).not.toMatch(/TypeError|fields|secret|\.ts\b|\n\s+at /);
    // The server's log keeps the whole error under the same id.
    const errorId = body[0].message.slice(-8);
    expect(String(logged.mock.calls[0]?.[0])).toContain(errorId);
    expect(logged.mock.calls[0]?.[1]).toBeInstanceOf(TypeError);
  });

  it('answers the Apex transport in its own shape, also without a stack', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await appThatFails().request('/lwr/apex/v65.0/Broken/method');
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expectValidSchema('ApexErrorRepresentation', body);
    expect(Object.keys(body)).toEqual(['errorMessage']);
    expect(JSON.stringify(body)).not.toMatch(/RangeError|call stack|\bat /);
  });

  it('is not logged when the client went away before its request arrived whole: its body could not be read', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gone = { incoming: { destroyed: true, complete: false } };
    const response = await appThatFails().request('/services/data/v65.0/broken', {}, gone);
    expect(response.status).toBe(400);
    expect(logged).not.toHaveBeenCalled();
    // A request received whole is the server's own defect, whatever became of the connection since.
    expect(
      (
        await appThatFails().request(
          '/services/data/v65.0/broken',
          {},
          { incoming: { destroyed: true, complete: true } },
        )
      ).status,
    ).toBe(500);
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
