/**
 * The hero banner (docs/product-spec.md §2, Banner defaults): 300px high, full width, content 60% wide at
 * the centre left, picture covering it, white text, no border, buttons configured hidden. Its picture and
 * texts come from content delivery (web/src/content.ts), its configuration from page-config.ts.
 */
import type { CSSProperties } from 'react';
import { safeCssColor } from '../lib/css';
import { BANNER_CONFIG } from '../page-config';
import { Link } from './Link';
import { Picture, type PictureData } from './layout/Picture';
import { TextBlock } from './layout/TextBlock';

export interface BannerButton {
  label: string;
  url: string;
}

export interface BannerContent {
  heading?: string;
  /** The heading's element: a paragraph on the Contact Us page, whose h1 is in its body; the page's h1 elsewhere. */
  headingTag?: 'p' | 'h1';
  intro?: string;
  picture?: PictureData;
  overlayColor?: string;
  primaryButton?: BannerButton;
  secondaryButton?: BannerButton;
  /** False on this page: both buttons are configured hidden. */
  showButtons?: boolean;
  showSecondaryButton?: boolean;
  /** Pixels (default 300). */
  height?: number;
  /** Percent of the banner the texts may take (default 60). */
  contentWidthPercent?: number;
}

export function Banner({
  heading,
  headingTag = 'p',
  intro,
  picture,
  overlayColor,
  primaryButton = BANNER_CONFIG.primaryButton,
  secondaryButton = BANNER_CONFIG.secondaryButton,
  showButtons = BANNER_CONFIG.showButtons,
  showSecondaryButton = BANNER_CONFIG.showSecondaryButton,
  height = BANNER_CONFIG.height,
  contentWidthPercent = BANNER_CONFIG.contentWidthPercent,
}: BannerContent) {
  const overlay = safeCssColor(overlayColor);
  const style: Record<string, string> = {
    '--banner-height': `${height}px`,
    '--banner-content-width': `${contentWidthPercent}%`,
  };
  if (overlay) style['--banner-overlay'] = overlay;
  return (
    <header className="banner" style={style as CSSProperties}>
      {/* The largest thing in the first view: fetched first, eagerly. */}
      {picture && <Picture picture={picture} className="banner__picture" loading="eager" fetchPriority="high" />}
      <div className="banner__content">
        {heading && (
          <TextBlock text={heading} headingTag={headingTag} fontSize="heading-xlarge" textClass="banner__heading" />
        )}
        {intro && <TextBlock text={intro} headingTag="p" fontSize="body-regular" textClass="banner__intro" />}
        {showButtons && (primaryButton || (showSecondaryButton && secondaryButton)) && (
          <div className="banner__buttons">
            {primaryButton && (
              <Link href={primaryButton.url} className="button button--brand">
                {primaryButton.label}
              </Link>
            )}
            {showSecondaryButton && secondaryButton && (
              <Link href={secondaryButton.url} className="button button--outline-inverse">
                {secondaryButton.label}
              </Link>
            )}
          </div>
        )}
      </div>
    </header>
  );
}
