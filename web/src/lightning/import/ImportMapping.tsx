/**
 * The import's mapping, as the last review made it: each column of the file with the field it fills (a select
 * of the object's mappable fields, or none), how it came to it (by label, by API name, the user's saved
 * mapping, chosen here), and Save mapping, which keeps it as the user's for the next file; then the match key,
 * the fields whose values find the existing record of a row without an Id.
 */
import type { ImportColumn, ImportField } from '../../../../common/import-report';

const HOW: Record<NonNullable<ImportColumn['by']>, string> = {
  label: 'By its label',
  apiName: 'By its API name',
  saved: 'Your saved mapping',
  chosen: 'Chosen',
};

export function ImportMapping({
  columns,
  fields,
  matchKey,
  busy,
  saved,
  onColumnsChange,
  onMatchKeyChange,
  onSave,
}: {
  columns: ImportColumn[];
  fields: ImportField[];
  matchKey: string[];
  busy: boolean;
  /** Whether the mapping shown has just been saved. */
  saved: boolean;
  onColumnsChange: (columns: ImportColumn[]) => void;
  onMatchKeyChange: (matchKey: string[]) => void;
  onSave: () => void;
}) {
  const labelOf = (apiName: string) => fields.find((field) => field.apiName === apiName)?.label ?? apiName;
  const choose = (index: number, apiName: string) =>
    onColumnsChange(
      columns.map((column, at) =>
        at === index
          ? {
              header: column.header,
              field: apiName || null,
              fieldLabel: apiName ? labelOf(apiName) : null,
              by: apiName ? 'chosen' : null,
              readOnly: false,
            }
          : column,
      ),
    );
  // The match key is chosen among the fields the file fills (and the key the review used, whatever it is).
  const keyFields = [
    ...new Set([
      ...columns.filter((column) => column.field && !column.readOnly).map((column) => column.field!),
      ...matchKey,
    ]),
  ];
  const toggleKey = (apiName: string, checked: boolean) =>
    onMatchKeyChange(
      checked
        ? keyFields.filter((each) => each === apiName || matchKey.includes(each))
        : matchKey.filter((each) => each !== apiName),
    );

  return (
    <section className="bo-section" aria-labelledby="bo-import-mapping-heading">
      <h2 id="bo-import-mapping-heading" className="bo-section__heading">
        Mapping
      </h2>
      <p className="bo-form-field__hint">
        The field each column of the file fills. Change one, then review again to see what it does.
      </p>
      <div className="bo-table-scroll">
        <table className="bo-table bo-import__mapping">
          <thead>
            <tr>
              <th scope="col">Column of the file</th>
              <th scope="col">Field</th>
              <th scope="col">Mapped</th>
            </tr>
          </thead>
          <tbody>
            {columns.map((column, index) => {
              const id = `bo-import-column-${index}`;
              // A field outside the mappable ones (a read-only field of an export): offered so that it shows.
              const other = column.field && !fields.some((field) => field.apiName === column.field);
              return (
                <tr key={index}>
                  <th scope="row">{column.header || `(column ${index + 1}, no header)`}</th>
                  <td>
                    <div className="bo-form-field">
                      <label className="visually-hidden" htmlFor={id}>
                        Field for {column.header || `column ${index + 1}`}
                      </label>
                      <select
                        id={id}
                        value={column.field ?? ''}
                        disabled={busy}
                        onChange={(event) => choose(index, event.target.value)}
                      >
                        <option value="">Not imported</option>
                        {other && <option value={column.field!}>{column.fieldLabel ?? column.field}</option>}
                        {fields.map((field) => (
                          <option key={field.apiName} value={field.apiName}>
                            {field.label} ({field.apiName})
                          </option>
                        ))}
                      </select>
                    </div>
                  </td>
                  <td>
                    {column.readOnly
                      ? 'Read-only, not imported'
                      : column.field && column.by
                        ? HOW[column.by]
                        : 'Not mapped'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="bo-import__actions">
        <button type="button" className="bo-button" disabled={busy} onClick={onSave}>
          Save mapping
        </button>
        <p className="bo-import__note" role="status">
          {saved ? 'Mapping saved: files with these columns start from it.' : ''}
        </p>
      </div>

      <fieldset className="bo-form-field bo-import__match">
        <legend className="bo-form-field__label">Match existing records by</legend>
        <p id="bo-import-match-hint" className="bo-form-field__hint">
          A row without an Id updates the record with the same values of these fields, instead of creating another.
        </p>
        <div className="bo-choices">
          {keyFields.map((apiName) => (
            <label key={apiName} className="bo-choice">
              <input
                type="checkbox"
                checked={matchKey.includes(apiName)}
                disabled={busy}
                aria-describedby="bo-import-match-hint"
                onChange={(event) => toggleKey(apiName, event.target.checked)}
              />
              {labelOf(apiName)}
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
