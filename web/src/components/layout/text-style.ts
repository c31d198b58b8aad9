/**
 * The text block's options (docs/product-spec.md §3, Text block inputs) turned into a tag, classes and an
 * inline style made only of known tokens and checked colours, so that content can style text but cannot
 * inject CSS.
 */
import type { CSSProperties } from 'react';
import { perDevice, type PerDevice } from '../../lib/breakpoints';
import { safeCssColor } from '../../lib/css';

export const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p'] as const;
export type HeadingTag = (typeof HEADING_TAGS)[number];

export const TEXT_SIZES = [
  'heading-xlarge',
  'heading-large',
  'heading-medium',
  'heading-small',
  'heading-xsmall',
  'heading-xxsmall',
  'body-regular',
  'body-small',
] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

export const PADDING_SIZES = [
  'none',
  'xxx-small',
  'xx-small',
  'x-small',
  'small',
  'medium',
  'large',
  'x-large',
  'xx-large',
] as const;
export type PaddingSize = (typeof PADDING_SIZES)[number];

export type TextAlign = 'left' | 'center' | 'right' | 'justify';

export interface TextDecoration {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
}

export interface TextDisplayInfo {
  headingTag?: HeadingTag;
  textStyle?: TextSize;
  enableOverride?: boolean;
}

export interface TextStyleOptions {
  headingTag?: HeadingTag;
  fontSize?: PerDevice<TextSize>;
  textAlign?: TextAlign;
  textColor?: string;
  backgroundColor?: string;
  paddingVertical?: PaddingSize;
  paddingHorizontal?: PaddingSize;
  /** An object or its JSON text, as the site builder stores it. */
  textDecoration?: TextDecoration | string;
  /** An object or its JSON text, as the site builder stores it. */
  textDisplayInfo?: TextDisplayInfo | string;
}

const DEFAULT_SIZE_BY_TAG: Record<HeadingTag, TextSize> = {
  h1: 'heading-xlarge',
  h2: 'heading-large',
  h3: 'heading-medium',
  h4: 'heading-small',
  h5: 'heading-xsmall',
  h6: 'heading-xxsmall',
  p: 'body-regular',
};

const TEXT_ALIGNS: readonly TextAlign[] = ['left', 'center', 'right', 'justify'];

const oneOf = <T extends string>(allowed: readonly T[], value: unknown): T | undefined =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

/** An options object given as itself or as JSON text; {} for anything else. */
export function parseOptions<T extends object>(value: T | string | undefined): Partial<T> {
  if (value === undefined) return {};
  if (typeof value !== 'string') return typeof value === 'object' && value !== null ? value : {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Partial<T>) : {};
  } catch {
    return {};
  }
}

const sizeVar = (size: TextSize) => `var(--font-size-${size})`;

export interface ResolvedTextStyle {
  tag: HeadingTag;
  className: string;
  style: CSSProperties;
}

export function resolveTextStyle(options: TextStyleOptions): ResolvedTextStyle {
  const display = parseOptions<TextDisplayInfo>(options.textDisplayInfo);
  const decoration = parseOptions<TextDecoration>(options.textDecoration);
  const tag = oneOf(HEADING_TAGS, display.headingTag) ?? oneOf(HEADING_TAGS, options.headingTag) ?? 'h3';
  const override = display.enableOverride === true ? oneOf(TEXT_SIZES, display.textStyle) : undefined;
  const requested = override ?? options.fontSize;
  const sizes = perDevice<TextSize>(requested, DEFAULT_SIZE_BY_TAG[tag]);
  for (const device of ['mobile', 'tablet', 'desktop'] as const) {
    sizes[device] = oneOf(TEXT_SIZES, sizes[device]) ?? DEFAULT_SIZE_BY_TAG[tag];
  }
  const vertical = oneOf(PADDING_SIZES, options.paddingVertical) ?? 'none';
  const horizontal = oneOf(PADDING_SIZES, options.paddingHorizontal) ?? 'none';
  const lines = [decoration.underline === true && 'underline', decoration.strike === true && 'line-through'].filter(
    Boolean,
  );

  const style: Record<string, string | undefined> = {
    '--text-size-mobile': sizeVar(sizes.mobile),
    '--text-size-tablet': sizeVar(sizes.tablet),
    '--text-size-desktop': sizeVar(sizes.desktop),
    textAlign: oneOf(TEXT_ALIGNS, options.textAlign),
    color: safeCssColor(options.textColor),
    backgroundColor: safeCssColor(options.backgroundColor),
    padding:
      vertical === 'none' && horizontal === 'none' ? undefined : `var(--space-${vertical}) var(--space-${horizontal})`,
    fontWeight: decoration.bold === true ? '700' : undefined,
    fontStyle: decoration.italic === true ? 'italic' : undefined,
    textDecorationLine: lines.length ? lines.join(' ') : undefined,
  };
  for (const key of Object.keys(style)) if (style[key] === undefined) delete style[key];
  const kind = sizes.desktop.startsWith('heading') ? 'heading' : 'body';
  return { tag, className: `text-block text-block--${kind}`, style: style as CSSProperties };
}
