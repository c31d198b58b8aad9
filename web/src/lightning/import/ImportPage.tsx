/**
 * The import of a CSV file of an object's records (/lightning/o/{objectApiName}/import), its steps on one page:
 * the file; Review, the dry run (import-api.ts), whose report gives the file's columns, each mapped to a field
 * the user may change (and save as theirs), and the match key that finds a row's existing record; the review
 * of every row (new, changed, unchanged, invalid), downloadable as CSV; then Import, the commit, with its
 * progress as its batches are written and its report at the end. After each step the focus goes to its result
 * (the review, the progress, the report, or the problem), and nothing the user chose is lost on a refusal.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { getObjectInfoQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { objectHomeHref, type Route } from '../routes';
import { commitImport, dryRunImport, dryRunReportCsv, ImportRequestError, saveMapping } from './import-api';
import { keepHowMapped, mappingOf } from './import-report';
import type { ImportColumn, ImportField, ImportOptions, ImportReport } from '../../../../common/import-report';
import { ImportMapping } from './ImportMapping';
import { ImportProgress, ImportResult } from './ImportResult';
import { ImportReview } from './ImportReview';

type ImportRoute = Extract<Route, { kind: 'import' }>;

/** What the page is doing: one call at a time. */
type Busy = 'review' | 'download' | 'save' | 'commit' | null;

/** A refused or failed step: what was not done, and the route's reasons. */
interface Problem {
  what: string;
  messages: string[];
}

/** The element each step's result is, which takes the focus when the step ends. */
type FocusTarget = 'review' | 'progress' | 'result' | 'problem';
const FOCUS_IDS: Record<FocusTarget, string> = {
  review: 'bo-import-review-heading',
  progress: 'bo-import-progress-heading',
  result: 'bo-import-result-heading',
  problem: 'bo-import-problem',
};

function problemOf(what: string, error: unknown): Problem {
  if (error instanceof ImportRequestError) return { what, messages: error.errors.map((each) => each.message) };
  return { what, messages: [error instanceof Error ? error.message : String(error)] };
}

