/**
 * The text block (docs/product-spec.md §2, §3): h1–h6 or a paragraph (default h3), sizes per device,
 * text-style overrides, padding tokens; its text always plain (the content's texts come with every tag and
 * attribute stripped, page-content.ts, so that content cannot inject markup); optionally a link.
 */
import { Link } from '../Link';
import { resolveTextStyle, type TextStyleOptions } from './text-style';

export interface TextBlockProps extends TextStyleOptions {
  /** Plain text (content's rich text made plain, lib/sanitize.ts); nothing is rendered for none. */
  text: string;
  /** Extra classes from the page configuration. */
  textClass?: string;
  isLinkable?: boolean;
  url?: string;
  linkAssistiveText?: string;
  id?: string;
}

export function TextBlock({
  text,
  textClass,
  isLinkable,
  url,
  linkAssistiveText,
  id,
  ...styleOptions
}: TextBlockProps) {
  if (!text) return null;
  const { tag: Tag, className, style } = resolveTextStyle(styleOptions);
  return (
    <Tag id={id} className={textClass ? `${className} ${textClass}` : className} style={style}>
      {isLinkable && url ? (
        <Link href={url} assistiveText={linkAssistiveText}>
          {text}
        </Link>
      ) : (
        text
      )}
    </Tag>
  );
}
