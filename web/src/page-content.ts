/**
 * The page's content made from what content delivery answers (the pageContent query of content.ts runs
 * loadPageContent): one collection request answers the banner, the heading and the support-lines label, and,
 * among its references, the picture the banner names: an image item whose body holds the media URL of the
 * file's current version. The texts are made plain here (every tag and attribute stripped, docs/product-spec.md
 * §5) and the picture's srcsets checked entry by entry, so that the page renders them as they are. On the server
 * this runs before every render; in the browser it is loaded only when the query runs there.
 *
 * Whatever content is missing or failed shows a built-in default: the texts of DEFAULT_CONTENT, no support rows,
 * and for the picture the image provider's fallback: the content-key media path when the banner names an image
 * item the answer's references do not hold (or one without a file), the default URL when the banner itself failed.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../client/index';
import type { ManagedContentCollection } from '../../client/queries';
import type { PictureData } from './components/layout/Picture';
import { DEFAULT_CONTENT, pageContentsQuery, type LoadedPageContent, type PageContent } from './content';
import { responsiveImage } from './lib/responsive-image';
import { toPlainText } from './lib/sanitize';
import { sanitizeSrcset } from './lib/srcset';
import { BANNER_CONFIG, CONTENT_KEYS, SITE_PREFIX } from './page-config';
import { supportRowsFromLabel } from '../../common/support-lines';

/**
 * The banner box is 300px high and full width: on a phone (at most 767px wide) it is at most about 2.5 times
 * as wide as high, so the phone's files are cut to 1.6:1 rather than the picture's 3:1, keeping the pixels
 * that show. Tablets and desktops get the picture's own shape.
 */
const BANNER_CROP = { mobile: 1.6 };

type Body = Record<string, unknown>;

function bodyOf(collection: ManagedContentCollection | undefined, contentKey: string): Body | undefined {
  const item = collection?.contents.find((content) => content.contentKey === contentKey);
  return item?.contentBody as Body | undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** A text of content as the page shows it: its plain text (which may be empty: a text of tags alone shows nothing). */
const plainText = (value: unknown): string | undefined => {
  const given = text(value);
  return given === undefined ? undefined : toPlainText(given);
};

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

function mediaOf(image: Body | undefined): MediaInfo | undefined {
  const media = image?.['sfdc_cms:media'] as Body | undefined;
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

/**
 * The picture for a site path: resized per device when the resizing service serves it, else as it is; each
 * srcset with its valid entries only, and a device source with none left out.
 */
export function pictureFor(url: string, size: { width?: number; height?: number }, altText: string): PictureData {
  const width = size.width ?? BANNER_CONFIG.defaultImageSize.width;
  const height = size.height ?? BANNER_CONFIG.defaultImageSize.height;
  const responsive = responsiveImage(url, { width, height, cropAspect: BANNER_CROP });
  if (!responsive) return { url, altText, width, height };
  return {
    url: responsive.src,
    altText,
    sources: responsive.sources
      .map((source) => ({ ...source, srcset: sanitizeSrcset(source.srcset) }))
      .filter((source) => source.srcset),
    srcset: sanitizeSrcset(responsive.srcset),
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
 * The banner's picture, by what content delivery answered: the image item's versioned media URL, from the
 * answer's references; the content-key media path (unversioned) when the references do not hold the item or
 * its file; the default URL when the banner failed or is missing. Nothing while the collection is still
 * loading (no file is fetched twice), and nothing when the banner is there and names no picture.
 */
export function bannerPicture(contents: ContentState<ManagedContentCollection>): PictureData | undefined {
  const bannerBody = bodyOf(contents.data, CONTENT_KEYS.banner);
  if (!bannerBody) {
    if (!contents.failed && !contents.data) return undefined;
    return pictureFor(BANNER_CONFIG.defaultImageUrl, BANNER_CONFIG.defaultImageSize, '');
  }
  const imageKey = bannerImageKey(contents.data);
  if (!imageKey) return undefined;
  const image = contents.data?.references?.[imageKey]?.contentBody as Body | undefined;
  const media = mediaOf(image);
  if (media) return pictureFor(sitePath(media.url), media, text(image?.altText) ?? '');
  return pictureFor(`${SITE_PREFIX}/cms/delivery/media/${imageKey}`, BANNER_CONFIG.defaultImageSize, '');
}

/** The page's content from what content delivery answered so far, defaults for the rest; its texts plain. */
export function pageContentFrom(contents: ContentState<ManagedContentCollection>): PageContent {
  const banner = bodyOf(contents.data, CONTENT_KEYS.banner);
  const heading = bodyOf(contents.data, CONTENT_KEYS.heading);
  const supportLines = bodyOf(contents.data, CONTENT_KEYS.supportLines);
  return {
    banner: {
      heading: plainText(banner?.heading) ?? DEFAULT_CONTENT.banner.heading,
      intro: plainText(banner?.intro) ?? DEFAULT_CONTENT.banner.intro,
      picture: bannerPicture(contents),
    },
    heading: plainText(heading?.text) ?? DEFAULT_CONTENT.heading,
    supportRows: supportRowsFromLabel(text(supportLines?.text)),
  };
}

/** What a query answered: its data, or that it failed. */
async function settled<Data>(answer: Promise<Data>): Promise<ContentState<Data>> {
  try {
    return { data: await answer, failed: false };
  } catch {
    return { failed: true };
  }
}

/**
 * The pageContent query's result: the collection with the items it refers to, from the query client (what it
 * holds while fresh, else asked for), made into the page's content.
 */
export async function loadPageContent(queryClient: QueryClient, api: ApiClient): Promise<LoadedPageContent> {
  const contents = await settled(queryClient.fetchQuery(pageContentsQuery(api)));
  return { content: pageContentFrom(contents), complete: !contents.failed };
}
