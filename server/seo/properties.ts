/**
 * Search-engine properties of the site's pages (the platform's record SEO properties): the page's stored
 * settings, and for a page showing a record, that record's name, object label and the fields asked for.
 *
 * The page's route parameter recordId is optional and empty by default, but a path segment cannot be empty:
 * a page without a record is asked for by its view name (contact_us). A record id asks for the page that
 * shows records of that record's object, with the record's data.
 */
import type { Queryable } from '../db/connection.ts';
import { invalidId, notFound, PlatformError } from '../platform/core/errors.ts';
import { toId18 } from '../platform/core/ids.ts';

const PAGE_NAME = /^[a-z][a-z0-9_]{0,79}$/;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?$/;
/** Fields every record has, kept in columns of their own rather than in the record's field values. */
const SYSTEM_FIELDS: Record<string, string> = {
  id: 'id',
  createddate: 'created_date',
  createdbyid: 'created_by_id',
  lastmodifieddate: 'last_modified_date',
  lastmodifiedbyid: 'last_modified_by_id',
  systemmodstamp: 'system_modstamp',
};

/** The field names of a `fields` parameter, in order, each once. */
export function parseFieldNames(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return [];
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!FIELD_NAME.test(name))
      throw new PlatformError(
        400,
        'ILLEGAL_QUERY_PARAMETER_VALUE',
        `Illegal value for query parameter 'fields': ${text}`,
      );
  }
  return [...new Set(names)];
}

/** A field value as SEO properties carry it: text, true/false, ISO 8601 for dates, null when empty. */
export function fieldText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

interface PageRow {
  page_name: string;
  page_label: string;
  title: string;
  description: string | null;
  custom_head_tags: string | null;
  canonical_url: string | null;
  href_lang_urls: { hrefLang: string; url: string }[];
  is_seo_indexed: boolean;
}

interface RecordRow extends Record<string, unknown> {
  id: string;
  object_api_name: string;
  object_label: string;
  fields: Record<string, unknown>;
}

const PAGE_COLUMNS =
  'p.page_name, p.page_label, p.title, p.description, p.custom_head_tags, p.canonical_url, p.href_lang_urls, p.is_seo_indexed';

function pageProperties(page: PageRow) {
  return {
    title: page.title,
    description: page.description,
    customHeadTags: page.custom_head_tags,
    canonicalUrl: page.canonical_url,
    hrefLangUrls: page.href_lang_urls,
    isSeoIndexed: page.is_seo_indexed,
    complexFields: {},
  };
}

/** The values of the fields asked for, by the names they were asked by; an unknown field is a 400. */
async function recordFields(db: Queryable, record: RecordRow, names: string[]): Promise<Record<string, string | null>> {
  if (names.length === 0) return {};
  const { rows } = await db.query<{ api_name: string }>(
    'SELECT api_name FROM sobject_field WHERE object_api_name = $1',
    [record.object_api_name],
  );
  const known = new Map(rows.map((row) => [row.api_name.toLowerCase(), row.api_name]));
  const values: Record<string, string | null> = {};
  for (const name of names) {
    const [qualifier, field] = name.includes('.') ? name.split('.') : [null, name];
    const apiName = known.get(field.toLowerCase());
    if ((qualifier !== null && qualifier.toLowerCase() !== record.object_api_name.toLowerCase()) || !apiName) {
      throw new PlatformError(
        400,
        'INVALID_FIELD',
        `No such column '${field}' on entity '${record.object_api_name}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name.`,
      );
    }
    const column = SYSTEM_FIELDS[apiName.toLowerCase()];
    values[name] = fieldText(column ? record[column] : record.fields[apiName]);
  }
  return values;
}

/** A record of an object that a page of the community shows, with that page's settings; null if none. */
async function recordOnPage(db: Queryable, communityId: string, id: string) {
  const { rows } = await db.query<RecordRow & PageRow>(
    `SELECT r.id, r.object_api_name, r.fields, r.created_date, r.created_by_id, r.last_modified_date, r.last_modified_by_id,
            r.system_modstamp, s.definition ->> 'label' AS object_label, ${PAGE_COLUMNS}
     FROM record r
     JOIN sobject s ON s.api_name = r.object_api_name
     JOIN page_seo_setting p ON p.community_id = $1 AND p.object_api_name = r.object_api_name
     WHERE r.id = $2
     ORDER BY p.page_name LIMIT 1`,
    [communityId, id],
  );
  return rows[0] ?? null;
}

/**
 * The SEO properties of a page of a community, by the page's view name or by the id of the record it shows.
 * Records of objects that no page shows answer 404, like records that do not exist.
 */
export async function getRecordSeoProperties(db: Queryable, communityId: string, recordId: string, fields?: string) {
  const community = toId18(communityId);
  if (!community?.startsWith('0DB')) throw invalidId('communityId', communityId);
  const names = parseFieldNames(fields);
  const id = toId18(recordId);
  if (id) {
    const site = await db.query('SELECT 1 FROM cms_site WHERE community_id = $1', [community], {
      prepareAs: 'seo_site',
    });
    if (site.rows.length === 0) throw notFound();
    const record = await recordOnPage(db, community, id);
    if (record) {
      return {
        fields: await recordFields(db, record, names),
        objectName: record.object_label,
        recordId: record.id,
        recordName: fieldText(record.fields.Name) ?? record.id,
        ...pageProperties(record),
      };
    }
  }
  if (!PAGE_NAME.test(recordId)) throw notFound();
  // The page's settings and whether the community has a site, in one round trip: a community without one is a 404.
  const { rows } = await db.query<PageRow & { site: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM cms_site WHERE community_id = $1) AS site, ${PAGE_COLUMNS}
     FROM (SELECT 1) one LEFT JOIN page_seo_setting p ON p.community_id = $1 AND p.page_name = $2`,
    [community, recordId],
    { prepareAs: 'seo_page' },
  );
  if (!rows[0].site || rows[0].page_name === null) throw notFound();
  const page = rows[0];
  return {
    fields: {},
    objectName: null,
    recordId: page.page_name,
    recordName: page.page_label,
    ...pageProperties(page),
  };
}
