/**
 * Imports records from a CSV file: npm run import -- file.csv [--dry-run] [--commit] [options]
 * A dry run (the default) reports what the file would do; --commit writes its valid rows, with a progress bar.
 * Against a running server (--server, signed in as --username with --password, or IMPORT_USERNAME and
 * IMPORT_PASSWORD), through the back office's import routes; else directly on the server's database (the one
 * npm run seed uses: DATABASE_URL, or PGlite in DATA_DIR), as the org's administrator, the owner the seed gives
 * its records. Exit code: 0 when the run completed with no invalid or failed row, 1 for bad input (arguments,
 * the file, a refusal), 2 when the report has invalid or failed rows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { getCsrfToken, signIn } from '../generated/operations.ts';
import { recordImportPath } from '../common/pages.ts';
import type { Database } from '../server/db/connection.ts';
import { DataDirectoryLockedError } from '../server/db/lock.ts';
import { openDatabase, settingsFromEnv } from '../server/bootstrap.ts';
import { PlatformError } from '../server/platform/core/errors.ts';
import { ADMIN_USER_ID, type Principal } from '../server/platform/core/principal.ts';
import { commitImport } from '../server/platform/import/commit.ts';
import { dryRunImport } from '../server/platform/import/dry-run.ts';
import type { CommitLine, ImportOptions, ImportReport } from '../common/import-report.ts';
import { ImportError } from '../server/platform/import/errors.ts';
import { importReportCsv } from '../server/platform/import/report-csv.ts';
import { principalOfUser } from '../server/platform/users.ts';

const USAGE = `Usage: npm run import -- file.csv [--dry-run | --commit] [--object APT_Contact_Us__c]
  [--match-key field1,field2] [--mapping mapping.json] [--all-or-none] [--report report.csv]
  [--server http://127.0.0.1:3000 [--username name] [--password secret]]`;
/** How many invalid rows a run lists with their reasons (the report file has them all). */
const INVALID_ROWS_SHOWN = 10;

/** Bad input: the message is shown with the usage, and the run ends with exit code 1. */
class InputError extends Error {}

type ProgressListener = (done: number, total: number) => void;

interface Run {
  /** The CSV file's path, as given. */
  path: string;
  file: Uint8Array<ArrayBuffer>;
  objectApiName: string;
  options: ImportOptions;
  commit: boolean;
}

function readArguments(): Run & { report?: string; server?: string; username?: string; password?: string } {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean' },
        commit: { type: 'boolean' },
        object: { type: 'string', default: 'APT_Contact_Us__c' },
        'match-key': { type: 'string' },
        mapping: { type: 'string' },
        'all-or-none': { type: 'boolean' },
        report: { type: 'string' },
        server: { type: 'string' },
        username: { type: 'string' },
        password: { type: 'string' },
      },
    });
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new InputError('Name one CSV file to import.');
  if (values['dry-run'] && values.commit) throw new InputError('Choose --dry-run or --commit, not both.');
  const options: ImportOptions = {};
  if (values['match-key'] !== undefined) {
    const fields = values['match-key']
      .split(',')
      .map((field) => field.trim())
      .filter(Boolean);
    if (!fields.length) throw new InputError('--match-key needs one field name or more, separated by commas.');
    options.matchKey = fields;
  }
  if (values.mapping !== undefined) options.mapping = readMapping(values.mapping);
  if (values['all-or-none']) options.allOrNone = true;
  let file: Uint8Array<ArrayBuffer>;
  try {
    file = readFileSync(positionals[0]);
  } catch (error) {
    throw new InputError(`Cannot read ${positionals[0]}: ${(error as Error).message}`);
  }
  return {
    path: positionals[0],
    file,
    objectApiName: values.object,
    options,
    commit: values.commit === true,
    report: values.report,
    server: values.server,
    username: values.username ?? process.env.IMPORT_USERNAME,
    password: values.password ?? process.env.IMPORT_PASSWORD,
  };
}

/** A mapping file: { "CSV header": "FieldApiName" or null } itself, or as the mapping route answers it ({ mapping }). */
function readMapping(path: string): Record<string, string | null> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError(`Cannot read the mapping ${path}: ${(error as Error).message}`);
  }
  const mapping = json && typeof json === 'object' && 'mapping' in json ? (json as { mapping: unknown }).mapping : json;
  const valid =
    mapping !== null &&
    typeof mapping === 'object' &&
    !Array.isArray(mapping) &&
    Object.values(mapping).every((field) => field === null || typeof field === 'string');
  if (!valid)
    throw new InputError(`The mapping ${path} must be a JSON object of CSV headers to field API names or null.`);
  return mapping as Record<string, string | null>;
}

/** The import on the database itself, as the org's administrator. */
async function runOnDatabase(run: Run, onProgress: ProgressListener): Promise<ImportReport> {
  let db: Database;
  try {
    db = await openDatabase({ ...settingsFromEnv(), demoContacts: 0 });
  } catch (error) {
    if (error instanceof DataDirectoryLockedError)
      throw new InputError(`${error.message}\nStop the server, or import through it with --server.`);
    throw error;
  }
  try {
    const { rows } = await db.query<{ profile_id: string | null; is_active: boolean | null }>(
      `SELECT fields ->> 'ProfileId' AS profile_id, (fields ->> 'IsActive')::boolean AS is_active FROM record WHERE id = $1`,
      [ADMIN_USER_ID],
    );
    const principal: Principal | null = rows[0]
      ? principalOfUser(ADMIN_USER_ID, rows[0].profile_id, rows[0].is_active)
      : null;
    if (!principal) throw new InputError('The database has no active administrator to import as.');
    try {
      return run.commit
        ? await commitImport(db, principal, run.objectApiName, run.file, { ...run.options, onProgress })
        : await dryRunImport(db, principal, run.objectApiName, run.file, run.options);
    } catch (error) {
      // The same refusals as the routes' 4xx answers.
      if (error instanceof ImportError || (error instanceof PlatformError && error.status < 500))
        throw new InputError(error.message);
      throw error;
    }
  } finally {
    await db.close();
  }
}

