/**
 * The page's editable content from content delivery: the banner's texts and picture, the body heading and
 * the support lines. One collection request answers the banner, the heading and the support-lines label;
 * the banner names its picture, an image item whose body holds the media URL of the file's current version.
 * The server runs the same queries before it renders (web/ssr/prefetch.ts).
 *
 * Whatever content is missing, still loading or failed shows a built-in default: the texts below, no
 * support rows, and for the picture the image provider's fallback: the content-key media path when the
 * image item failed but the banner named it, the default URL when the banner itself failed.
 */
import { useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../client/index';
import type { ManagedContentCollection, ManagedContentDocument } from '../../client/queries';
import { getManagedContentForSiteQuery, getManagedContentsForSiteQuery } from '../../client/react';
import { useApiClient } from './api-client';
import type { BannerContent } from './components/Banner';
import type { PictureData } from './components/layout/Picture';
import { responsiveImage } from './lib/responsive-image';
import { BANNER_CONFIG, CONTENT_KEYS, PAGE, SITE_PREFIX } from './page-config';
import { supportRowsFromLabel, type SupportRow } from '../../common/support-lines';

export interface PageContent {
  banner: BannerContent;
  /** The centred extra-large h1 of the page's second section, above the default contact. */
  heading: string;
  /** The right column of the default-contact block; none until the label arrives. */
  supportRows: readonly SupportRow[];
}

export const DEFAULT_CONTENT: PageContent = {
  banner: {
    heading: 'Contact Us',
    intro:
      'Questions about a product, an order or a project? Our team and our authorized representatives are here to help.',
  },
  heading: 'Connect with an authorized sales representative in your area',
  supportRows: [],
};

/**
 * The banner box is 300px high and full width: on a phone (at most 767px wide) it is at most about 2.5 times
 * as wide as high, so the phone's files are cut to 1.6:1 rather than the picture's 3:1, keeping the pixels
 * that show. Tablets and desktops get the picture's own shape.
 */
const BANNER_CROP = { mobile: 1.6 };

export function pageContentsQuery(api: ApiClient) {
  return getManagedContentsForSiteQuery(api, {
    path: { siteId: PAGE.siteId },
    query: {
      contentKeys: [CONTENT_KEYS.banner, CONTENT_KEYS.heading, CONTENT_KEYS.supportLines].join(','),
      includeContentBody: true,
    },
  });
}

export function bannerImageQuery(api: ApiClient, contentKey: string) {
  return getManagedContentForSiteQuery(api, { path: { siteId: PAGE.siteId, contentKeyOrId: contentKey } });
}

type Body = Record<string, unknown>;

function bodyOf(collection: ManagedContentCollection | undefined, contentKey: string): Body | undefined {
  const item = collection?.contents.find((content) => content.contentKey === contentKey);
  return item?.contentBody as Body | undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The content key of the image item the banner shows, once the banner is loaded. */
export function bannerImageKey(collection: ManagedContentCollection | undefined): string | undefined {
  const reference = bodyOf(collection, CONTENT_KEYS.banner)?.backgroundImage as Body | undefined;
  return text(reference?.contentKey);
}

interface MediaInfo {
  url: string;
  width?: number;
  height?: number;
}

function mediaOf(image: ManagedContentDocument | undefined): MediaInfo | undefined {
  const media = (image?.contentBody as Body | undefined)?.['sfdc_cms:media'] as Body | undefined;
  const url = text(media?.url);
  if (!url) return undefined;
  const source = (media?.source ?? {}) as Body;
  const size = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);
  return { url, width: size(source.width), height: size(source.height) };
}

/** A media URL as content delivery gives it (/cms/..., /img/...) behind the site prefix; others as they are. */
function sitePath(url: string): string {
  return /^\/(?:cms|img)\//.test(url) ? `${SITE_PREFIX}${url}` : url;
}

/** The picture for a site path: resized per device when the resizing service serves it, else as it is. */
export function pictureFor(url: string, size: { width?: number; height?: number }, altText: string): PictureData {
  const width = size.width ?? BANNER_CONFIG.defaultImageSize.width;
  const height = size.height ?? BANNER_CONFIG.defaultImageSize.height;
  const responsive = responsiveImage(url, { width, height, cropAspect: BANNER_CROP });
  if (!responsive) return { url, altText, width, height };
  return {
    url: responsive.src,
    altText,
    sources: responsive.sources,
    srcset: responsive.srcset,
    sizes: responsive.sizes,
    width,
    height,
  };
}

export interface ContentState<Data> {
  data?: Data;
  failed: boolean;
}

/**
 * The banner's picture, by what content delivery answered: the image item's versioned media URL; the
 * content-key media path (unversioned) when the image item failed; the default URL when the banner failed
 * or is missing. Nothing while the image item is still loading (no file is fetched twice), and nothing
 * when the banner is there and names no picture.
 */
export function bannerPicture(
  contents: ContentState<ManagedContentCollection>,
  image: ContentState<ManagedContentDocument>,
): PictureData | undefined {
  const bannerBody = bodyOf(contents.data, CONTENT_KEYS.banner);
  if (!bannerBody) {
    if (!contents.failed && !contents.data) return undefined;
    return pictureFor(BANNER_CONFIG.defaultImageUrl, BANNER_CONFIG.defaultImageSize, '');
  }
  const imageKey = bannerImageKey(contents.data);
  if (!imageKey) return undefined;
  const media = mediaOf(image.data);
  if (media) {
    const altText = text((image.data?.contentBody as Body | undefined)?.altText) ?? '';
    return pictureFor(sitePath(media.url), media, altText);
  }
  if (!image.failed) return undefined;
  return pictureFor(`${SITE_PREFIX}/cms/delivery/media/${imageKey}`, BANNER_CONFIG.defaultImageSize, '');
}

/** The page's content from what content delivery answered so far, defaults for the rest. */
export function pageContentFrom(
  contents: ContentState<ManagedContentCollection>,
  image: ContentState<ManagedContentDocument>,
): PageContent {
  const banner = bodyOf(contents.data, CONTENT_KEYS.banner);
  const heading = bodyOf(contents.data, CONTENT_KEYS.heading);
  const supportLines = bodyOf(contents.data, CONTENT_KEYS.supportLines);
  return {
    banner: {
      heading: text(banner?.heading) ?? DEFAULT_CONTENT.banner.heading,
      intro: text(banner?.intro) ?? DEFAULT_CONTENT.banner.intro,
      picture: bannerPicture(contents, image),
    },
    heading: text(heading?.text) ?? DEFAULT_CONTENT.heading,
    supportRows: supportRowsFromLabel(text(supportLines?.text)),
  };
}

/**
 * Whether a query has failed, counting a failure the server's render met: a failed query that will be asked
 * again on mount reads as pending (TanStack's optimistic result), on the server and while the browser
 * hydrates, and its fetch failure count is reset when the browser asks again. Its error count stays, so the
 * fallback shows from the first HTML until data arrives.
 */
function hasFailed(result: { errorUpdateCount: number }): boolean {
  return result.errorUpdateCount > 0;
}

export function usePageContent(): PageContent {
  const api = useApiClient();
  const contents = useQuery(pageContentsQuery(api));
  const imageKey = bannerImageKey(contents.data);
  const image = useQuery({ ...bannerImageQuery(api, imageKey ?? ''), enabled: imageKey !== undefined });
  return pageContentFrom(
    { data: contents.data, failed: hasFailed(contents) },
    { data: image.data, failed: hasFailed(image) },
  );
}
