import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import { contentQueryOf, pageUrl, type ContentQueryInput } from '../../server/content/delivery-query.ts';
import { mediaPath, referencedKeys } from '../../server/content/delivery.ts';
import { fieldText, parseFieldNames } from '../../server/seo/properties.ts';

const KEY = (n: number) => `MC${String(n).padStart(26, 'A')}`;
const SITE = { kind: 'site', id: '0DM8d0000000001GAA' } as const;
const CHANNEL = { kind: 'channel', id: '0ap8d0000000001AAA' } as const;

function refusal(input: ContentQueryInput): PlatformError {
  try {
    contentQueryOf(input);
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('contentQueryOf', () => {
  it('fills in the platform defaults: page 0, 25 a page, no references, summaries, relative URLs, no date filter', () => {
    expect(contentQueryOf({})).toEqual({
      contentKeys: null,
      managedContentIds: null,
      contentTypeFQN: null,
      page: 0,
      pageSize: 25,
      referenceDepth: 0,
      includeContentBody: false,
      expandReferences: false,
      referencesAsList: false,
      showAbsoluteUrl: false,
      language: null,
      publishStartDate: null,
      publishEndDate: null,
    });
  });

  it('splits the csv lists, drops repeats, and converts 15-character ids to 18', () => {
    expect(contentQueryOf({ contentKeys: `${KEY(1)},${KEY(2)},${KEY(1)}` }).contentKeys).toEqual([KEY(1), KEY(2)]);
    expect(contentQueryOf({ managedContentIds: '20Y8d0000000001,20Y8d0000000002EAA' }).managedContentIds).toEqual([
      '20Y8d0000000001EAA',
      '20Y8d0000000002EAA',
    ]);
  });

  it('takes up to 50 content keys and 100 managed content ids, and not one more', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => KEY(i + 1)).join(',');
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `20Y8d${String(i + 1).padStart(10, '0')}`).join(',');
    expect(contentQueryOf({ contentKeys: keys(50) }).contentKeys).toHaveLength(50);
    expect(refusal({ contentKeys: keys(51) }).message).toMatch(/contentKeys.*at most 50/);
    expect(contentQueryOf({ managedContentIds: ids(100) }).managedContentIds).toHaveLength(100);
    expect(refusal({ managedContentIds: ids(101) }).message).toMatch(/managedContentIds.*at most 100/);
  });

  it('refuses keys and ids together, malformed keys and ids', () => {
    expect(refusal({ contentKeys: KEY(1), managedContentIds: '20Y8d0000000001EAA' }).message).toMatch(/not both/);
    expect(refusal({ contentKeys: 'MCshort' }).errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    expect(refusal({ managedContentIds: '20Y8d0000000001XXX' }).errorCode).toBe('INVALID_ID_FIELD');
  });

  it('holds page, pageSize and referenceDepth to their ranges, and pageSize to 25 with bodies', () => {
    expect(contentQueryOf({ pageSize: 250 }).pageSize).toBe(250);
    expect(contentQueryOf({ pageSize: 25, includeContentBody: true }).pageSize).toBe(25);
    expect(refusal({ pageSize: 26, includeContentBody: true }).message).toMatch(
      /at most 25 with includeContentBody=true/,
    );
    for (const input of [
      { pageSize: 0 },
      { pageSize: 251 },
      { page: -1 },
      { page: 1.5 },
      { referenceDepth: 4 },
      { referenceDepth: -1 },
    ]) {
      expect(refusal(input).status).toBe(400);
    }
    expect(contentQueryOf({ referenceDepth: 3 }).referenceDepth).toBe(3);
  });
});

describe('pageUrl', () => {
  it('names the site or channel collection with its parameters in alphabetical order, commas encoded', () => {
    const query = contentQueryOf({
      contentKeys: `${KEY(1)},${KEY(2)}`,
      includeContentBody: true,
      pageSize: 2,
      referenceDepth: 1,
    });
    expect(pageUrl(SITE, query, 1)).toBe(
      `/services/data/v65.0/connect/sites/0DM8d0000000001GAA/cms/delivery/contents?contentKeys=${KEY(1)}%2C${KEY(2)}&includeContentBody=true&page=1&pageSize=2&referenceDepth=1`,
    );
    expect(pageUrl(CHANNEL, contentQueryOf({ contentTypeFQN: 'cu__contactUsText' }), 0)).toBe(
      '/services/data/v65.0/connect/cms/delivery/channels/0ap8d0000000001AAA/contents?contentTypeFQN=cu__contactUsText&page=0&pageSize=25',
    );
  });
});

describe('references and media paths', () => {
  it('finds the fields of a body that refer to other content', () => {
    expect(
      referencedKeys({
        heading: 'x',
        backgroundImage: { contentKey: KEY(1), managedContentId: '20Y8d0000000001EAA' },
        other: { contentKey: KEY(2) },
      }),
    ).toEqual([KEY(1)]);
    expect(referencedKeys({ text: 'a|b' })).toEqual([]);
  });

  it('puts the version in the media path', () => {
    expect(mediaPath(KEY(1), '1.0')).toBe(`/cms/delivery/media/${KEY(1)}?version=1.0`);
  });
});

describe('SEO fields', () => {
  it('reads a comma list of field names, each once, qualified or not', () => {
    expect(parseFieldNames('Name, APT_Contact_Us__c.APT_City__c,Name')).toEqual([
      'Name',
      'APT_Contact_Us__c.APT_City__c',
    ]);
    expect(parseFieldNames(undefined)).toEqual([]);
    expect(parseFieldNames('')).toEqual([]);
    expect(() => parseFieldNames('Name,,City')).toThrow(PlatformError);
    expect(() => parseFieldNames('a.b.c')).toThrow(PlatformError);
  });

  it('gives values as text, dates in ISO 8601, empty values as null', () => {
    expect(fieldText('Milwaukee')).toBe('Milwaukee');
    expect(fieldText(true)).toBe('true');
    expect(fieldText(12.5)).toBe('12.5');
    expect(fieldText(new Date('2026-11-02T09:30:00Z'))).toBe('2026-11-02T09:30:00.000Z');
    expect(fieldText(null)).toBeNull();
    expect(fieldText('')).toBeNull();
    expect(fieldText(undefined)).toBeNull();
  });
});
