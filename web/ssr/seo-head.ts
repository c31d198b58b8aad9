/**
 * The search-engine assistant, one of the page's hidden regions (docs/product-spec.md §2; the SEO
 * properties are in §3): the head of the first HTML from the page's SEO properties, asked for on every
 * request. Title and description; the canonical URL; one alternate link per language version; robots
 * noindex when the page is not to be indexed; the custom head tags, sanitised. Without properties (the
 * call failed) the default head.
 */
import type { ApiClient } from '../../client/index.ts';
import type { RecordSeoProperties } from '../../client/queries.ts';
import { getRecordSeoPropertiesQuery } from '../../client/react.ts';
import { API_VERSION } from '../../common/platform.ts';
import { PAGE } from '../src/page-config.ts';
import { NOT_CARRIED } from '../src/query-client.ts';
import { DEFAULT_HEAD, type HeadTags } from './document.ts';
import { isLanguageTag, safeHeadUrl, sanitizeHeadTags } from './head-tags.ts';
import { escapeHtml } from './serialize.ts';

/**
 * The page's SEO properties: by its route parameter recordId when it has one, else (a page without a record)
 * by its view name.
 */
export function pageSeoQuery(api: ApiClient) {
  return {
    ...getRecordSeoPropertiesQuery(api, {
      path: { apiVersion: API_VERSION, communityId: PAGE.communityId, recordId: PAGE.recordId || PAGE.view },
    }),
    // In the head already, and read by no part of the page.
    meta: NOT_CARRIED,
  };
}

/** An absolute http(s) URL (search engines ignore relative canonical and alternate links); null for anything else. */
function absoluteUrl(url: string | null | undefined): string | null {
  const safe = safeHeadUrl(url ?? undefined);
  return safe && !safe.startsWith('/') ? safe : null;
}

export function headFromSeo(properties: RecordSeoProperties | undefined): HeadTags {
  if (!properties) return DEFAULT_HEAD;
  const tags: string[] = [];
  if (!properties.isSeoIndexed) tags.push('<meta name="robots" content="noindex">');
  const canonical = absoluteUrl(properties.canonicalUrl);
  if (canonical) tags.push(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
  const seen = new Set<string>();
  for (const { hrefLang, url } of properties.hrefLangUrls ?? []) {
    const href = absoluteUrl(url);
    if (!href || !isLanguageTag(hrefLang) || seen.has(hrefLang.toLowerCase())) continue;
    seen.add(hrefLang.toLowerCase());
    tags.push(`<link rel="alternate" hreflang="${escapeHtml(hrefLang)}" href="${escapeHtml(href)}">`);
  }
  tags.push(sanitizeHeadTags(properties.customHeadTags));
  return {
    title: properties.title.trim() || DEFAULT_HEAD.title,
    description: properties.description?.trim() || DEFAULT_HEAD.description,
    extra: tags.join(''),
  };
}
