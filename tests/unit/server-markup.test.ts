/**
 * The no-JS form's markup made by the server (web/ssr/server-markup.ts) is what React renders of the same form,
 * byte for byte, whatever the lists hold; and a list is made into markup once.
 */
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FallbackField, FallbackForm } from '../../web/src/server-markup.ts';
import { locatorFallbackForm } from '../../web/ssr/server-markup.ts';

/** The form as React elements: what the page rendered before its markup was made by the server. */
function reactForm({ action, fields }: FallbackForm): string {
  return renderToStaticMarkup(
    h(
      'form',
      { method: 'get', action, className: 'locator__fallback' },
      fields.map((field) =>
        h(
          'label',
          { key: field.name, className: 'locator__fallback-field' },
          h('span', { className: 'locator__fallback-label' }, field.label),
          h(
            'select',
            { name: field.name, defaultValue: field.value ?? '', className: 'locator__fallback-select' },
            h('option', { value: '' }, field.placeholder),
            field.options.map((option) => h('option', { key: option.value, value: option.value }, option.label)),
          ),
        ),
      ),
      h('button', { type: 'submit', className: 'button button--brand' }, 'Show contacts'),
    ),
  );
}

const HOSTILE = [
  `Côte d'Ivoire`,
  'A & B <Co>',
  '"Quoted"',
  '</option></select><script>alert(1)</script>',
  'Tab\there',
  '😀 Émoji',
];
const options = (values: readonly string[]) => values.map((value) => ({ value, label: value.toUpperCase() }));
const field = (name: FallbackField['name'], values: readonly string[], value: string | null): FallbackField => ({
  name,
  label: `${name} <label> & "more"`,
  placeholder: `--Select ${name}'s--`,
  options: options(values),
  value,
});

describe('locatorFallbackForm', () => {
  const cases: [string, FallbackForm][] = [
    [
      'nothing chosen',
      {
        action: '/',
        fields: [
          field('brand', ['Arcline', 'Ironspan'], null),
          field('country', HOSTILE, null),
          field('state', [], null),
        ],
      },
    ],
    ...HOSTILE.map((chosen): [string, FallbackForm] => [
      `${JSON.stringify(chosen)} chosen`,
      {
        action: '/a"b?<c>&d',
        fields: [
          field('brand', ['Arcline'], 'Arcline'),
          field('country', HOSTILE, chosen),
          field('state', ['Ontario'], 'Ontario'),
        ],
      },
    ]),
    [
      'a value no option has',
      {
        action: '/',
        fields: [field('brand', ['Arcline'], 'Nope'), field('country', HOSTILE, 'A & B'), field('state', [], '')],
      },
    ],
    [
      'the first and the last chosen',
      { action: '/', fields: [field('country', HOSTILE, HOSTILE[0]), field('state', HOSTILE, HOSTILE.at(-1)!)] },
    ],
  ];
  for (const [name, form] of cases) {
    it(`is React's markup: ${name}`, () => {
      expect(locatorFallbackForm(form)).toBe(reactForm(form));
    });
  }

  it('marks one option chosen, in a copy: the list is left as it was for the next form', () => {
    const countries = options(HOSTILE);
    const form = (value: string | null): FallbackForm => ({
      action: '/',
      fields: [{ ...field('country', [], value), options: countries }],
    });
    const chosen = (markup: string) => markup.match(/<option[^>]*selected=""[^>]*>/g);
    expect(chosen(locatorFallbackForm(form(HOSTILE[2])))).toEqual(['<option value="&quot;Quoted&quot;" selected="">']);
    expect(chosen(locatorFallbackForm(form(null)))).toEqual(['<option value="" selected="">']);
    expect(chosen(locatorFallbackForm(form(HOSTILE[1])))).toEqual([
      '<option value="A &amp; B &lt;Co&gt;" selected="">',
    ]);
  });
});
