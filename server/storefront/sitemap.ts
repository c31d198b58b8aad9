/**
 * The sitemap (sitemaps.org protocol 0.9): the Contact Us page and every representative's page, as absolute URLs
 * on the request's origin. One file holds 50,000 URLs at most: past that, /sitemap.xml is an index of
 * /sitemap-reps-{n}.xml files, each of the next 50,000. The URLs are read in Id order a page of rows at a time
 * (an index-only scan of record_object_idx from the last Id), and written as they come, so memory stays the same
 * whatever the number of records; a file's first Id is found by skipping the files before it in that index.
 */
import type { Queryable } from '../db/connection.ts';
import { representativePath } from '../../common/pages.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';

/** The protocol's limit of URLs in one file. */
export const SITEMAP_MAX_URLS = 50_000;
/** Rows read per statement. */
const BATCH = 5_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Text for XML element content: the five characters XML reserves. */
function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!,
  );
}

const url = (loc: string) => `<url><loc>${escapeXml(loc)}</loc></url>\n`;

/** How many representatives' pages there are. */
export async function representativeCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM record WHERE object_api_name = $1', [
    CONTACT_US_OBJECT,
  ]);
  return rows[0].n;
}

/** The number of files: the Contact Us page, then every representative's, maxUrls to a file. */
export const sitemapFileCount = (representatives: number, maxUrls: number) =>
  Math.max(1, Math.ceil((representatives + 1) / maxUrls));

/** The index of the files (n from 1), for a sitemap of more URLs than one file holds. */
export function sitemapIndex(origin: string, files: number): string {
  let xml = `${XML_HEAD}<sitemapindex xmlns="${NAMESPACE}">\n`;
  for (let n = 1; n <= files; n++)
    xml += `<sitemap><loc>${escapeXml(`${origin}/sitemap-reps-${n}.xml`)}</loc></sitemap>\n`;
  return `${xml}</sitemapindex>\n`;
}

/**
 * File n (from 1) of the sitemap, in parts as they are read: of the URLs in order (the Contact Us page first,
 * then the representatives' by Id), those from (n - 1) * maxUrls, maxUrls at most.
 */
export async function* sitemapFile(db: Queryable, origin: string, n: number, maxUrls: number): AsyncGenerator<string> {
  yield `${XML_HEAD}<urlset xmlns="${NAMESPACE}">\n`;
  const first = (n - 1) * maxUrls;
  let left = maxUrls;
  if (first === 0) {
    yield url(`${origin}/`);
    left--;
  }
  // The representatives before this file's first: skipped in the index, to find where it starts.
  const skip = Math.max(0, first - 1);
  let after: string | null = null;
  if (skip > 0) {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM record WHERE object_api_name = $1 ORDER BY id OFFSET $2 LIMIT 1',
      [CONTACT_US_OBJECT, skip - 1],
    );
    if (rows.length === 0) left = 0;
    else after = rows[0].id;
  }
  while (left > 0) {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM record WHERE object_api_name = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
      [CONTACT_US_OBJECT, after, Math.min(BATCH, left)],
    );
    if (rows.length === 0) break;
    yield rows.map((row) => url(`${origin}${representativePath(row.id)}`)).join('');
    left -= rows.length;
    after = rows[rows.length - 1].id;
  }
  yield '</urlset>\n';
}
