/**
 * A record's highlights under its name: the fields of its object's compact layout (but its name) as label and
 * value, in a row that wraps, as the platform's highlights panel shows them.
 */
import type { ShownField } from './layout';

export function Highlights({ fields }: { fields: ShownField[] }) {
  if (fields.length === 0) return null;
  return (
    <section className="bo-highlights" aria-label="Highlights">
      <dl className="bo-highlights__fields">
        {fields.map((field, index) => (
          <div className="bo-highlights__field" key={`${field.label}-${index}`}>
            <dt className="bo-field__label">{field.label}</dt>
            <dd className="bo-field__value">{field.text || <span className="visually-hidden">No value</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
