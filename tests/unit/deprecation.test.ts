/**
 * Deprecations that announce themselves, on a fixture (the contract deprecates nothing yet): the generator's
 * reading of deprecated: true with x-deprecated-since and x-sunset; the Deprecation (RFC 9745), Sunset (RFC 8594)
 * and Link headers on an operation's answers, and on a deprecated parameter's only when it is sent; the
 * generated client's @deprecated; the docs page's words.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { deprecationOf } from '../../scripts/lib/deprecation.ts';
import { generateClientCalls, generateQueryFactories } from '../../scripts/lib/client-module.ts';
import { contractForDocs, type Contract } from '../../scripts/lib/docs-page.ts';
import { announceDeprecation, deprecationHeaders, docsHref } from '../../server/http/answers/deprecation.ts';

/** 2026-12-01T00:00:00Z in seconds since the epoch. */
const DECEMBER_FIRST = Date.UTC(2026, 11, 1) / 1000;

describe('the generator reads a deprecation', () => {
  it('as its dates, and nothing when the node is not deprecated', () => {
    expect(deprecationOf({ deprecated: true, 'x-deprecated-since': '2026-12-01' }, 'op')).toEqual({
      since: '2026-12-01',
    });
    expect(
      deprecationOf({ deprecated: true, 'x-deprecated-since': '2026-12-01', 'x-sunset': '2027-06-30' }, 'op'),
    ).toEqual({ since: '2026-12-01', sunset: '2027-06-30' });
    expect(deprecationOf({ 'x-deprecated-since': '2026-12-01' }, 'op')).toBeUndefined();
  });

  it('refuses one without a since, with a date the calendar lacks, or a sunset before its since', () => {
    expect(() => deprecationOf({ deprecated: true }, 'getThing')).toThrow(
      'getThing is deprecated: it needs x-deprecated-since, a date YYYY-MM-DD',
    );
    expect(() => deprecationOf({ deprecated: true, 'x-deprecated-since': '2026-02-30' }, 'op')).toThrow(/since/);
    expect(() =>
      deprecationOf({ deprecated: true, 'x-deprecated-since': '2026-12-01', 'x-sunset': '2026-11-01' }, 'op'),
    ).toThrow('op: x-sunset must be a date YYYY-MM-DD after x-deprecated-since');
  });
});

describe('the headers', () => {
  it('say since when, the day it goes and where the docs are', () => {
    expect(deprecationHeaders('getThing', 'Related lists', [{ since: '2026-12-01', sunset: '2027-06-30' }])).toEqual({
      Deprecation: `@${DECEMBER_FIRST}`,
      Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      Link: '</docs/related-lists/getthing>; rel="deprecation"; type="text/html"',
    });
    expect(docsHref('getRecordUi', 'Records')).toBe('/docs/records/getrecordui');
  });

  it('take the earliest since and sunset of several, and leave Sunset out when none is set', () => {
    const headers = deprecationHeaders('x', 'Records', [
      { since: '2027-01-01' },
      { since: '2026-12-01', sunset: '2027-09-01' },
      { since: '2027-02-01', sunset: '2027-06-30' },
    ]);
    expect(headers).toMatchObject({ Deprecation: `@${DECEMBER_FIRST}`, Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' });
    expect(deprecationHeaders('x', 'Records', [{ since: '2026-12-01' }])).not.toHaveProperty('Sunset');
    expect(deprecationHeaders('x', 'Records', [])).toBeUndefined();
  });
});

describe('an answer over HTTP', () => {
  const app = new Hono();
  app.get('/old', announceDeprecation('getOld', { tag: 'Records', deprecation: { since: '2026-12-01' } }), (c) =>
    c.json({ ok: true }),
  );
  const parameters = {
    tag: 'Lists',
    deprecatedParameters: [
      { in: 'query', name: 'q', since: '2026-12-01', sunset: '2027-06-30' },
      { in: 'header', name: 'X-Old', since: '2026-12-01' },
    ] as const,
  };
  app.get('/things', announceDeprecation('getThings', parameters), (c) => c.json({ ok: true }));
  app.get('/new', (c) => c.json({ ok: true }));

  it('of a deprecated operation carries the headers, on its errors too', async () => {
    const answer = await app.request('/old');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Deprecation')).toBe(`@${DECEMBER_FIRST}`);
    expect(answer.headers.get('Link')).toBe('</docs/records/getold>; rel="deprecation"; type="text/html"');
    expect(answer.headers.has('Sunset')).toBe(false);
  });

  it('carries them for a deprecated parameter only when the request sends it', async () => {
    expect((await app.request('/things')).headers.has('Deprecation')).toBe(false);
    const query = await app.request('/things?q=a');
    expect(query.headers.get('Sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(query.headers.get('Link')).toBe('</docs/lists/getthings>; rel="deprecation"; type="text/html"');
    const header = await app.request('/things', { headers: { 'X-Old': '1' } });
    expect(header.headers.get('Deprecation')).toBe(`@${DECEMBER_FIRST}`);
    expect(header.headers.has('Sunset')).toBe(false);
  });

  it('of an operation that is not deprecated carries none', async () => {
    const answer = await app.request('/new');
    expect([...answer.headers.keys()].filter((name) => /deprecation|sunset|link/i.test(name))).toEqual([]);
  });
});

describe('the generated client and the docs', () => {
  const operation = {
    operationId: 'getOld',
    method: 'get',
    path: '/old',
    summary: 'Get the old thing',
    inputOptional: true,
    media: false,
    read: true,
    cacheTtl: 0,
  };

  it('mark a deprecated operation @deprecated, with its dates', () => {
    const deprecated = { ...operation, deprecation: { since: '2026-12-01', sunset: '2027-06-30' } };
    const comment = '/**\n * Get the old thing: GET /old\n * @deprecated since 2026-12-01; it goes on 2027-06-30.\n */';
    expect(generateClientCalls([deprecated])).toContain(`${comment}\nexport function getOld(`);
    expect(generateQueryFactories([deprecated])).toContain('@deprecated since 2026-12-01; it goes on 2027-06-30.');
    expect(generateClientCalls([operation])).not.toContain('@deprecated');
  });

  it('say on the page since when and the day it goes', () => {
    const contract = {
      paths: {
        '/old': {
          get: {
            operationId: 'getOld',
            description: 'Gets it.',
            deprecated: true,
            'x-deprecated-since': '2026-12-01',
            'x-sunset': '2027-06-30',
            parameters: [{ name: 'q', in: 'query', deprecated: true, 'x-deprecated-since': '2026-12-01' }],
          },
        },
      },
      components: {},
    } as unknown as Contract;
    const get = (contractForDocs(contract).paths['/old'] as Record<string, Record<string, unknown>>).get;
    expect(get.description).toBe(
      '**Deprecated** since 2026-12-01, and goes on 2027-06-30 (the `Sunset` header): its answers carry `Deprecation` and a `Link` to this page.\n\nGets it.',
    );
    expect((get.parameters as { description: string }[])[0].description).toMatch(
      /^\*\*Deprecated\*\* since 2026-12-01:/,
    );
  });
});
