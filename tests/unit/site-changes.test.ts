/** Which guests' queries a site change makes stale, by the table its notification names (siteStaleQueries). */
import { describe, expect, it } from 'vitest';
import { siteStaleQueries } from '../../web/ssr/query-dependencies.ts';

const hashOf = (operationId: string, parameters: unknown = {}) => JSON.stringify([operationId, parameters]);
const CONTENT = hashOf('getManagedContentsForSite', { path: { siteId: '0DM8d0000000001GAA' } });
const MEDIA = hashOf('getManagedContentForSite', { path: { contentKeyOrId: 'MCAIDH4NVWIOWEHB75VOW2AB6CJI' } });
const SEO = hashOf('getRecordSeoProperties');
const OBJECT_INFO = hashOf('getObjectInfo');
const COUNTRY_STATES = hashOf('getDependentStatePicklistsValues');
const DEFAULT_CONTACTS = hashOf('getDefaultContacts');
const ALL = [CONTENT, MEDIA, SEO, OBJECT_INFO, COUNTRY_STATES, DEFAULT_CONTACTS];

function staleOf(table: string | null): string[] | 'every query' {
  const stale = siteStaleQueries(table);
  return stale ? ALL.filter(stale) : 'every query';
}

describe('siteStaleQueries', () => {
  it('evicts content delivery’s queries for a change of the content, its channels or its media', () => {
    for (const table of ['managed_content', 'managed_content_channel', 'managed_content_media', 'cms_channel'])
      expect(staleOf(table)).toEqual([CONTENT, MEDIA]);
  });

  it('evicts the SEO properties for a change of the SEO settings, and with the content for one of the site', () => {
    expect(staleOf('page_seo_setting')).toEqual([SEO]);
    expect(staleOf('cms_site')).toEqual([CONTENT, MEDIA, SEO]);
  });

  it('evicts every query for a change of the object metadata, a table not known, or a payload missed', () => {
    for (const table of ['sobject', 'sobject_field', 'record_type', 'some_new_table', null])
      expect(staleOf(table)).toBe('every query');
  });

  it('goes by the key’s first element; a hash it cannot read is stale', () => {
    const stale = siteStaleQueries('page_seo_setting')!;
    expect(stale('["pageContent","0DM8d0000000001GAA"]')).toBe(false);
    expect(stale('not json')).toBe(true);
    expect(stale('{"a":1}')).toBe(true);
  });
});