export function ImportPage({ route }: { route: ImportRoute }) {
  const api = useApiClient();
  const { objectApiName } = route;
  const objectInfo = useQuery(getObjectInfoQuery(api, { path: { objectApiName } }));
  const objectLabel = objectInfo.data?.labelPlural ?? objectApiName;

  const [file, setFile] = useState<File | null>(null);
  /** Which file this is: a new choice of the same name is another file. */
  const [fileVersion, setFileVersion] = useState(0);
  /** The file's columns and their fields as the mapping table shows them; null before the first review. */
  const [columns, setColumns] = useState<ImportColumn[] | null>(null);
  const [matchKey, setMatchKey] = useState<string[] | null>(null);
  /** The fields a column may be mapped to, from the last review. */
  const [fields, setFields] = useState<ImportField[]>([]);
  const [allOrNone, setAllOrNone] = useState(false);
  const [review, setReview] = useState<{ report: ImportReport; key: string } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<ImportReport | null>(null);
  const [mappingSaved, setMappingSaved] = useState(false);
  const [focusOn, setFocusOn] = useState<{ target: FocusTarget; at: number } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusOn) document.getElementById(FOCUS_IDS[focusOn.target])?.focus();
  }, [focusOn]);
  const focus = (target: FocusTarget) => setFocusOn({ target, at: Date.now() });

  const options: ImportOptions = useMemo(
    () => ({
      ...(columns && { mapping: mappingOf(columns) }),
      ...(matchKey && { matchKey }),
      allOrNone,
    }),
    [columns, matchKey, allOrNone],
  );
  /** The file and options a review was made of: a review of others is no ground for an import. */
  const key = `${fileVersion} ${JSON.stringify(options)}`;
  const reviewIsCurrent = review !== null && review.key === key;

  const fail = (what: string, error: unknown) => {
    setProblem(problemOf(what, error));
    focus('problem');
  };

  const onReview = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!file || matchKey?.length === 0) {
      setProblem({
        what: 'Nothing was reviewed.',
        messages: [file ? 'Check at least one field to match existing records by.' : 'Choose a CSV file first.'],
      });
      focus('problem');
      return;
    }
    setBusy('review');
    setProblem(null);
    setMappingSaved(false);
    try {
      const report = await dryRunImport(api, objectApiName, file, options);
      // The table and the match key show what the server made of the file; sent back, they ask for the same.
      const nextColumns = keepHowMapped(columns, report.columns);
      const nextMatchKey = report.matchKey;
      setColumns(nextColumns);
      setMatchKey(nextMatchKey);
      setFields(report.fields);
      setReview({
        report,
        key: `${fileVersion} ${JSON.stringify({ mapping: mappingOf(nextColumns), matchKey: nextMatchKey, allOrNone })}`,
      });
      setResult(null);
      setProgress(null);
      focus('review');
    } catch (error) {
      fail('The file was not reviewed.', error);
    } finally {
      setBusy(null);
    }
  };

  const onSaveMapping = async () => {
    if (busy || !columns) return;
    setBusy('save');
    setProblem(null);
    setMappingSaved(false);
    try {
      await saveMapping(api, objectApiName, mappingOf(columns));
      setMappingSaved(true);
    } catch (error) {
      fail('The mapping was not saved.', error);
    } finally {
      setBusy(null);
    }
  };

  const onDownload = async () => {
    if (busy || !file) return;
    setBusy('download');
    setProblem(null);
    try {
      const { blob, fileName } = await dryRunReportCsv(api, objectApiName, file, options);
      // Saved through a link to the file in memory: the report is the answer to a POST, which no plain link makes.
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      fail('The report was not downloaded.', error);
    } finally {
      setBusy(null);
    }
  };

  const onCommit = async () => {
    if (busy || !file || !reviewIsCurrent) return;
    setBusy('commit');
    setProblem(null);
    setResult(null);
    setProgress({ done: 0, total: review.report.totals.new + review.report.totals.changed });
    focus('progress');
    try {
      const report = await commitImport(api, objectApiName, file, options, (done, total) =>
        setProgress({ done, total }),
      );
      setResult(report);
      // The records have changed: the review no longer says what an import would do.
      setReview(null);
      focus('result');
    } catch (error) {
      setProgress(null);
      // Refused before any write (a 4xx), nothing was written; stopped under way, each batch written stays
      // unless all or nothing, and the same file imported again finishes the rest without duplicates.
      const underWay = !(error instanceof ImportRequestError && error.status >= 400);
      fail(
        !underWay
          ? 'Nothing was imported.'
          : allOrNone
            ? 'The import did not finish: all or nothing, so no row was written.'
            : 'The import did not finish: the rows written before it stopped stay. Import the same file again to finish the rest.',
        error,
      );
    } finally {
      setBusy(null);
    }
  };

  const onFileChosen = (chosen: File | null) => {
    setFile(chosen);
    setFileVersion((version) => version + 1);
    // Another file has other columns: its mapping starts again from the saved one.
    setColumns(null);
    setMatchKey(null);
    setFields([]);
    setReview(null);
    setResult(null);
    setProgress(null);
    setProblem(null);
    setMappingSaved(false);
  };

  return (
    <div className="bo-import" aria-busy={busy !== null}>
      <header className="bo-record__header">
        <p className="bo-record__object">
          <PageLink href={objectHomeHref(objectApiName)}>{objectLabel}</PageLink>
        </p>
        <h1 className="bo-record__name">Import {objectLabel}</h1>
      </header>

      <form className="bo-form bo-import__form" onSubmit={onReview} noValidate>
        <section className="bo-section" aria-labelledby="bo-import-file-heading">
          <h2 id="bo-import-file-heading" className="bo-section__heading">
            File
          </h2>
          <div className="bo-form-field">
            <label className="bo-form-field__label" htmlFor="bo-import-file">
              CSV file
            </label>
            <input
              ref={fileInput}
              id="bo-import-file"
              type="file"
              accept=".csv,text/csv"
              aria-describedby="bo-import-file-hint"
              onChange={(event) => onFileChosen(event.target.files?.[0] ?? null)}
            />
            <p id="bo-import-file-hint" className="bo-form-field__hint">
              UTF-8, with commas or semicolons, a header row first; up to 25 MB and 50,000 rows. An exported list view
              imports back as it is.
            </p>
          </div>
          <div className="bo-form-field bo-form-field--checkbox">
            <input
              id="bo-import-all-or-none"
              type="checkbox"
              checked={allOrNone}
              aria-describedby="bo-import-all-or-none-hint"
              onChange={(event) => setAllOrNone(event.target.checked)}
            />
            <label htmlFor="bo-import-all-or-none">All or nothing</label>
            <p id="bo-import-all-or-none-hint" className="bo-form-field__hint">
              Write no row at all if any row is invalid or fails.
            </p>
          </div>
        </section>

        {columns && (
          <ImportMapping
            columns={columns}
            fields={fields}
            matchKey={matchKey ?? []}
            busy={busy !== null}
            saved={mappingSaved}
            onColumnsChange={(next) => {
              setColumns(next);
              setMappingSaved(false);
            }}
            onMatchKeyChange={setMatchKey}
            onSave={onSaveMapping}
          />
        )}

        {problem && (
          <div id="bo-import-problem" className="bo-form__summary" role="alert" tabIndex={-1}>
            <p className="bo-form__problem">{problem.what}</p>
            <ul className="bo-form__problem">
              {problem.messages.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          </div>
        )}

        <div className="bo-import__actions">
          <button type="submit" className="bo-button bo-button--brand" disabled={busy !== null}>
            {busy === 'review' ? 'Reviewing…' : review ? 'Review again' : 'Review'}
          </button>
        </div>
        <p className="visually-hidden" role="status">
          {busy === 'review' ? 'Reviewing the file…' : busy === 'download' ? 'Preparing the report…' : ''}
        </p>
      </form>

      {review && (
        <ImportReview
          key={review.key}
          report={review.report}
          current={reviewIsCurrent}
          busy={busy !== null}
          downloading={busy === 'download'}
          onDownload={onDownload}
          onCommit={onCommit}
        />
      )}

      {progress && <ImportProgress done={progress.done} total={progress.total} finished={busy !== 'commit'} />}

      {result && <ImportResult report={result} objectApiName={objectApiName} objectLabel={objectLabel} />}
    </div>
  );
}
