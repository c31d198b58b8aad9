/**
 * The dry run's report: the totals (new, changed, unchanged, invalid), the rows of a chosen status a page at a
 * time (a file of 50,000 rows renders 100 of them, never all), each changed row's changes as "field: old → new"
 * and each invalid row's reasons; Download report (CSV); and Import, the commit of the rows reviewed. Import
 * says, instead of writing, why it would write nothing: the review is of other options, all or nothing with an
 * invalid row, or no row to write.
 */
import { useMemo, useState } from 'react';
import { PageLink } from '../../location';
import { recordHref } from '../routes';
import { changeText, pageOf, rowCount, rowsOf, rowsToWrite, type RowFilter } from './import-report';
import type { ImportReport, ImportRowReport, ImportRowStatus } from '../../../../common/import-report';

const STATUS_LABELS: Record<ImportRowStatus, string> = {
  new: 'New',
  changed: 'Changed',
  unchanged: 'Unchanged',
  invalid: 'Invalid',
};
const STATUSES: ImportRowStatus[] = ['new', 'changed', 'unchanged', 'invalid'];

export function ImportReview({
  report,
  current,
  busy,
  downloading,
  onDownload,
  onCommit,
}: {
  report: ImportReport;
  /** Whether the review is of the file and options now chosen. */
  current: boolean;
  busy: boolean;
  downloading: boolean;
  onDownload: () => void;
  onCommit: () => void;
}) {
  const [filter, setFilter] = useState<RowFilter>('all');
  const [page, setPage] = useState(0);
  const shown = useMemo(() => rowsOf(report.rows, filter), [report.rows, filter]);
  const paged = pageOf(shown, page);
  const { totals } = report;
  const toWrite = rowsToWrite(report);

  const blocked = !current
    ? 'The mapping or the options changed since this review: review again before importing.'
    : report.allOrNone && totals.invalid > 0
      ? `All or nothing: ${rowCount(totals.invalid)} ${totals.invalid === 1 ? 'is' : 'are'} invalid, so nothing will be written. Correct the file, or clear All or nothing to import the valid rows.`
      : toWrite === 0
        ? 'Nothing to import: no row is new or changed.'
        : null;

  return (
    <section className="bo-section bo-import__review" aria-labelledby="bo-import-review-heading">
      <h2 id="bo-import-review-heading" className="bo-section__heading" tabIndex={-1}>
        Review: {rowCount(totals.rows)}
      </h2>
      <p className="bo-form-field__hint">Nothing has been written yet.</p>
      <dl className="bo-import__totals">
        {STATUSES.map((status) => (
          <div key={status} className="bo-import__total">
            <dt>{STATUS_LABELS[status]}</dt>
            <dd>{totals[status].toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {report.message && <p>{report.message}</p>}
      <div className="bo-import__actions">
        <button type="button" className="bo-button" disabled={busy} onClick={onDownload}>
          {downloading ? 'Preparing the report…' : 'Download report (CSV)'}
        </button>
        <button
          type="button"
          className={`bo-button bo-button--brand${blocked ? ' bo-button--blocked' : ''}`}
          disabled={busy}
          aria-disabled={blocked ? true : undefined}
          aria-describedby={blocked ? 'bo-import-blocked' : undefined}
          onClick={() => {
            if (!blocked) onCommit();
          }}
        >
          Import {rowCount(toWrite)}
        </button>
      </div>
      {blocked && (
        <p id="bo-import-blocked" className="bo-import__note">
          {blocked}
        </p>
      )}

      <div className="bo-form-field bo-import__filter">
        <label className="bo-form-field__label" htmlFor="bo-import-filter">
          Show
        </label>
        <select
          id="bo-import-filter"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value as RowFilter);
            setPage(0);
          }}
        >
          <option value="all">All rows ({totals.rows.toLocaleString('en-US')})</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]} ({totals[status].toLocaleString('en-US')})
            </option>
          ))}
        </select>
      </div>

      {shown.length === 0 ? (
        <p>No row is {filter === 'all' ? 'in the file' : STATUS_LABELS[filter as ImportRowStatus].toLowerCase()}.</p>
      ) : (
        <div className="bo-table-scroll">
          <table className="bo-table bo-import__rows">
            <caption className="visually-hidden">
              Rows of the file, {paged.first} to {paged.last} of {shown.length}
            </caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Status</th>
                <th scope="col">Record</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {paged.rows.map((row) => (
                <RowOfReport key={row.line} row={row} objectApiName={report.objectApiName} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {paged.pages > 1 && (
        <nav className="bo-pager bo-import__pager" aria-label="Pages of the rows">
          <button
            type="button"
            className="bo-button"
            disabled={paged.page === 0}
            onClick={() => setPage(paged.page - 1)}
          >
            Previous page
          </button>
          <span>
            Rows {paged.first.toLocaleString('en-US')}–{paged.last.toLocaleString('en-US')} of{' '}
            {shown.length.toLocaleString('en-US')}
          </span>
          <button
            type="button"
            className="bo-button"
            disabled={paged.page >= paged.pages - 1}
            onClick={() => setPage(paged.page + 1)}
          >
            Next page
          </button>
        </nav>
      )}
    </section>
  );
}

function RowOfReport({ row, objectApiName }: { row: ImportRowReport; objectApiName: string }) {
  return (
    <tr className={`bo-import__row bo-import__row--${row.status}`}>
      <th scope="row">{row.line}</th>
      <td>{STATUS_LABELS[row.status]}</td>
      <td>{row.recordId ? <PageLink href={recordHref(objectApiName, row.recordId)}>{row.recordId}</PageLink> : '—'}</td>
      <td>
        {row.errors.length > 0 && (
          <ul className="bo-import__list bo-import__list--errors">
            {row.errors.map((error, index) => (
              <li key={index}>{error.message}</li>
            ))}
          </ul>
        )}
        {row.status !== 'invalid' && row.changes.length > 0 && (
          <ul className="bo-import__list">
            {row.changes.map((change) => (
              <li key={change.field}>{changeText(change)}</li>
            ))}
          </ul>
        )}
        {row.warnings.length > 0 && (
          <ul className="bo-import__list">
            {row.warnings.map((warning, index) => (
              <li key={index}>Warning: {warning.message}</li>
            ))}
          </ul>
        )}
        {row.status === 'unchanged' && row.warnings.length === 0 && 'No change.'}
        {row.status === 'new' && row.changes.length === 0 && row.warnings.length === 0 && 'A new record.'}
      </td>
    </tr>
  );
}
