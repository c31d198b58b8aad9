/**
 * The commit on screen: its progress as the server writes its batches (a progress bar, and the count said in a
 * live region), then its report: created, updated and failed rows, each failed row's reasons, the history the
 * import wrote, and the way back to the object's list.
 */
import { PageLink } from '../../location';
import { objectHomeHref } from '../routes';
import { rowCount } from './import-report';
import type { ImportReport } from '../../../../common/import-report';

export function ImportProgress({ done, total, finished }: { done: number; total: number; finished: boolean }) {
  return (
    <section className="bo-section" aria-labelledby="bo-import-progress-heading">
      <h2 id="bo-import-progress-heading" className="bo-section__heading" tabIndex={-1}>
        {finished ? 'Written' : 'Importing'}
      </h2>
      <progress
        className="bo-import__progress"
        aria-labelledby="bo-import-progress-heading"
        max={Math.max(total, 1)}
        value={done}
      />
      <p role="status" className="bo-import__note">
        {done.toLocaleString('en-US')} of {rowCount(total)} written
      </p>
    </section>
  );
}

/** The history's transactions, one per batch: the first few by id, the rest counted. */
function transactionsText(ids: string[]): string {
  if (ids.length <= 3) return `transaction${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
  return `transactions ${ids.slice(0, 3).join(', ')} and ${(ids.length - 3).toLocaleString('en-US')} more`;
}

export function ImportResult({
  report,
  objectApiName,
  objectLabel,
}: {
  report: ImportReport;
  objectApiName: string;
  objectLabel: string;
}) {
  const { totals } = report;
  const failed = report.rows.filter((row) => row.outcome === 'failed' || (row.errors.length > 0 && row.outcome));
  const wrote = totals.created + totals.updated > 0;
  return (
    <section className="bo-section bo-import__result" aria-labelledby="bo-import-result-heading">
      <h2 id="bo-import-result-heading" className="bo-section__heading" tabIndex={-1}>
        {wrote ? 'Import finished' : 'Nothing was imported'}
      </h2>
      {report.message && <p>{report.message}</p>}
      <dl className="bo-import__totals">
        <div className="bo-import__total">
          <dt>Created</dt>
          <dd>{totals.created.toLocaleString('en-US')}</dd>
        </div>
        <div className="bo-import__total">
          <dt>Updated</dt>
          <dd>{totals.updated.toLocaleString('en-US')}</dd>
        </div>
        <div className="bo-import__total">
          <dt>Failed</dt>
          <dd>{totals.failed.toLocaleString('en-US')}</dd>
        </div>
      </dl>
      {report.history && report.history.rows > 0 && (
        <p>
          The import recorded {report.history.rows.toLocaleString('en-US')} field{' '}
          {report.history.rows === 1 ? 'change' : 'changes'} in the records’ history (
          {transactionsText(report.history.transactionIds)}).
        </p>
      )}
      {failed.length > 0 && (
        <>
          <h3 className="bo-import__subheading">Rows not written ({failed.length.toLocaleString('en-US')})</h3>
          <ul className="bo-import__failed">
            {failed.slice(0, 1000).map((row) => (
              <li key={row.line}>
                Line {row.line}: {row.errors.map((error) => error.message).join(' ') || row.outcome}
              </li>
            ))}
          </ul>
          {failed.length > 1000 && (
            <p>The first 1,000 are listed; review the file again and download its report for every row.</p>
          )}
        </>
      )}
      <p>
        <PageLink href={objectHomeHref(objectApiName)}>Back to {objectLabel}</PageLink>
      </p>
    </section>
  );
}
