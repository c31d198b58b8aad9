/**
 * What the content, media and SEO tests know of the seeded site without asking the server: its ids, the
 * content keys of the Contact Us page's items, and builders of their URLs.
 */
import { expect } from 'vitest';
import { recordApiCall } from './api-calls.ts';
import { contractResponse, expectContractHeaders } from './contract.ts';

export const SITE_ID = '0DM8d0000000001GAA';
export const CHANNEL_ID = '0ap8d0000000001AAA';
export const COMMUNITY_ID = '0DB8d0000000001GAA';
export const CONNECT = '/services/data/v65.0/connect';

export const BANNER_IMAGE = { key: 'MCAIDH4NVWIOWEHB75VOW2AB6CJI', id: '20Y8d0000000001EAA', type: 'sfdc_cms__image' };
export const BANNER = { key: 'MCAUSNJ4FHK6FEVMPNHLKDC45C44', id: '20Y8d0000000002EAA', type: 'cu__contactUsBanner' };
export const HEADING = { key: 'MCAAGJ55ZH3THLGGQBKCDM76NE74', id: '20Y8d0000000003EAA', type: 'cu__contactUsText' };
export const LOCATOR_INTRO = {
  key: 'MCALIK4TW2LM3OSWM7KM5JA5F2OX',
  id: '20Y8d0000000004EAA',
  type: 'cu__contactUsText',
};
export const SUPPORT_LINES = {
  key: 'MCAP7V23UEN33BNWTI3P7LNTFZAZ',
  id: '20Y8d0000000005EAA',
  type: 'cu__contactUsText',
};
/** Every seeded item, in the order they were created (managed content id). */
export const ITEMS = [BANNER_IMAGE, BANNER, HEADING, LOCATOR_INTRO, SUPPORT_LINES];
/** A well-formed content key of no content. */
export const MISSING_KEY = 'MCZZZZZZZZZZZZZZZZZZZZZZZZZZ';

export const BANNER_FILE = 'contact-us-banner.jpg';
export const BANNER_VERSION = '1.0';
export const BANNER_SIZE = { width: 2400, height: 800 };

export const siteContents = (siteId = SITE_ID) => `${CONNECT}/sites/${siteId}/cms/delivery/contents`;
export const channelContents = (channelId = CHANNEL_ID) => `${CONNECT}/cms/delivery/channels/${channelId}/contents`;
export const mediaUrl = (key = BANNER_IMAGE.key, version?: string) =>
  `/sfsites/c/cms/delivery/media/${key}${version ? `?version=${version}` : ''}`;
export const siteImageUrl = (fileName = BANNER_FILE, version?: string) =>
  `/sfsites/c/img/${fileName}${version ? `?version=${version}` : ''}`;
/** The resizing URL of an image; version null for an unversioned URL. */
export const resizedUrl = (options: string, key = BANNER_IMAGE.key, version: string | null = BANNER_VERSION) =>
  `/cdn-cgi/image/${options}/sfsites/c/cms/delivery/media/${key}${version ? `?version=${version}` : ''}`;
export const seoUrl = (recordId: string, fields?: string, communityId = COMMUNITY_ID, apiVersion = 'v65.0') =>
  `/services/data/${apiVersion}/connect/communities/${communityId}/seo/properties/${recordId}${fields === undefined ? '' : `?fields=${encodeURIComponent(fields)}`}`;

export interface ImageResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/**
 * Fetches a media answer and checks it against the contract: the status is declared, its Content-Type is one
 * of the declared media types (no body for 304), and the declared headers are there.
 */
export async function fetchImage(operationId: string, url: string, init?: RequestInit): Promise<ImageResponse> {
  const response = await fetch(url, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  recordApiCall({ operationId, method: init?.method ?? 'GET', status: response.status, target: 'server' });
  const { response: declared } = contractResponse(operationId, response.status);
  const mediaTypes = Object.keys((declared.content ?? {}) as Record<string, unknown>);
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  if (mediaTypes.length === 0) expect(bytes.length, `${operationId} ${response.status} has no body`).toBe(0);
  else expect(mediaTypes, `${operationId} ${response.status} content type ${contentType}`).toContain(contentType);
  expectContractHeaders(operationId, response.status, response.headers);
  return { status: response.status, headers: response.headers, bytes };
}
