/**
 * The markup the server alone makes (web/src/server-markup.ts): the locator's form for visitors without
 * JavaScript, as React would render it. Its lists are the same arrays while their data is (ContactLocator),
 * so each list's options are made into markup once, and the chosen one is marked in a copy.
 */
import type { ComboboxOption } from '../src/components/combobox/Combobox.tsx';
import { memoByObject } from '../src/lib/memo.ts';
import type { FallbackField, FallbackForm, ServerMarkup } from '../src/server-markup.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** Text or an attribute's value as React writes it into HTML. */
function escapeAsReact(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

const optionStart = (value: string) => `<option value="${escapeAsReact(value)}"`;

/** A list's options, none chosen. */
const optionsMarkup = memoByObject((options: readonly ComboboxOption[]) =>
  options.map((option) => `${optionStart(option.value)}>${escapeAsReact(option.label)}</option>`).join(''),
);

/** The placeholder (chosen when the field has no value), then the options with the field's value chosen. */
function selectOptions({ placeholder, options, value }: FallbackField): string {
  const chosen = ' selected=""';
  const list = optionsMarkup(options);
  const first = `<option value=""${value === null || value === '' ? chosen : ''}>${escapeAsReact(placeholder)}</option>`;
  if (value === null || value === '') return first + list;
  const start = `${optionStart(value)}>`;
  const at = list.indexOf(start);
  if (at < 0) return first + list;
  const end = at + start.length - 1;
  return first + list.slice(0, end) + chosen + list.slice(end);
}

export function locatorFallbackForm({ action, fields }: FallbackForm): string {
  const selects = fields
    .map(
      (field) =>
        `<label class="locator__fallback-field"><span class="locator__fallback-label">${escapeAsReact(field.label)}</span>` +
        `<select name="${field.name}" class="locator__fallback-select">${selectOptions(field)}</select></label>`,
    )
    .join('');
  return `<form class="locator__fallback" action="${escapeAsReact(action)}" method="get">${selects}<button type="submit" class="button button--brand">Show contacts</button></form>`;
}

export const serverMarkup: ServerMarkup = { locatorFallbackForm };
