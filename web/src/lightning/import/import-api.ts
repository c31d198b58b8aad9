/**
 * The import's calls (server/routes/record-import.ts), which are outside the contract like the list's export:
 * the dry run, its report as CSV, the commit read as its NDJSON lines arrive, and the saving of the user's
 * mapping (the dry run itself starts from the saved one).
 * They go through the page's API client all the same, so that its middleware applies to them as to every
 * call: the session's CSRF token on the writes (fetched once, and again after a refusal), the end of the
 * session noticed on a 401, the error-shape check of every 4xx/5xx answer.
 */
import { isErrorList, type ApiClient } from '../../../../client/index';
import { recordImportPath } from '../../../../common/pages';
import { ndjsonReader } from './import-report';
import type { ImportOptions, ImportReport } from '../../../../common/import-report';

/** The client's request for a path the contract does not type (as client/call.ts calls it). */
type AnyRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** A refused call: the status and the route's errors (`[{ errorCode, message }]`). */
export class ImportRequestError extends Error {
  constructor(
    readonly status: number,
    readonly errors: { errorCode: string; message: string }[],
  ) {
    super(errors.map((error) => error.message).join(' '));
  }
}

/** The call, or an ImportRequestError for a refusal, or for no answer at all (status 0). */
async function call(
  api: ApiClient,
  method: string,
  path: string,
  init: Record<string, unknown>,
): Promise<{ data?: unknown; response: Response }> {
  const request = api.request as unknown as AnyRequest;
  let result: Awaited<ReturnType<AnyRequest>>;
  try {
    result = await request(method, path, init);
  } catch (cause) {
    if ((cause as { name?: unknown } | null)?.name === 'AbortError') throw cause;
    throw new ImportRequestError(0, [
      { errorCode: 'NETWORK_ERROR', message: 'The server did not answer: check the connection and try again.' },
    ]);
  }
  const { data, error, response } = result;
  if (response.ok) return { data, response };
  throw new ImportRequestError(
    response.status,
    isErrorList(error)
      ? error
      : [{ errorCode: 'UNKNOWN_EXCEPTION', message: `The server answered ${response.status}.` }],
  );
}

/** The multipart body of the dry run and the commit: the file and the options as JSON. */
function bodyOf(file: File, options: ImportOptions): FormData {
  const body = new FormData();
  body.append('file', file, file.name);
  body.append('options', JSON.stringify(options));
  return body;
}

/** The dry run's report: what a commit of the file would do, row by row; nothing is written. */
export async function dryRunImport(
  api: ApiClient,
  objectApiName: string,
  file: File,
  options: ImportOptions,
): Promise<ImportReport> {
  const { data } = await call(api, 'POST', recordImportPath(objectApiName, 'dry-run'), {
    body: bodyOf(file, options),
    parseAs: 'json',
  });
  return data as ImportReport;
}

/** The dry run's report as a CSV file, with the name the server gives it. */
export async function dryRunReportCsv(
  api: ApiClient,
  objectApiName: string,
  file: File,
  options: ImportOptions,
): Promise<{ blob: Blob; fileName: string }> {
  const { data, response } = await call(api, 'POST', recordImportPath(objectApiName, 'dry-run'), {
    params: { query: { format: 'csv' } },
    body: bodyOf(file, options),
    parseAs: 'blob',
  });
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition) ?? /filename="([^"]+)"/i.exec(disposition);
  let fileName = 'Import report.csv';
  try {
    if (named) fileName = decodeURIComponent(named[1]);
  } catch {
    // A name that is not percent-encoded as it says: the default one.
  }
  return { blob: data as Blob, fileName };
}

/**
 * Commits the file: its valid rows are written in batches, each batch's progress told to onProgress as its
 * line arrives; resolves to the commit's report, the answer's last line, or rejects with the error line that
 * takes its place when the commit fails once under way (the batches written by then stay, unless all or
 * nothing).
 */
export async function commitImport(
  api: ApiClient,
  objectApiName: string,
  file: File,
  options: ImportOptions,
  onProgress: (done: number, total: number) => void,
): Promise<ImportReport> {
  const { data, response } = await call(api, 'POST', recordImportPath(objectApiName, 'commit'), {
    body: bodyOf(file, options),
    parseAs: 'stream',
  });
  const reader = (data as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const lines = ndjsonReader();
  let report: ImportReport | undefined;
  let failure: ImportRequestError | undefined;
  const take = (text: string, end: boolean) => {
    for (const line of end ? [...lines.push(text), ...lines.end()] : lines.push(text)) {
      if (line.type === 'progress') onProgress(line.done, line.total);
      else if (line.type === 'error')
        failure = new ImportRequestError(response.status, [{ errorCode: line.errorCode, message: line.message }]);
      else {
        const { type: _type, ...rest } = line;
        report = rest;
      }
    }
  };
  const stopped = new ImportRequestError(0, [
    {
      errorCode: 'NO_REPORT',
      message:
        'The import stopped before its report came: some rows may have been written. Review the file again to see what is left, then import it again.',
    },
  ]);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        take(decoder.decode(), true);
        break;
      }
      take(decoder.decode(value, { stream: true }), false);
    }
  } catch {
    // The connection was cut mid-answer (the server cuts it when the import fails past its headers).
    throw stopped;
  }
  if (failure) throw failure;
  if (!report) throw stopped;
  return report;
}

/** Saves the mapping as the user's for the object: the next file's columns of those headers start from it. */
export async function saveMapping(
  api: ApiClient,
  objectApiName: string,
  mapping: Record<string, string | null>,
): Promise<void> {
  await call(api, 'PUT', recordImportPath(objectApiName, 'mapping'), { body: { mapping }, parseAs: 'json' });
}
