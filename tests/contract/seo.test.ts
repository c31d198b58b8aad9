/**
 * SEO properties (getRecordSeoProperties) over real HTTP on every test database, as a guest: the Contact Us
 * page's own settings (asked for by its view name, the route's recordId being empty), the page showing a
 * Contact Us record with the fields asked for, and the errors. Every answer is checked against the contract.
 */
import type { components } from '../../generated/types.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTACT_ID,
  NOT_FOUND_BODY,
  storedContacts,
  type StoredContact,
  type ErrorList,
} from '../support/api.ts';
import { COMMUNITY_ID, seoUrl, SITE_ID } from '../support/content.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';

type SeoProperties = components['schemas']['RecordSeoPropertiesRepresentation'];

describe.each(databases())('SEO properties on %s', (kind) => {
  let server: TestServer;
  let contacts: StoredContact[];
  const seo = (recordId: string, fields?: string, communityId?: string, apiVersion?: string) =>
    callOperation<SeoProperties>(
      'getRecordSeoProperties',
      `${server.baseUrl}${seoUrl(recordId, fields, communityId, apiVersion)}`,
    );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
    contacts = await storedContacts(server.db);
  });
  afterAll(() => server?.close());

  it('answers the Contact Us page settings by the view name, for a route without a recordId', async () => {
    const { status, headers, body } = await seo('contact_us');
    expect(status).toBe(200);
    const { rows } = await server.db.query<{ description: string; canonical_url: string; custom_head_tags: string }>(
      'SELECT description, canonical_url, custom_head_tags FROM page_seo_setting WHERE community_id = $1 AND page_name = $2',
      [COMMUNITY_ID, 'contact_us'],
    );
    expect(body).toEqual({
      fields: {},
      objectName: null,
      recordId: 'contact_us',
      recordName: 'Contact Us',
      title: 'Contact Us',
      description: rows[0].description,
      customHeadTags: rows[0].custom_head_tags,
      canonicalUrl: rows[0].canonical_url,
      hrefLangUrls: [{ hrefLang: 'en-US', url: rows[0].canonical_url }],
      isSeoIndexed: true,
      complexFields: {},
    });
    expect(body.canonicalUrl).toMatch(/^https:\/\/[a-z.-]+\.example\/contact-us$/);
    expect(headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('ignores fields on a page without a record, and answers every supported API version alike', async () => {
    const plain = await seo('contact_us');
    expect((await seo('contact_us', 'Name')).body).toEqual(plain.body);
    for (const version of ['v41.0', 'v52.0', 'v60.0'])
      expect((await seo('contact_us', undefined, undefined, version)).body).toEqual(plain.body);
  });

  it('answers 404 NOT_FOUND at a version past v65.0, before v41.0, or one that is not vNN.0', async () => {
    for (const version of ['v66.0', 'v99.0', 'v40.0', 'latest', 'v65']) {
      const { status, body } = await callOperation<ErrorList>(
        'getRecordSeoProperties',
        `${server.baseUrl}${seoUrl('contact_us', undefined, COMMUNITY_ID, version)}`,
      );
      expect(status, version).toBe(404);
      expect(body[0].errorCode).toBe('NOT_FOUND');
    }
  });

  it('answers the page showing a Contact Us record: its name, its object label and the fields asked for', async () => {
    const contact = contacts.find((stored) => stored.id === DEFAULT_CONTACT_ID)!;
    const fields = 'Name,APT_Company_Name__c,APT_Contact_Us__c.APT_City__c,Id,APT_Default_Contact__c,CreatedDate';
    for (const recordId of [DEFAULT_CONTACT_ID, DEFAULT_CONTACT_ID.slice(0, 15)]) {
      const { status, body } = await seo(recordId, fields);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        objectName: 'Contact Us',
        recordId: DEFAULT_CONTACT_ID,
        recordName: contact.fields.Name,
        title: 'Contact Us',
        isSeoIndexed: true,
      });
      expect(body.fields).toEqual({
        Name: contact.fields.Name,
        APT_Company_Name__c: 'Northgate Electrical Products, Inc.',
        'APT_Contact_Us__c.APT_City__c': contact.fields.APT_City__c,
        Id: DEFAULT_CONTACT_ID,
        APT_Default_Contact__c: 'true',
        CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
      });
    }
    const other = contacts.find((stored) => stored.id !== DEFAULT_CONTACT_ID)!;
    expect((await seo(other.id, 'apt_zip__c')).body.fields).toEqual({ apt_zip__c: other.fields.APT_Zip__c ?? null });
  });

  it('answers 400 INVALID_FIELD for a field the object does not have, or of another object', async () => {
    for (const fields of ['Nope__c', 'Account.Name', 'Name,APT_Color__c']) {
      const { status, body } = await callOperation<ErrorList>(
        'getRecordSeoProperties',
        `${server.baseUrl}${seoUrl(DEFAULT_CONTACT_ID, fields)}`,
      );
      expect(status, fields).toBe(400);
      expect(body[0].errorCode).toBe('INVALID_FIELD');
    }
  });

  it.each([
    ['a page that does not exist', 'about_us'],
    ['a record that does not exist', 'a1C8d0000000999EAA'],
    ['a record of an object no page shows', '0018d0000000001AAA'],
    ['an id with a wrong case-safe suffix', 'a1C8d0000000001XXX'],
  ])('answers 404 for %s', async (_name, recordId) => {
    const { status, body } = await callOperation<ErrorList>(
      'getRecordSeoProperties',
      `${server.baseUrl}${seoUrl(recordId)}`,
    );
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND_BODY);
  });

  it('answers 404 for a community that does not exist', async () => {
    expect((await seo('contact_us', undefined, '0DB8d0000000002GAA')).status).toBe(404);
  });

  it.each([
    ['a site id in place of the community id', seoUrl('contact_us', undefined, SITE_ID)],
    ['a malformed community id', seoUrl('contact_us', undefined, '0DB8d00')],
    ['a record id that is neither an id nor a view name', seoUrl('Contact-Us')],
    ['a malformed field list', seoUrl('contact_us', 'Name,,City')],
    ['a field path of three parts', seoUrl(DEFAULT_CONTACT_ID, 'APT_Contact_Us__c.Owner.Name')],
  ])('answers 400 for %s', async (_name, path) => {
    const { status, body } = await callOperation<ErrorList>('getRecordSeoProperties', `${server.baseUrl}${path}`);
    expect(status).toBe(400);
    expect(body[0].errorCode).toMatch(/^(INVALID_ID_FIELD|ILLEGAL_QUERY_PARAMETER_VALUE)$/);
  });

  it('answers 304 to If-None-Match of the current ETag, and different ETags to different answers', async () => {
    const page = await seo('contact_us');
    const record = await seo(DEFAULT_CONTACT_ID, 'Name');
    expect(page.headers.get('etag')).not.toBe(record.headers.get('etag'));
    const again = await callOperation('getRecordSeoProperties', `${server.baseUrl}${seoUrl('contact_us')}`, {
      headers: { 'If-None-Match': page.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});
