/**
 * The storefront's managed content, written at first start: the site and its channel, the Contact Us page's
 * banner (its picture, made by banner.ts, with a heading and an intro sentence), its body texts, the
 * support-lines label, and the page's search-engine settings.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Database, Queryable } from '../db/connection.ts';
import { makeId } from '../platform/core/ids.ts';
import { bannerJpeg } from './banner.ts';
import { CONTACT_US_OBJECT } from '../storefront/demo-contacts.ts';
import { supportLabelOf } from '../../common/support-lines.ts';

/** sharp (native, a quarter of a second to load) is loaded when a picture is first drawn or resized, not at start. */
const sharp = (...args: Parameters<typeof import('sharp').default>): ReturnType<typeof import('sharp').default> =>
  (createRequire(import.meta.url)('sharp') as typeof import('sharp').default)(...args);

const SITE_ID = makeId('0DM', 1);
const CHANNEL_ID = makeId('0ap', 1);
const COMMUNITY_ID = makeId('0DB', 1);
const CONTACT_US_PAGE = 'contact_us';

const BANNER_IMAGE_KEY = 'MCAIDH4NVWIOWEHB75VOW2AB6CJI';
const BANNER_KEY = 'MCAUSNJ4FHK6FEVMPNHLKDC45C44';
const HEADING_KEY = 'MCAAGJ55ZH3THLGGQBKCDM76NE74';
const LOCATOR_INTRO_KEY = 'MCALIK4TW2LM3OSWM7KM5JA5F2OX';
const SUPPORT_LINES_KEY = 'MCAP7V23UEN33BNWTI3P7LNTFZAZ';
const BANNER_FILE_NAME = 'contact-us-banner.jpg';

const PUBLISHED = '2026-11-02T09:30:00.000Z';
const SITE_ORIGIN = 'https://store.northgate-electrical.example';

export const SUPPORT_LINES = supportLabelOf([
  { label: 'US Customer Service', value: '1-800-555-0142' },
  { label: 'International Customer Service', value: '+1-414-555-0177' },
  { label: 'Tech Support', value: '1-800-555-0163' },
  { label: 'Webstore Support', value: 'webstore@northgate-electrical.example' },
]);

interface SeedItem {
  id: string;
  key: string;
  type: string;
  typeName: string;
  title: string;
  urlName: string;
  body: Record<string, unknown>;
}

const TEXT = { type: 'cu__contactUsText', typeName: 'Contact Us Text' };

function items(banner: { size: number; width: number; height: number }): SeedItem[] {
  return [
    {
      id: makeId('20Y', 1),
      key: BANNER_IMAGE_KEY,
      type: 'sfdc_cms__image',
      typeName: 'Image',
      title: 'Contact Us banner image',
      urlName: 'contact-us-banner-image',
      body: {
        altText: 'Power lines and factory roofs against an evening sky',
        title: 'Contact Us banner image',
        'sfdc_cms:media': { source: { type: 'file', mimeType: 'image/jpeg', fileName: BANNER_FILE_NAME, ...banner } },
      },
    },
    {
      id: makeId('20Y', 2),
      key: BANNER_KEY,
      type: 'cu__contactUsBanner',
      typeName: 'Contact Us Banner',
      title: 'Contact Us banner',
      urlName: 'contact-us-banner',
      body: {
        heading: 'Contact Us',
        intro: 'Questions about a product, an order or an installation? We are here to help.',
        backgroundImage: { contentKey: BANNER_IMAGE_KEY, managedContentId: makeId('20Y', 1) },
      },
    },
    {
      id: makeId('20Y', 3),
      key: HEADING_KEY,
      ...TEXT,
      title: 'Contact Us heading',
      urlName: 'contact-us-heading',
      body: { text: 'Connect with an authorized sales representative in your area' },
    },
    {
      id: makeId('20Y', 4),
      key: LOCATOR_INTRO_KEY,
      ...TEXT,
      title: 'Contact Us locator intro',
      urlName: 'contact-us-locator-intro',
      body: {
        text: 'Choose a brand, a country and a state or province to find the sales representatives and distributors near you.',
      },
    },
    {
      id: makeId('20Y', 5),
      key: SUPPORT_LINES_KEY,
      ...TEXT,
      title: 'Contact Us support lines',
      urlName: 'contact-us-support-lines',
      body: { text: SUPPORT_LINES },
    },
  ];
}

async function insertContent(tx: Queryable, banner: Buffer): Promise<void> {
  const { width = 0, height = 0 } = await sharp(banner).metadata();
  for (const item of items({ size: banner.length, width, height })) {
    await tx.query(
      `INSERT INTO managed_content (id, content_key, content_type, content_type_name, title, url_name, language, content_body, published_date)
       VALUES ($1, $2, $3, $4, $5, $6, 'en_US', $7::jsonb, $8)`,
      [item.id, item.key, item.type, item.typeName, item.title, item.urlName, JSON.stringify(item.body), PUBLISHED],
    );
    await tx.query('INSERT INTO managed_content_channel (channel_id, managed_content_id) VALUES ($1, $2)', [
      CHANNEL_ID,
      item.id,
    ]);
  }
  await tx.query(
    `INSERT INTO managed_content_media (content_key, file_name, mime_type, width, height, byte_size, checksum, version, data)
     VALUES ($1, $2, 'image/jpeg', $3, $4, $5, $6, '1.0', $7)`,
    [
      BANNER_IMAGE_KEY,
      BANNER_FILE_NAME,
      width,
      height,
      banner.length,
      createHash('sha256').update(banner).digest('hex'),
      banner,
    ],
  );
}

async function insertSeoSettings(tx: Queryable): Promise<void> {
  const url = `${SITE_ORIGIN}/contact-us`;
  await tx.query(
    `INSERT INTO page_seo_setting (community_id, page_name, page_label, object_api_name, title, description, custom_head_tags, canonical_url, href_lang_urls, is_seo_indexed)
     VALUES ($1, $2, 'Contact Us', $3, 'Contact Us', $4, $5, $6, $7::jsonb, true)`,
    [
      COMMUNITY_ID,
      CONTACT_US_PAGE,
      CONTACT_US_OBJECT,
      'Find contact details for Northgate Electrical Products and connect with an authorized sales representative in your area.',
      '<meta property="og:title" content="Contact Us"><meta property="og:type" content="website">',
      url,
      JSON.stringify([{ hrefLang: 'en-US', url }]),
    ],
  );
}

/**
 * Writes the site's content and page settings unless the site is there already. Several servers starting
 * on one PostgreSQL database write it once: the first to insert the site does, the others find it there.
 */
export async function seedContent(db: Database): Promise<boolean> {
  const present = await db.query('SELECT 1 FROM cms_site WHERE id = $1', [SITE_ID]);
  if (present.rows.length > 0) return false;
  const banner = await bannerJpeg();
  return db.transaction(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO cms_site (id, community_id, name) VALUES ($1, $2, 'Northgate Web Store') ON CONFLICT DO NOTHING RETURNING id`,
      [SITE_ID, COMMUNITY_ID],
    );
    if (inserted.rows.length === 0) return false;
    await tx.query(
      `INSERT INTO cms_channel (id, site_id, name, channel_type) VALUES ($1, $2, 'Northgate Web Store', 'Community')`,
      [CHANNEL_ID, SITE_ID],
    );
    await insertContent(tx, banner);
    await insertSeoSettings(tx);
    return true;
  });
}
