/**
 * A responsive image (docs/product-spec.md §3, Image data): one <source> per device, then the fallback <img>
 * with its own srcset and sizes. The srcsets come checked entry by entry, a bad entry skipped (lib/srcset.ts, by
 * the content that makes the picture: page-content.ts); an unsafe URL of the <img> renders nothing.
 */
import { MEDIA_QUERIES, type FormFactor } from '../../lib/breakpoints';
import { safeImageUrl } from '../../lib/links';

export interface PictureSource {
  formFactor: FormFactor;
  /** Valid entries only (sanitizeSrcset); a source without any is not shown. */
  srcset: string;
  /** Defaults to the device's breakpoint. */
  media?: string;
  /** The size of this source's 1x file, when its shape differs from the <img>'s. */
  width?: number;
  height?: number;
}

export interface PictureData {
  url: string;
  altText?: string;
  sources?: readonly PictureSource[];
  /** The <img>'s own srcset (valid entries only) and sizes, for a viewport no source matches. */
  srcset?: string;
  sizes?: string;
  width?: number;
  height?: number;
}

interface PictureProps {
  picture: PictureData;
  className?: string;
  /** Eager by default: the page's images load eagerly unless told otherwise (docs/product-spec.md §9). */
  loading?: 'eager' | 'lazy';
  fetchPriority?: 'high' | 'low' | 'auto';
}

export function Picture({ picture, className, loading = 'eager', fetchPriority }: PictureProps) {
  const src = safeImageUrl(picture.url);
  if (!src) return null;
  const sources = (picture.sources ?? [])
    .map((source) => ({
      media: source.media ?? MEDIA_QUERIES[source.formFactor],
      srcSet: source.srcset,
      width: source.width,
      height: source.height,
    }))
    .filter((source) => source.srcSet);
  const srcSet = picture.srcset ?? '';
  return (
    <picture className={className}>
      {sources.map((source) => (
        <source
          key={source.media}
          media={source.media}
          srcSet={source.srcSet}
          width={source.width}
          height={source.height}
        />
      ))}
      <img
        src={src}
        srcSet={srcSet || undefined}
        sizes={srcSet ? picture.sizes : undefined}
        alt={picture.altText ?? ''}
        width={picture.width}
        height={picture.height}
        loading={loading}
        decoding={fetchPriority === 'high' ? undefined : 'async'}
        fetchPriority={fetchPriority}
      />
    </picture>
  );
}
