/**
 * The Contact Us page as the site builder configures it (docs/product-spec.md §2, §9): the view, the site
 * and community it belongs to, the content items its blocks show, and the banner's properties. The
 * content keys are the page's configuration, not data: content delivery answers what they name.
 */
export const PAGE = {
  /** The view and its page title. */
  view: 'contact_us',
  title: 'Contact Us',
  /**
   * The route parameter recordId: optional, empty by default. This page is served without one;
   * the SEO settings of a page without a record are asked for by its view name.
   */
  recordId: '',
  /** The site's locale and text direction (docs/product-spec.md §9). */
  locale: 'en-US',
  direction: 'ltr',
  siteId: '0DM8d0000000001GAA',
  communityId: '0DB8d0000000001GAA',
} as const;

/** The content items of the page's blocks. */
export const CONTENT_KEYS = {
  banner: 'MCAUSNJ4FHK6FEVMPNHLKDC45C44',
  heading: 'MCAAGJ55ZH3THLGGQBKCDM76NE74',
  supportLines: 'MCAP7V23UEN33BNWTI3P7LNTFZAZ',
} as const;

/** Site paths (/cms/..., /img/...) are served behind this prefix (docs/product-spec.md §7). */
export const SITE_PREFIX = '/sfsites/c';

/** The banner's configuration (docs/product-spec.md §2, Banner defaults). */
export const BANNER_CONFIG = {
  height: 300,
  contentWidthPercent: 60,
  imageFit: 'cover',
  imagePosition: 'center center',
  contentPosition: 'center left',
  textColor: '#ffffff',
  /** The picture shown when content delivery cannot name one: a site image (the image provider's default URL). */
  defaultImageUrl: `${SITE_PREFIX}/img/contact-us-banner.jpg`,
  /** The default image's size, for its aspect ratio. */
  defaultImageSize: { width: 2400, height: 800 },
  primaryButton: { label: 'Learn More', url: '#main' },
  secondaryButton: { label: 'Contact Us', url: '#locator-heading' },
  /** Both buttons are configured hidden on this page. */
  showButtons: false,
  showSecondaryButton: false,
} as const;
