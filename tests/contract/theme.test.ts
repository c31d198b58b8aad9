/**
 * The active theme over real HTTP, on every test database: built from the theme settings stored in the
 * database (written at first start from metadata/theme.json, and never over a theme already there) and from
 * the org's metadata (each object's theme as its object info gives it), checked against the contract; its
 * pictures served by this server; a guest refused; the same at an older API version.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { seedTheme } from '../../server/platform/themes.ts';
import { NOT_FOUND_BODY, UI_API, type ErrorList } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Theme = components['schemas']['ThemeRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];
type Directory = components['schemas']['ObjectInfoDirectoryRepresentation'];

const THEME_FILE = resolve(import.meta.dirname, '../../server/platform/metadata/theme.json');
const themeFile = JSON.parse(readFileSync(THEME_FILE, 'utf8')) as Record<string, unknown> & {
  developerName: string;
  brandImage: { contentKey: string };
  defaultPageBanner: { contentKey: string };
  defaultUserImage: Record<string, string>;
};
const NAV_ITEMS = (
  JSON.parse(
    readFileSync(resolve(import.meta.dirname, '../../server/platform/metadata/apps/nav-items.json'), 'utf8'),
  ) as { navItems: { itemType: string; objectApiName?: string; iconUrl: string }[] }
).navItems;

describe.each(databases())('the active theme on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  const theme = (session: TestSession | null, version = 'v65.0', headers: Record<string, string> = {}) =>
    callOperation<Theme | ErrorList>(
      'getActiveTheme',
      `${server.baseUrl}${UI_API.replace('v65.0', version)}/themes/active`,
      {
        headers: { ...(session?.headers ?? {}), ...headers },
      },
    );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 10 });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID', async () => {
    const answer = await theme(null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual([{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }]);
  });

  it("gives the stored theme's colours, density and pictures", async () => {
    const answer = await theme(admin);
    expect(answer.status).toBe(200);
    const body = answer.body as Theme;
    const key = themeFile.brandImage.contentKey;
    const media = `/sfsites/c/cms/delivery/media/${key}`;
    expect(body).toMatchObject({
      brandColor: themeFile.brandColor,
      headerColor: themeFile.headerColor,
      linkColor: themeFile.linkColor,
      pageColor: themeFile.pageColor,
      density: themeFile.density,
      brandImage: {
        smallUrl: `/cdn-cgi/image/width=100,height=100,fit=cover,format=auto${media}`,
        mediumUrl: `/cdn-cgi/image/width=200,height=200,fit=cover,format=auto${media}`,
        largeUrl: `/cdn-cgi/image/width=400,height=400,fit=cover,format=auto${media}`,
      },
      defaultPageBanner: { fullSizeUrl: `/sfsites/c/cms/delivery/media/${themeFile.defaultPageBanner.contentKey}` },
      defaultUserImage: themeFile.defaultUserImage,
    });
    expect(answer.headers.get('cache-control')).toBe('private, max-age=900');
    const etag = answer.headers.get('etag')!;
    expect((await theme(admin, 'v65.0', { 'If-None-Match': etag })).status).toBe(304);
    // The pictures this server holds are served at the URLs given.
    for (const url of [
      body.brandImage.smallUrl,
      body.brandImage.largeUrl,
      body.defaultPageBanner.fullSizeUrl,
      body.defaultGroupBanner.fullSizeUrl,
      body.defaultUserBanner.fullSizeUrl,
    ]) {
      const picture = await fetch(`${server.baseUrl}${url}`, { headers: { Accept: 'image/webp' } });
      expect(picture.status, url).toBe(200);
      expect(picture.headers.get('content-type'), url).toMatch(/^image\//);
    }
  });

  it("gives each object's theme as its object info has it, its tab's icon where the object info has none", async () => {
    const body = (await theme(admin)).body as Theme;
    const directory = (
      await callOperation<Directory>('getObjectInfoDirectory', `${server.baseUrl}${UI_API}/object-info`, {
        headers: admin.headers,
      })
    ).body;
    const expected: Record<string, { color: string; iconUrl: string | null }> = {};
    for (const apiName of Object.keys(directory.objects)) {
      const info = (
        await callOperation<ObjectInfo>('getObjectInfo', `${server.baseUrl}${UI_API}/object-info/${apiName}`, {
          headers: admin.headers,
        })
      ).body;
      if (!info.themeInfo) continue;
      const tab = NAV_ITEMS.find((item) => item.itemType === 'Entity' && item.objectApiName === apiName);
      expected[apiName] = { color: info.themeInfo.color, iconUrl: info.themeInfo.iconUrl ?? tab?.iconUrl ?? null };
    }
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(6);
    expect(body.objectThemes).toEqual(expected);
    expect(body.objectThemes?.Account).toEqual({
      color: '7F8DE1',
      iconUrl: '/img/icon/t4v35/standard/account_120.png',
    });
    // An object without a theme (ContentDocumentLink) is left out.
    expect(Object.keys(body.objectThemes ?? {})).not.toContain('ContentDocumentLink');
  });

  it('answers what the database holds: a changed theme, another theme made active, none active (404)', async () => {
    const before = await theme(admin);
    await server.db.query(
      `UPDATE org_theme SET settings = settings || '{"brandColor": "#C23934", "density": "ViewTwo"}'::jsonb WHERE active`,
    );
    const changed = await theme(admin);
    expect(changed.body).toMatchObject({
      brandColor: '#C23934',
      density: 'ViewTwo',
      headerColor: themeFile.headerColor,
    });
    expect(changed.headers.get('etag')).not.toBe(before.headers.get('etag'));
    // The first start's seed never writes over a theme the org has.
    await seedTheme(server.db);
    expect((await theme(admin)).body).toMatchObject({ brandColor: '#C23934' });

    const { developerName, ...settings } = themeFile;
    await server.db.transaction(async (tx) => {
      await tx.query('UPDATE org_theme SET active = false');
      await tx.query(`INSERT INTO org_theme (developer_name, active, settings) VALUES ('Night', true, $1::jsonb)`, [
        JSON.stringify({ ...settings, brandColor: '#16325C', pageColor: '#0B0F19' }),
      ]);
    });
    expect((await theme(admin)).body).toMatchObject({ brandColor: '#16325C', pageColor: '#0B0F19' });

    await server.db.query('UPDATE org_theme SET active = false');
    const none = await theme(admin);
    expect(none.status).toBe(404);
    expect(none.body).toEqual(NOT_FOUND_BODY);
    await server.db.query(`UPDATE org_theme SET active = (developer_name = $1)`, [developerName]);
    expect((await theme(admin)).body).toMatchObject({ brandColor: '#C23934' });
  });

  it('answers at an older API version (v55.0) as at the current one', async () => {
    const current = await theme(admin);
    const older = await theme(admin, 'v55.0');
    expect(older.status).toBe(200);
    expect(older.body).toEqual(current.body);
    expect(older.headers.get('etag')).toBe(current.headers.get('etag')!.replace(/"$/, '-v55.0"'));
  });
});
