/**
 * The CSV import of an object's records, in the back office and outside the contract (as the list export is):
 * - POST /lightning/o/{objectApiName}/import/dry-run: multipart/form-data with `file` (the CSV) and `options`
 *   (the JSON text of ImportOptions); answers the report as JSON, or with ?format=csv as a CSV attachment;
 * - POST …/import/commit: the same body; answers NDJSON, a `progress` line as each batch is written, then one
 *   `report` line (or, when the commit fails once under way, one `error` line);
 * - GET and PUT …/import/mapping: the user's saved mapping of the object's CSV headers to its fields.
 * The domain is server/platform/import/. A guest is sent to sign in, as for every back-office address; the writes
 * pass the gate's CSRF rules like every write. The file's size is checked by the limits middleware (25 MB, from
 * Content-Length or as the body arrives: server/http/limits/limits.ts) before this reads it.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { errorResponse } from '../http/errors.ts';
import { attachmentDisposition } from '../http/answers/attachment.ts';
import { principalOf, sessionOf, type AppEnv } from '../http/sessions/principal.ts';
import { objectPermissions, type Principal } from '../platform/core/principal.ts';
import { PlatformError } from '../platform/core/errors.ts';
import type { DescribedObject } from '../platform/core/describe.ts';
import { insufficientAccess } from '../platform/records/write.ts';
import { commitImport } from '../platform/import/commit.ts';
import { dryRunImport } from '../platform/import/dry-run.ts';
import { ImportError } from '../platform/import/errors.ts';
import { importObject, readSavedMapping, saveMapping } from '../platform/import/mapping.ts';
import { importReportCsv } from '../platform/import/report-csv.ts';
import { RECORD_IMPORT_ROUTE } from '../../common/pages.ts';
import { signInHref } from '../../common/sign-in.ts';
import type { CommitLine, ImportOptions, ImportReport } from '../../common/import-report.ts';

/** ImportOptions as the `options` part gives them; anything else is refused. */
const IMPORT_OPTIONS = z.strictObject({
  mapping: z.record(z.string(), z.string().nullable()).optional(),
  matchKey: z.array(z.string()).optional(),
  allOrNone: z.boolean().optional(),
});

/** The body of a PUT of the saved mapping, the GET's answer. */
const SAVED_MAPPING = z.strictObject({ mapping: z.record(z.string(), z.string().nullable()) });

/** What the import routes read from a request: the file's bytes and the options. */
interface Upload {
  file: Uint8Array;
  options: ImportOptions;
}

/** A guest's request: the back office's 302 to sign in, back to the object's list afterwards. */
function signInFirst(c: Context): Response {
  const url = new URL(c.req.url);
  c.header('Cache-Control', 'no-store');
  return c.redirect(signInHref(url.pathname.replace(/\/import\/[^/]+$/, '/list'), ''), 302);
}

/**
 * The object named by the address: one the caller may not read does not exist for it (404, as the record API
 * answers); one it may not create and edit records of is refused (403, as a create is), before any of the body is
 * read.
 */
async function importableObject(db: Database, principal: Principal, objectApiName: string): Promise<DescribedObject> {
  const object = await importObject(db, principal, objectApiName);
  const permissions = objectPermissions(principal, object.apiName);
  if (!permissions.create || !permissions.edit || !object.definition.flags?.createable)
    throw insufficientAccess(`import ${object.definition.labelPlural}`);
  return object;
}

/** The file and options of a dry run or commit, or the 4xx answer to a body that does not hold them. */
async function readUpload(c: Context): Promise<Upload | Response> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type))
    return errorResponse(
      c,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be multipart/form-data with the CSV file as its file part, not ${type || 'no Content-Type'}`,
    );
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    return errorResponse(c, 400, 'INVALID_MULTIPART', 'The request body is not valid multipart/form-data');
  }
  const file = form.get('file');
  if (!(file instanceof File))
    return errorResponse(c, 400, 'MISSING_ARGUMENT', 'The request has no file: send the CSV file as the file part');
  const optionsText = form.get('options');
  let options: ImportOptions = {};
  if (optionsText !== null) {
    const parsed = typeof optionsText === 'string' ? parseJson(optionsText) : undefined;
    const checked = IMPORT_OPTIONS.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      return errorResponse(
        c,
        400,
        'INVALID_INPUT',
        `The options part must be the JSON text of the import's options${where}: ${issue?.message ?? 'invalid'}`,
      );
    }
    options = checked.data;
  }
  return { file: new Uint8Array(await file.arrayBuffer()), options };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Why a commit stopped at a batch's end: its client went away, and nobody is left to read the report. */
