import { describe, expect, it } from 'vitest';
import { toPlainText } from './sanitize';

describe('toPlainText', () => {
  it('keeps plain text as it is', () => {
    expect(toPlainText('Connect with an authorized sales representative in your area.')).toBe(
      'Connect with an authorized sales representative in your area.',
    );
  });

  it('strips tags and attributes', () => {
    expect(
      toPlainText('<p class="intro" style="color:red">Hello <b>big</b> <a href="/x" onclick="evil()">world</a></p>'),
    ).toBe('Hello big world');
    expect(toPlainText('<img src=x onerror="alert(1)">Caption')).toBe('Caption');
    expect(toPlainText('<img alt="a > b" src="x.png">after')).toBe('after');
  });

  it('drops the content of scripts, styles and other non-text elements', () => {
    expect(toPlainText('before<script>alert("x")</script>after')).toBe('beforeafter');
    expect(toPlainText('a<style>p{color:red}</style>b<SCRIPT type="module">x()</SCRIPT>c')).toBe('abc');
    expect(toPlainText('text<script>never closed')).toBe('text');
    expect(toPlainText('x<svg><script>alert(1)</script></svg>y')).toBe('xy');
  });

  it('drops comments and declarations', () => {
    expect(toPlainText('a<!-- <b>hidden</b> -->b<!DOCTYPE html>c<?xml version="1.0"?>d')).toBe('abcd');
    expect(toPlainText('a<!-- unterminated')).toBe('a');
  });

  it('keeps words apart where block tags and line breaks separated them', () => {
    expect(toPlainText('<h2>Title</h2><p>First</p><p>Second<br>line</p>')).toBe('Title First Second line');
    expect(toPlainText('<ul><li>One</li><li>Two</li></ul>')).toBe('One Two');
  });

  it('decodes entities once, so escaped markup stays text', () => {
    expect(toPlainText('Fish &amp; Chips &lt;b&gt; &#169; &#x2122; &hellip;')).toBe('Fish & Chips <b> © ™ …');
    expect(toPlainText('&amp;lt;script&amp;gt;')).toBe('&lt;script&gt;');
    expect(toPlainText('&unknown; &#0; &#xD800;')).toBe('&unknown; \ufffd \ufffd');
  });

  it('keeps a lone less-than sign', () => {
    expect(toPlainText('voltage < 600 V and > 50 V')).toBe('voltage < 600 V and > 50 V');
  });

  it('collapses white space but keeps non-breaking spaces', () => {
    expect(toPlainText('  a \n\t b&nbsp;c  ')).toBe('a b\u00a0c');
  });

  it('answers an empty string for nothing', () => {
    expect(toPlainText('')).toBe('');
    expect(toPlainText(null)).toBe('');
    expect(toPlainText(undefined)).toBe('');
    expect(toPlainText('<br><p></p>')).toBe('');
  });
});
