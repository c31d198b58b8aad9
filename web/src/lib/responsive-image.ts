/**
 * Responsive pictures through the image-resizing path (docs/product-spec.md §7, §9): one source per device
 * at the page's image widths (mobile 640, tablet 960, desktop 1920) and densities (1x, 2x), the format
 * left to the server (format=auto: AVIF, WebP or JPEG by the browser's Accept header).
 *
 * The device sources use density descriptors, not width descriptors with sizes: the page fixes the width
 * per device and density, and with width descriptors Chromium's choice between two candidates (it takes the
 * lower one when the device density is below their geometric mean) would give a 2x screen the 1x file.
 * The <img> keeps a width-descriptor srcset with sizes for a viewport no device query matches.
 */
import { FORM_FACTORS, type FormFactor } from './breakpoints';

export const IMAGE_WIDTHS: Record<FormFactor, number> = { mobile: 640, tablet: 960, desktop: 1920 };
export const IMAGE_DENSITIES = [1, 2] as const;

/** The resizing service's path, put in front of a site path (/sfsites/c/...). */
export const RESIZE_PREFIX = '/cdn-cgi/image';
const SITE_PATH = /^\/sfsites\/c\/(?:cms\/delivery\/media|img)\/[^/?#]+(?:\?[^#]*)?$/;

export interface ResizeOptions {
  width: number;
  height?: number;
  /** cover crops to width × height around the centre; the default keeps the picture's own shape. */
  fit?: 'cover';
}

/** Whether the resizing service can serve a URL: a site media or image path, as content delivery gives them. */
export function isResizable(url: string): boolean {
  return SITE_PATH.test(url);
}

/** The URL of a site image resized, its query (the file's version) kept so that the answer is immutable. */
export function resizedImageUrl(sitePath: string, { width, height, fit }: ResizeOptions): string {
  const options = [`width=${Math.round(width)}`];
  if (height !== undefined) options.push(`height=${Math.round(height)}`);
  if (fit) options.push(`fit=${fit}`);
  options.push('format=auto');
  return `${RESIZE_PREFIX}/${options.join(',')}${sitePath}`;
}

export interface DeviceSource {
  formFactor: FormFactor;
  /** `url 1x, url 2x`. */
  srcset: string;
  width: number;
  height: number;
}

export interface ResponsiveImage {
  /** The desktop 1x file: what a browser without srcset support shows. */
  src: string;
  sources: DeviceSource[];
  /** Every width once, with width descriptors, for the <img>. */
  srcset: string;
  sizes: string;
  width: number;
  height: number;
}

export interface ResponsiveImageOptions {
  /** The picture's own size, for its aspect ratio. */
  width: number;
  height: number;
  /**
   * A box to crop to per device, as width / height (cover, around the centre); a device without one gets the
   * picture's own shape. A full-width banner of fixed height is far wider than tall on a desktop and nearly
   * square on a phone: a phone's file cut to its shape keeps the pixels it shows.
   */
  cropAspect?: Partial<Record<FormFactor, number>>;
  /** The sizes of the <img>'s srcset; default a full-width picture. */
  sizes?: string;
}

/**
 * The sources of a picture whose site path the resizing service serves; null for any other URL (shown as
 * it is, without a srcset).
 */
export function responsiveImage(sitePath: string, options: ResponsiveImageOptions): ResponsiveImage | null {
  if (!isResizable(sitePath) || !(options.width > 0) || !(options.height > 0)) return null;
  const aspect = options.width / options.height;
  const sources = FORM_FACTORS.map((formFactor): DeviceSource => {
    const width = IMAGE_WIDTHS[formFactor];
    const crop = options.cropAspect?.[formFactor];
    const height = Math.round(width / (crop ?? aspect));
    const srcset = IMAGE_DENSITIES.map((density) => {
      const url = resizedImageUrl(
        sitePath,
        crop ? { width: width * density, height: height * density, fit: 'cover' } : { width: width * density },
      );
      return `${url} ${density}x`;
    }).join(', ');
    return { formFactor, srcset, width, height };
  });
  const widths = [
    ...new Set(
      FORM_FACTORS.flatMap((formFactor) => IMAGE_DENSITIES.map((density) => IMAGE_WIDTHS[formFactor] * density)),
    ),
  ].sort((a, b) => a - b);
  return {
    src: resizedImageUrl(sitePath, { width: IMAGE_WIDTHS.desktop }),
    sources,
    srcset: widths.map((width) => `${resizedImageUrl(sitePath, { width })} ${width}w`).join(', '),
    sizes: options.sizes ?? '100vw',
    width: options.width,
    height: options.height,
  };
}
