import { describe, expect, it } from 'vitest';
import { perDevice } from '../../lib/breakpoints';
import { parseOptions, resolveTextStyle } from './text-style';

describe('resolveTextStyle', () => {
  it('defaults to an h3 with the heading-medium size everywhere', () => {
    const { tag, className, style } = resolveTextStyle({});
    expect(tag).toBe('h3');
    expect(className).toBe('text-block text-block--heading');
    expect(style).toEqual({
      '--text-size-mobile': 'var(--font-size-heading-medium)',
      '--text-size-tablet': 'var(--font-size-heading-medium)',
      '--text-size-desktop': 'var(--font-size-heading-medium)',
    });
  });

  it('sizes a paragraph as body text and takes sizes per device', () => {
    expect(resolveTextStyle({ headingTag: 'p' }).className).toContain('text-block--body');
    const { style } = resolveTextStyle({
      headingTag: 'h1',
      fontSize: { mobile: 'heading-large', desktop: 'heading-xlarge' },
    });
    expect(style).toMatchObject({
      '--text-size-mobile': 'var(--font-size-heading-large)',
      '--text-size-tablet': 'var(--font-size-heading-xlarge)',
      '--text-size-desktop': 'var(--font-size-heading-xlarge)',
    });
  });

  it('lets textDisplayInfo choose the tag, and its text style when the override is enabled', () => {
    expect(resolveTextStyle({ headingTag: 'h2', textDisplayInfo: '{"headingTag":"h4"}' }).tag).toBe('h4');
    const overridden = resolveTextStyle({
      fontSize: 'heading-small',
      textDisplayInfo: { textStyle: 'body-small', enableOverride: true },
    });
    expect(overridden.style).toMatchObject({ '--text-size-desktop': 'var(--font-size-body-small)' });
    const notOverridden = resolveTextStyle({ fontSize: 'heading-small', textDisplayInfo: { textStyle: 'body-small' } });
    expect(notOverridden.style).toMatchObject({ '--text-size-desktop': 'var(--font-size-heading-small)' });
  });

  it('applies decoration, alignment, padding tokens and checked colours', () => {
    const { style } = resolveTextStyle({
      textDecoration: '{"bold":true,"italic":true,"underline":true,"strike":true}',
      textAlign: 'center',
      paddingVertical: 'large',
      paddingHorizontal: 'none',
      textColor: '#ffffff',
      backgroundColor: 'rgb(0, 0, 0)',
    });
    expect(style).toMatchObject({
      fontWeight: '700',
      fontStyle: 'italic',
      textDecorationLine: 'underline line-through',
      textAlign: 'center',
      padding: 'var(--space-large) var(--space-none)',
      color: '#ffffff',
      backgroundColor: 'rgb(0, 0, 0)',
    });
  });

  it('ignores unknown tags, sizes, paddings, alignments and unsafe colours', () => {
    const { tag, style } = resolveTextStyle({
      headingTag: 'script' as never,
      fontSize: 'huge' as never,
      paddingVertical: '1px;color:red' as never,
      textAlign: 'middle' as never,
      textColor: 'red;background:url(x)',
      textDisplayInfo: 'not json',
    });
    expect(tag).toBe('h3');
    expect(style).toEqual({
      '--text-size-mobile': 'var(--font-size-heading-medium)',
      '--text-size-tablet': 'var(--font-size-heading-medium)',
      '--text-size-desktop': 'var(--font-size-heading-medium)',
    });
  });
});

describe('parseOptions', () => {
  it('reads objects and JSON objects, nothing else', () => {
    expect(parseOptions({ bold: true })).toEqual({ bold: true });
    expect(parseOptions('{"bold":true}')).toEqual({ bold: true });
    expect(parseOptions('[1]')).toEqual({});
    expect(parseOptions('{')).toEqual({});
    expect(parseOptions(undefined)).toEqual({});
  });
});

describe('perDevice', () => {
  it('spreads a plain value and falls back between devices', () => {
    expect(perDevice('a', 'z')).toEqual({ mobile: 'a', tablet: 'a', desktop: 'a' });
    expect(perDevice({ desktop: 'd' }, 'z')).toEqual({ mobile: 'd', tablet: 'd', desktop: 'd' });
    expect(perDevice({ mobile: 'm' }, 'z')).toEqual({ mobile: 'm', tablet: 'm', desktop: 'm' });
    expect(perDevice({ mobile: 'm', desktop: 'd' }, 'z')).toEqual({ mobile: 'm', tablet: 'd', desktop: 'd' });
    expect(perDevice(undefined, 'z')).toEqual({ mobile: 'z', tablet: 'z', desktop: 'z' });
  });
});
