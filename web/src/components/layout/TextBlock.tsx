/**
 * The text block (docs/product-spec.md §2, §3): h1–h6 or a paragraph (default h3), sizes per device,
 * text-style overrides, padding tokens; its text always plain (every tag and attribute stripped, so that
 * content cannot inject markup); optionally a link.
 */
import { toPlainText } from '../../lib/sanitize';
import { Link } from '../Link';
import { resolveTextStyle, type TextStyleOptions } from './text-style';

export interface TextBlockProps extends TextStyleOptions {
  /** Rich text from content; rendered as its plain text. */
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
  const plain = toPlainText(text);
  if (!plain) return null;
  const { tag: Tag, className, style } = resolveTextStyle(styleOptions);
  return (
    <Tag id={id} className={textClass ? `${className} ${textClass}` : className} style={style}>
      {isLinkable && url ? (
        <Link href={url} assistiveText={linkAssistiveText}>
          {plain}
        </Link>
      ) : (
        plain
      )}
    </Tag>
  );
}
