/**
 * GET /themes/active: the org's active theme, as stored in the database (org_theme: its colours, density,
 * pictures and banners, written at first start from metadata/theme.json), with the theme of each object the
 * caller may read, from the org's metadata: its object info's themeInfo, its icon else that of its tab (the
 * object's navigation item). Favorites take their icons from the same place (objectTheme).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Schemas } from '../../generated/types.ts';
import type { Queryable } from '../db/connection.ts';
import { SITE_PREFIX } from '../content/delivery-query.ts';
import { appMetadata } from './apps/definitions.ts';
import { describeOrg, type OrgDescribe } from './core/describe.ts';
import { notFound } from './core/errors.ts';
import { objectPermissions, type Principal } from './core/principal.ts';

type ThemeRepresentation = Schemas['ThemeRepresentation'];
type ThemeInfo = Schemas['ThemeInfoRepresentation'];

const THEME_FILE = resolve(import.meta.dirname, 'metadata/theme.json');

/** A picture of the theme: a managed content image (served at three sizes, cut square), or three URLs. */
type ImageSetting = { contentKey: string } | Schemas['ThemeImageRepresentation'];
/** A banner of the theme: a managed content image (served as uploaded), or its URL. */
type BannerSetting = { contentKey: string } | Schemas['ThemeBannerRepresentation'];

/** A theme's settings as org_theme stores them. */
interface ThemeSettings {
  brandColor: string;
  headerColor: string;
  linkColor: string;
  pageColor: string;
  density: ThemeRepresentation['density'];
  brandImage: ImageSetting;
  defaultGroupImage: ImageSetting;
  defaultUserImage: ImageSetting;
  defaultPageBanner: BannerSetting;
  defaultGroupBanner: BannerSetting;
  defaultUserBanner: BannerSetting;
}

/** The sizes (square, in pixels) of a theme picture served from managed content. */
const IMAGE_SIZES = { smallUrl: 100, mediumUrl: 200, largeUrl: 400 } as const;

const mediaUrl = (contentKey: string) => `${SITE_PREFIX}/cms/delivery/media/${contentKey}`;
const resizedUrl = (contentKey: string, size: number) =>
  `/cdn-cgi/image/width=${size},height=${size},fit=cover,format=auto${mediaUrl(contentKey)}`;

function image(setting: ImageSetting): Schemas['ThemeImageRepresentation'] {
  if (!('contentKey' in setting))
    return { largeUrl: setting.largeUrl, mediumUrl: setting.mediumUrl, smallUrl: setting.smallUrl };
  return {
    largeUrl: resizedUrl(setting.contentKey, IMAGE_SIZES.largeUrl),
    mediumUrl: resizedUrl(setting.contentKey, IMAGE_SIZES.mediumUrl),
    smallUrl: resizedUrl(setting.contentKey, IMAGE_SIZES.smallUrl),
  };
}

const banner = (setting: BannerSetting): Schemas['ThemeBannerRepresentation'] => ({
  fullSizeUrl: 'contentKey' in setting ? mediaUrl(setting.contentKey) : setting.fullSizeUrl,
});

/**
 * The theme of an object: its themeInfo's colour (else its tab's) and icon (else its tab's); null for an
 * object that has neither, or that the org does not have.
 */
export function objectTheme(org: OrgDescribe, objectApiName: string): ThemeInfo | null {
  const object = org.objects.get(objectApiName);
  if (!object) return null;
  const tab = appMetadata().navItems.find((item) => item.itemType === 'Entity' && item.objectApiName === objectApiName);
  const color = object.definition.themeInfo?.color || tab?.color;
  if (!color) return null;
  return { color, iconUrl: object.definition.themeInfo?.iconUrl ?? tab?.iconUrl ?? null };
}

/** Writes the theme of metadata/theme.json, active, when the org has no theme yet (at first start). */
export async function seedTheme(db: Queryable): Promise<void> {
  const { developerName, ...settings } = JSON.parse(readFileSync(THEME_FILE, 'utf8')) as ThemeSettings & {
    developerName: string;
  };
  await db.query(
    `INSERT INTO org_theme (developer_name, active, settings)
     SELECT $1, true, $2::jsonb WHERE NOT EXISTS (SELECT 1 FROM org_theme) ON CONFLICT DO NOTHING`,
    [developerName, JSON.stringify(settings)],
  );
}

/** GET /themes/active. */
export async function getActiveTheme(db: Queryable, principal: Principal): Promise<ThemeRepresentation> {
  const { rows } = await db.query<{ settings: ThemeSettings }>('SELECT settings FROM org_theme WHERE active');
  const settings = rows[0]?.settings;
  if (!settings) throw notFound();
  const org = await describeOrg(db);
  const objectThemes: Record<string, ThemeInfo> = {};
  for (const apiName of [...org.objects.keys()].sort()) {
    const theme = objectPermissions(principal, apiName).read ? objectTheme(org, apiName) : null;
    if (theme) objectThemes[apiName] = theme;
  }
  return {
    brandColor: settings.brandColor,
    brandImage: image(settings.brandImage),
    defaultGroupBanner: banner(settings.defaultGroupBanner),
    defaultGroupImage: image(settings.defaultGroupImage),
    defaultPageBanner: banner(settings.defaultPageBanner),
    defaultUserBanner: banner(settings.defaultUserBanner),
    defaultUserImage: image(settings.defaultUserImage),
    density: settings.density,
    headerColor: settings.headerColor,
    linkColor: settings.linkColor,
    objectThemes,
    pageColor: settings.pageColor,
  };
}
