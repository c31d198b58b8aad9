/** A section of a record's layout: its heading, and its fields as label and value in the layout's columns. */
import type { ShownSection } from './layout';

export function RecordSection({ section }: { section: ShownSection }) {
  const headingId = `bo-section-${section.key}`;
  return (
    <section className="bo-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="bo-section__heading">
        {section.heading}
      </h2>
      <dl className={`bo-fields bo-fields--${Math.min(section.columns, 2)}`}>
        {section.fields.map((field, index) => (
          <div className="bo-field" key={`${field.label}-${index}`}>
            <dt className="bo-field__label">{field.label}</dt>
            <dd className="bo-field__value">{field.text || <span className="visually-hidden">No value</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
