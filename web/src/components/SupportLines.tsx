import type { SupportRow } from '../../../common/support-lines';
import { ContactValue } from './ContactValue';

/** The support lines as label/value rows; nothing at all until there are rows. */
export function SupportLines({ rows }: { rows: readonly SupportRow[] }) {
  if (rows.length === 0) return null;
  return (
    <dl className="support-lines">
      {rows.map((row) => (
        <div key={`${row.label}|${row.value}`} className="support-lines__row">
          <dt className="support-lines__label">{row.label}</dt>
          <dd className="support-lines__value">
            <ContactValue value={row.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
