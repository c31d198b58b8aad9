/**
 * The back office's document over real HTTP, on every test database: every address under /lightning/ sends a
 * guest (no cookie, or a cookie whose session is gone) to the sign-in page with the address to come back to,
 * and a signed-in user the back office's own document (its entry, not the storefront's), uncached, with the
 * site's security headers and a policy that lets its script and inline stylesheet run, carrying the answers of
 * the screen's first queries, asked for as that user. Needs npm run build.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const WEB = resolve(import.meta.dirname, '../../dist/web');
const LIST = '/lightning/o/APT_Contact_Us__c/list?filterName=AllContactUs';

/** The back office's built entry, from its own build's manifest. */
function backOfficeScript(): string {
  const manifest = JSON.parse(readFileSync(resolve(WEB, '.vite/back-office-manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  return `/${manifest['lightning.html'].file}`;
}

describe.each(databases())('the back office’s document on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { headers, redirect: 'manual' });

  beforeAll(async () => {
    expect(existsSync(resolve(WEB, '.vite/back-office-manifest.json')), 'run npm run build first').toBe(true);
    server = await startTestServer({ database: kind, demoContacts: 10 });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('sends a guest to the sign-in page, to come back to the address asked for, query included', async () => {
    for (const path of [LIST, '/lightning', '/lightning/r/APT_Contact_Us__c/a1C8d0000000001EAA/view']) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location')).toBe(`/login?startURL=${encodeURIComponent(path)}`);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('sends a cookie whose session is gone to the sign-in page too', async () => {
    const response = await get(LIST, { Cookie: 'sid=not-a-session' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/login?startURL=${encodeURIComponent(LIST)}`);
  });

  it('gives a signed-in user the back office’s document: its own entry, uncached, with the security headers', async () => {
    const response = await get(LIST, { Cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const html = await response.text();
    expect(html).toContain(`<script type="module" src="${backOfficeScript()}"></script>`);
    expect(html).not.toMatch(/assets\/index-[^"]*\.js/);
    expect(html).toContain('<title>Storefront Console</title>');
    expect(html).toContain('<div id="root"></div>');

    // The policy runs the server's own scripts only, and allows exactly the inline stylesheet the document holds.
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
    expect(style).toBeTruthy();
    const hash = createHash('sha256').update(style!, 'utf8').digest('base64');
    expect(policy).toContain(`'sha256-${hash}'`);
  });

  /** The dehydrated queries the document carries: each one's operation and data. */
  async function carried(path: string, cookie: string) {
    const html = await (await get(path, { Cookie: cookie })).text();
    const json = /<script id="query-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(json, path).toBeDefined();
    const state = JSON.parse(json!) as { queries: { queryKey: unknown[]; state: { data: unknown } }[] };
    return state.queries.map((query) => ({ operationId: query.queryKey[0], data: query.state.data }));
  }

  it('carries the answers of the screen’s first queries, asked for as the user', async () => {
    const list = await carried(LIST, admin.cookie);
    expect(list.map((query) => query.operationId).sort()).toEqual([
      'getListInfoByName',
      'getListInfosByObjectName',
      'getListPreferences',
      'getListRecordsByApiName',
      'getMruListInfo',
      'getObjectCreateActions',
      'getSelectedApp',
    ]);
    const page = list.find((query) => query.operationId === 'getListRecordsByApiName')!.data as {
      records: { id: string }[];
    };
    expect(page.records).toHaveLength(10);
    // A record page its record UI, the record in it.
    const recordId = page.records[0].id;
    const record = await carried(`/lightning/r/APT_Contact_Us__c/${recordId}/view`, admin.cookie);
    expect(record.map((query) => query.operationId)).toEqual(['getSelectedApp', 'getRecordUi']);
    expect((record[1].data as { records: Record<string, unknown> }).records[recordId]).toBeDefined();
    // What failed is left out, for the browser to ask for and show: an id of no record; a view of no name.
    const noRecord = await carried('/lightning/r/APT_Contact_Us__c/a1C8d0000000zzzEAA/view', admin.cookie);
    expect(noRecord.map((query) => query.operationId)).toEqual(['getSelectedApp']);
    const unknownView = await carried('/lightning/o/APT_Contact_Us__c/list?filterName=NoSuchView', admin.cookie);
    expect(unknownView.map((query) => query.operationId)).not.toContain('getListRecordsByApiName');
    // Other screens ask for their own: the frame's app alone is carried.
    const form = await carried('/lightning/o/APT_Contact_Us__c/new', admin.cookie);
    expect(form.map((query) => query.operationId)).toEqual(['getSelectedApp']);

    // A Standard User's document holds what the API answers that user.
    const user = await signIn(server, 'standard');
    const actions = (await carried(LIST, user.cookie)).find((query) => query.operationId === 'getObjectCreateActions');
    const asked = await get(
      '/services/data/v65.0/ui-api/actions/object/APT_Contact_Us__c/record-create?formFactor=Large',
      {
        Cookie: user.cookie,
      },
    );
    expect(actions?.data).toEqual(await asked.json());
  });

  it('answers every address under /lightning/ with the back office’s document, for a Standard User too', async () => {
    const user = await signIn(server, 'standard');
    for (const path of ['/lightning', '/lightning/', '/lightning/r/Account/001000000000000AAA/view', '/lightning/x']) {
      const response = await get(path, { Cookie: user.cookie });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain(backOfficeScript());
    }
  });

  it('leaves the storefront’s document without the back office’s script', async () => {
    const html = await (await get('/')).text();
    expect(html).not.toContain(backOfficeScript());
  });
});
