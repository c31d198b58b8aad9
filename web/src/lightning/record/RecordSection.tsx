/**
 * A section of a record's layout: its heading, and its fields as label and value in the layout's columns. A
 * section the layout makes collapsible has its heading as a disclosure button (aria-expanded), which hides or
 * shows the fields; whether it is collapsed is the page's to keep (the layout user state).
 */
import type { ShownSection } from './layout';

export function RecordSection({
  section,
  collapsed,
  onToggle,
}: {
  section: ShownSection;
  /** Undefined for a section that does not collapse. */
  collapsed?: boolean;
  onToggle?: () => void;
}) {
  const headingId = `bo-section-${section.key}`;
  const bodyId = `bo-section-body-${section.key}`;
  const collapsible = collapsed !== undefined && onToggle !== undefined;
  return (
    <section className="bo-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="bo-section__heading">
        {collapsible ? (
          <button
            type="button"
            className="bo-section__toggle"
            aria-expanded={!collapsed}
            aria-controls={bodyId}
            onClick={onToggle}
          >
            {section.heading}
          </button>
        ) : (
          section.heading
        )}
      </h2>
      <dl id={bodyId} className={`bo-fields bo-fields--${Math.min(section.columns, 2)}`} hidden={collapsed}>
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
