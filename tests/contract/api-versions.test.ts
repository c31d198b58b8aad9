/**
 * Platform code pinned to an older API version works unchanged: a sample of operations of every tag answers
 * at v41.0, v55.0 and v65.0 as the contract says, with the URLs of the answer and its ETag naming the version
 * asked; a later version, or a segment that is not vNN.0, answers 404 NOT_FOUND; a cached answer of one
 * version is never given for another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, operationTable, type OperationId } from '../../generated/operations.ts';
import { callOperation, expectValidResponse } from '../support/contract.ts';
import { exampleFetch } from '../support/examples.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const VERSIONS = ['v41.0', 'v55.0', 'v65.0'];
const versioned = (path: string) => /^\/(services\/data|lwr\/apex)\/v65\.0\//.test(path);

/** The first GET of each tag whose path is versioned: a sample of every tag. */
const sample = [
  ...new Map(
    (Object.entries(operationTable) as [OperationId, (typeof operationTable)[OperationId]][])
      .filter(([, row]) => row.method === 'get' && (versioned(row.path) || row.path.includes('{apiVersion}')))
      .map(([id, row]) => [row.tag, id] as const)
      .reverse(),
  ).values(),
];

const atVersion = (url: string, version: string) =>
  url.replace(/\/(services\/data|lwr\/apex)\/v65\.0\//, `/$1/${version}/`);

/** The versions the URLs of an answer name. */
const versionsNamed = (text: string) =>
  new Set([...text.matchAll(/\/(?:services\/data|lwr\/apex)\/(v\d+\.\d)\//g)].map((match) => match[1]));

describe.each(databases())('API versions on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;

  beforeAll(async () => {
    server = await startTestServer({ database: kind });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('samples every tag', () => {
    expect(sample.length).toBeGreaterThanOrEqual(9);
    expect(API_VERSIONS).toEqual({ first: 'v41.0', current: 'v65.0' });
  });

  it.each(sample)('%s answers at v41.0, v55.0 and v65.0, naming the version asked', async (operationId) => {
    const { url, init } = exampleFetch(server.baseUrl, operationId, { headers: admin.headers });
    const answers = [];
    for (const version of VERSIONS) {
      const answer = await callOperation(operationId, atVersion(url, version), init);
      answers.push(answer);
      expect(answer.status, `${version}: ${answer.text.slice(0, 300)}`).toBe(answers[0].status);
      if (answer.status === 200) expectValidResponse(operationId, 200, answer.body);
      const named = versionsNamed(answer.text);
      if (named.size) expect([...named], version).toEqual([version]);
    }
    // The same content's tag, with the version (the current version's may name its coding, -gzip or -br).
    const [v41, v55, v65] = answers.map((answer) => answer.headers.get('etag'));
    if (v65) {
      const content = v65.replace(/-(?:gzip|br)"$/, '"');
      expect(v41).toBe(content.replace(/"$/, '-v41.0"'));
      expect(v55).toBe(content.replace(/"$/, '-v55.0"'));
    }
  });

  // The apps and action lists added with the platform's later calls, each asked at an older version as the
  // platform's client pinned to it asks: its example request answers 2xx there too, in the contract's shape.
  it.each([
    'selectApp',
    'getUserNavItems',
    'updateUserNavItems',
    'getListViewActions',
    'getMruListActions',
    'getListViewChartActions',
    'getPhotoActions',
    'getListViewRecordActions',
    'getFlexipageActions',
  ] satisfies OperationId[])('%s answers its example at v55.0', async (operationId) => {
    const { url, init } = exampleFetch(server.baseUrl, operationId, { headers: admin.headers });
    const answer = await callOperation(operationId, atVersion(url, 'v55.0'), init);
    expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(200);
    expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(300);
    const named = versionsNamed(answer.text);
    if (named.size) expect([...named]).toEqual(['v55.0']);
  });

  it('keeps a conditional request to its version', async () => {
    const { url, init } = exampleFetch(server.baseUrl, 'getRelatedListsInfo', { headers: admin.headers });
    const v65 = await fetch(url, init);
    const v55Url = atVersion(url, 'v55.0');
    const v55 = await fetch(v55Url, init);
    const etag55 = v55.headers.get('etag')!;
    const again = await fetch(v55Url, { ...init, headers: { ...admin.headers, 'If-None-Match': etag55 } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag55);
    // The current version's ETag is not the older version's: the older version answers in full.
    const other = await fetch(v55Url, {
      ...init,
      headers: { ...admin.headers, 'If-None-Match': v65.headers.get('etag')! },
    });
    expect(other.status).toBe(200);
    expect(versionsNamed(await other.text())).toEqual(new Set(['v55.0']));
  });

  it('never gives a cached answer of one version for another', async () => {
    const apex = `${server.baseUrl}/lwr/apex/v65.0/APT_ContactUsController/getDefaultContacts`;
    // Kept for guests at the current version, then asked at an older one.
    expect((await fetch(apex)).status).toBe(200);
    expect((await fetch(apex)).status).toBe(200);
    const older = await fetch(atVersion(apex, 'v50.0'));
    expect(older.status).toBe(200);
    expect(older.headers.get('etag')).toMatch(/-v50\.0"$/);
    // A signed-in user's answers, asked twice at the current version, then at an older one.
    const lists = `${server.baseUrl}/services/data/v65.0/ui-api/related-list-info/Account`;
    for (let i = 0; i < 2; i++) await fetch(lists, { headers: admin.headers });
    const text = await (await fetch(atVersion(lists, 'v48.0'), { headers: admin.headers })).text();
    expect(versionsNamed(text)).toEqual(new Set(['v48.0']));
    const current = await (await fetch(lists, { headers: admin.headers })).text();
    expect(versionsNamed(current)).toEqual(new Set(['v65.0']));
  });

  it('takes a write at an older version', async () => {
    const created = await fetch(`${server.baseUrl}/services/data/v52.0/ui-api/records`, {
      method: 'POST',
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: 'Account', fields: { Name: 'Versioned Supply' } }),
    });
    const body = (await created.json()) as { id: string; fields: Record<string, { value: unknown }> };
    expect(created.status, JSON.stringify(body)).toBe(201);
    expect(body.fields.Name.value).toBe('Versioned Supply');
  });

  it.each([
    '/services/data/v66.0/ui-api/object-info/Account',
    '/services/data/v65/ui-api/object-info/Account',
    '/services/data/v40.0/ui-api/object-info/Account',
    '/lwr/apex/v66.0/APT_ContactUsController/getDefaultContacts',
    '/services/data/v66.0/connect/communities/0DB8d0000000001GAA/seo/properties/contact_us',
  ])('answers %s 404 NOT_FOUND', async (path) => {
    const answer = await fetch(`${server.baseUrl}${path}`, { headers: admin.headers });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual([{ errorCode: 'NOT_FOUND', message: expect.any(String) }]);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
