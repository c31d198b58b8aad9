import type { ComboboxOption } from './combobox/Combobox';

interface FallbackField {
  name: 'brand' | 'country' | 'state';
  label: string;
  placeholder: string;
  options: readonly ComboboxOption[];
  value: string | null;
}

/**
 * The filters for visitors without JavaScript: a plain GET form of native selects, inside <noscript> (the
 * comboboxes, which need JavaScript, are hidden then). A new country lists its states after "Show
 * contacts"; a state left from another country is dropped by the page. React renders <noscript> content
 * on the server only, so the browser never builds these ~250 options.
 */
export function LocatorFallbackForm({ action, fields }: { action: string; fields: readonly FallbackField[] }) {
  return (
    <noscript>
      <form method="get" action={action} className="locator__fallback">
        {fields.map((field) => (
          <label key={field.name} className="locator__fallback-field">
            <span className="locator__fallback-label">{field.label}</span>
            <select name={field.name} defaultValue={field.value ?? ''} className="locator__fallback-select">
              <option value="">{field.placeholder}</option>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" className="button button--brand">
          Show contacts
        </button>
      </form>
    </noscript>
  );
}