class ClientGone extends Error {}

/**
 * Runs a commit and answers it as NDJSON once its first batch is written (or, with nothing to write, once it
 * ends). An error before that (the file, the mapping, the match key) is thrown, so that the client gets the same
 * 4xx answer as for a dry run; an error after it is the last line. When the client goes away, the commit stops at the end of the batch it is writing:
 * the batches written stay (or, all or nothing, none does), and the same file imported again finishes the rest.
 */
async function commitAnswer(
  c: Context,
  run: (onProgress: (done: number, total: number) => void) => Promise<ImportReport>,
): Promise<Response> {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let gone = false;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel() {
      gone = true;
    },
  });
  const send = (line: CommitLine) => {
    if (!gone) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
  };
  let begin!: () => void;
  const begun = new Promise<void>((resolve) => (begin = resolve));
  const running = run((done, total) => {
    if (gone) throw new ClientGone('The client went away: the import stopped after the batch it had written.');
    send({ type: 'progress', done, total });
    begin();
  });
  // Whichever comes first: the first batch (the answer begins), or the end of the commit (a report or an error).
  await Promise.race([begun, running]);
  running.then(
    (report) => {
      send({ type: 'report', ...report });
      if (!gone) controller.close();
    },
    (error: unknown) => {
      if (error instanceof ClientGone) return;
      const known = error instanceof PlatformError || error instanceof ImportError;
      if (!known) console.error('The import failed after it began:', error);
      send({
        type: 'error',
        errorCode: known ? error.errorCode : 'UNKNOWN_EXCEPTION',
        message: known ? error.message : 'The import stopped on an unexpected error; import the file again.',
      });
      if (!gone) controller.close();
    },
  );
  return c.body(body, 200, {
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Cache-Control': 'no-store',
    // Each line as soon as it is written, through any proxy that would otherwise hold the answer back.
    'X-Accel-Buffering': 'no',
  });
}

export function recordImportRoutes(db: Database, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  const now = () => new Date(options.clock?.now() ?? Date.now());
  const writeOptions = { clock: options.clock };

  app.post(`${RECORD_IMPORT_ROUTE}/dry-run`, async (c) => {
    if (!sessionOf(c)) return signInFirst(c);
    const principal = principalOf(c);
    const object = await importableObject(db, principal, c.req.param('objectApiName'));
    const upload = await readUpload(c);
    if (upload instanceof Response) return upload;
    const report = await dryRunImport(db, principal, object.apiName, upload.file, upload.options);
    c.header('Cache-Control', 'no-store');
    if (c.req.query('format') !== 'csv') return c.json(report);
    const date = now().toISOString().slice(0, 10);
    return c.body(importReportCsv(report), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(
        `${object.definition.label} import report ${date}`,
        'csv',
        'import report',
      ),
    });
  });

  app.post(`${RECORD_IMPORT_ROUTE}/commit`, async (c) => {
    if (!sessionOf(c)) return signInFirst(c);
    const principal = principalOf(c);
    const { apiName } = await importableObject(db, principal, c.req.param('objectApiName'));
    const upload = await readUpload(c);
    if (upload instanceof Response) return upload;
    return commitAnswer(c, (onProgress) =>
      commitImport(db, principal, apiName, upload.file, { ...upload.options, onProgress }, writeOptions),
    );
  });

  app.get(`${RECORD_IMPORT_ROUTE}/mapping`, async (c) => {
    if (!sessionOf(c)) return signInFirst(c);
    const principal = principalOf(c);
    const { apiName } = await importableObject(db, principal, c.req.param('objectApiName'));
    c.header('Cache-Control', 'no-store');
    return c.json({ mapping: await readSavedMapping(db, principal, apiName) });
  });

  app.put(`${RECORD_IMPORT_ROUTE}/mapping`, async (c) => {
    if (!sessionOf(c)) return signInFirst(c);
    const principal = principalOf(c);
    const { apiName } = await importableObject(db, principal, c.req.param('objectApiName'));
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
      return errorResponse(c, 415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json');
    const checked = SAVED_MAPPING.safeParse(parseJson(await c.req.text()));
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      return errorResponse(c, 400, 'INVALID_INPUT', `Invalid request body${where}: ${issue?.message ?? 'invalid'}`);
    }
    await saveMapping(db, principal, apiName, checked.data.mapping);
    return c.body(null, 204);
  });

  return app;
}