/** The import through a running server's routes, signed in as the user named. */
async function runOnServer(
  run: Run,
  server: string,
  username: string | undefined,
  password: string | undefined,
  onProgress: ProgressListener,
): Promise<ImportReport> {
  if (!username || !password)
    throw new InputError(
      'Importing through a server needs --username and --password (or IMPORT_USERNAME and IMPORT_PASSWORD).',
    );
  const origin = new URL(server).origin;
  const signedIn = await fetch(`${origin}${signIn.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (signedIn.status !== 200) throw new InputError(`Cannot sign in as ${username}: ${await errorText(signedIn)}`);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((header) => header.split(';', 1)[0])
    .join('; ');
  const token = await fetch(`${origin}${getCsrfToken.path}`, { headers: { Cookie: cookie } });
  if (token.status !== 200) throw new InputError(`Cannot get a CSRF token: ${await errorText(token)}`);
  const { csrfToken } = (await token.json()) as { csrfToken: string };

  const body = new FormData();
  body.set('file', new Blob([run.file], { type: 'text/csv' }), 'import.csv');
  body.set('options', JSON.stringify(run.options));
  const answer = await fetch(`${origin}${recordImportPath(run.objectApiName, run.commit ? 'commit' : 'dry-run')}`, {
    method: 'POST',
    headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken },
    body,
    redirect: 'manual',
  });
  if (answer.status !== 200) throw new InputError(await errorText(answer));
  if (!run.commit) return (await answer.json()) as ImportReport;
  // NDJSON: progress lines, then the report (or an error).
  const decoder = new TextDecoder();
  let pending = '';
  let report: ImportReport | undefined;
  const readLine = (line: string) => {
    if (!line.trim()) return;
    const parsed = JSON.parse(line) as CommitLine;
    if (parsed.type === 'progress') onProgress(parsed.done, parsed.total);
    else if (parsed.type === 'error') throw new Error(`The import stopped: ${parsed.message} (${parsed.errorCode})`);
    else {
      const { type: _type, ...rest } = parsed;
      report = rest;
    }
  };
  const reader = answer.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    pending += decoder.decode(read.value, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    lines.forEach(readLine);
  }
  readLine(pending + decoder.decode());
  if (!report) throw new Error('The server ended the answer before the report.');
  return report;
}

/** An error answer's message (the record API's [{ errorCode, message }]), or its status. */
async function errorText(response: Response): Promise<string> {
  if (response.status === 302) return 'the server asked to sign in first';
  const text = await response.text();
  try {
    const [first] = JSON.parse(text) as { errorCode: string; message: string }[];
    return `${first.message} (${first.errorCode}, ${response.status})`;
  } catch {
    return `${response.status} ${text.slice(0, 200)}`;
  }
}

/** What a run says: the totals, how the columns were mapped, and the first invalid rows with their reasons. */
function summary(report: ImportReport, file: string): string {
  const { totals } = report;
  const lines = [
    `${file} → ${report.objectApiName}: ${totals.rows} rows: ${totals.new} new, ${totals.changed} changed, ${totals.unchanged} unchanged, ${totals.invalid} invalid.`,
  ];
  if (report.committed)
    lines.push(
      `Written: ${totals.created} created, ${totals.updated} updated, ${totals.failed} failed` +
        (report.history ? `; ${report.history.rows} history ${report.history.rows === 1 ? 'row' : 'rows'}.` : '.'),
    );
  const skipped = report.columns.filter((column) => !column.field).map((column) => column.header);
  const readOnly = report.columns.filter((column) => column.field && column.readOnly).map((column) => column.header);
  if (skipped.length) lines.push(`Not mapped: ${skipped.join(', ')}.`);
  if (readOnly.length) lines.push(`Read-only, not imported: ${readOnly.join(', ')}.`);
  lines.push(`Match key: ${report.matchKey.join(' + ')}.`);
  const problems = report.rows.filter((row) => row.status === 'invalid' || row.outcome === 'failed');
  if (problems.length) {
    const shown = problems.slice(0, INVALID_ROWS_SHOWN);
    lines.push(
      problems.length > shown.length
        ? `The first ${shown.length} of ${problems.length} rows not imported:`
        : 'Rows not imported:',
    );
    for (const row of shown)
      lines.push(`  line ${row.line}: ${row.errors.map((error) => error.message).join('; ') || row.outcome}`);
  }
  if (report.message) lines.push(report.message);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const run = readArguments();
  const bar = new cliProgress.SingleBar(
    {
      format: 'rows {bar} {percentage}% | {value}/{total} | eta {eta_formatted}',
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const onProgress: ProgressListener = (done, total) => {
    if (!started) bar.start(total, done);
    else bar.update(done);
    started = true;
  };
  let report: ImportReport;
  try {
    report = run.server
      ? await runOnServer(run, run.server, run.username, run.password, onProgress)
      : await runOnDatabase(run, onProgress);
  } finally {
    if (started) bar.stop();
  }
  if (run.report) writeFileSync(run.report, importReportCsv(report));
  console.log(summary(report, basename(run.path)));
  if (run.report) console.log(`Report: ${run.report}`);
  return report.totals.invalid > 0 || report.totals.failed > 0 ? 2 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  // A refusal says what to change; anything else (the server or the database failing) is shown whole.
  console.error(error instanceof InputError ? `${error.message}\n${USAGE}` : error);
  process.exitCode = 1;
}
