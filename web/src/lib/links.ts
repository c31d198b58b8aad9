/**
 * Link validation (docs/product-spec.md §5): a link is valid only when it is site-relative (a single slash), a
 * fragment (#), or an absolute http(s) URL on the site's own host; mailto: and tel: are allowed too and
 * open outside the app. Anything else (javascript:, data:, vbscript:, other hosts, protocol-relative
 * //host, /\host) is replaced by a harmless fallback.
 */
export const FALLBACK_HREF = '#';

export type LinkKind = 'internal' | 'fragment' | 'mailto' | 'tel' | 'invalid';

export interface ResolvedLink {
  /** What to put in href: the link itself (normalised) or FALLBACK_HREF. */
  href: string;
  kind: LinkKind;
  /** mailto: and tel: leave the app (the mail client, the dialler): no client-side navigation. */
  opensOutsideApp: boolean;
}

// Browsers drop tabs and newlines anywhere in a URL and C0 controls and spaces at its ends
// ("java\nscript:" is javascript:), so the check runs on what the browser would actually follow.
const STRIPPED_ANYWHERE = /[\t\n\r]/g;
// eslint-disable-next-line no-control-regex -- browsers strip these control characters from URLs
const STRIPPED_AT_ENDS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;

export function normaliseUrl(url: string): string {
  return url.replace(STRIPPED_ANYWHERE, '').replace(STRIPPED_AT_ENDS, '');
}

const invalid: ResolvedLink = { href: FALLBACK_HREF, kind: 'invalid', opensOutsideApp: false };

/** Resolves a link against the site's host (`example.com` or `example.com:8080`). */
export function resolveLink(url: string | null | undefined, siteHost: string): ResolvedLink {
  if (typeof url !== 'string') return invalid;
  const href = normaliseUrl(url);
  if (href === '') return invalid;
  if (href.startsWith('#')) return { href, kind: 'fragment', opensOutsideApp: false };
  if (href.startsWith('/')) {
    // "//host" and "/\host" are read by browsers as another host.
    if (href[1] === '/' || href[1] === '\\') return invalid;
    return { href, kind: 'internal', opensOutsideApp: false };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme === 'mailto' || scheme === 'tel') return { href, kind: scheme, opensOutsideApp: true };
  if ((scheme === 'http' || scheme === 'https') && siteHost) {
    let parsed: URL;
    try {
      parsed = new URL(href);
    } catch {
      return invalid;
    }
    if (parsed.host === siteHost.toLowerCase() && !parsed.username && !parsed.password) {
      return { href, kind: 'internal', opensOutsideApp: false };
    }
  }
  return invalid;
}

export function isValidLink(url: string | null | undefined, siteHost: string): boolean {
  return resolveLink(url, siteHost).kind !== 'invalid';
}

/**
 * A URL for an image source (src, srcset candidate, CSS background): http(s), relative (an image may sit on
 * a CDN), or an inline image (data:image/...). Script and other data: URLs are refused; null when refused.
 */
export function safeImageUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const href = normaliseUrl(url);
  if (href === '') return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme === undefined) return href;
  if (scheme === 'http' || scheme === 'https') {
    try {
      new URL(href);
      return href;
    } catch {
      return null;
    }
  }
  if (scheme === 'data' && /^data:image\//i.test(href)) return href;
  return null;
}
