/**
 * The log of the operations the contract tests call, so that API coverage is measured rather than guessed:
 * one JSON line {operationId, method, status, target} per call. target is 'server' for the real server,
 * 'mock' for the Prism mock (which exercises the contract, not the server).
 *
 * Beside it, the recording of the properties the server's JSON answers carry, per object schema of the
 * contract (tests/support/sent-properties.ts), with a line for each test file that ran; the last contract
 * file, tests/contract/sent-properties.test.ts, compares it with the contract and the baseline.
 *
 * Also Vitest's globalSetup: each run logs into files of its own (dist/coverage/runs/<run>.jsonl and
 * <run>.sent-properties.jsonl, named to the workers in API_CALLS_RUN_LOG and SENT_PROPERTIES_RUN_LOG), and
 * at its end they become dist/coverage/api-calls.jsonl, the one npm run coverage:api reads, and
 * dist/coverage/sent-properties.jsonl, the one npm run baseline:sent-properties reads. So each log always
 * holds exactly one whole run, even when two runs overlap. SENT_PROPERTIES_RUN_LOG set from outside names a
 * recording that several runs add to instead (CONTRIBUTING.md: the contract files in groups).
 */
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { RecordingLine } from './sent-properties.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const COVERAGE_DIR = resolve(ROOT, 'dist/coverage');
export const API_CALLS_LOG = resolve(COVERAGE_DIR, 'api-calls.jsonl');
export const SENT_PROPERTIES_LOG = resolve(COVERAGE_DIR, 'sent-properties.jsonl');
const RUN_LOG_VARIABLE = 'API_CALLS_RUN_LOG';
const SENT_PROPERTIES_VARIABLE = 'SENT_PROPERTIES_RUN_LOG';

export type CallTarget = 'server' | 'mock';

export interface ApiCall {
  operationId: string;
  method: string;
  status: number;
  target: CallTarget;
}

let directoryReady = false;

/** Appends one call to the run's log (an append of one short line: safe across the workers of a run). */
export function recordApiCall(call: ApiCall): void {
  const log = process.env[RUN_LOG_VARIABLE] || API_CALLS_LOG;
  if (!directoryReady) {
    mkdirSync(dirname(log), { recursive: true });
    directoryReady = true;
  }
  const line = {
    operationId: call.operationId,
    method: call.method.toUpperCase(),
    status: call.status,
    target: call.target,
  };
  appendFileSync(log, `${JSON.stringify(line)}\n`);
}

/** The run's recording of sent properties (the shared one outside a run of Vitest). */
export const sentPropertiesLog = () => process.env[SENT_PROPERTIES_VARIABLE] || SENT_PROPERTIES_LOG;

/** A test file's path as the recording names it: relative to the root, with forward slashes. */
export const testFileName = (path: string) => relative(ROOT, path).split('\\').join('/');

/** Appends one line to the run's recording of sent properties. */
export function recordSentProperties(line: RecordingLine): void {
  const log = sentPropertiesLog();
  mkdirSync(dirname(log), { recursive: true });
  appendFileSync(log, `${JSON.stringify(line)}\n`);
}

/** Vitest globalSetup: a run starts with empty logs of its own, which replace the shared ones at its end. */
export function setup(): () => void {
  const run = resolve(COVERAGE_DIR, 'runs', `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  const runLog = `${run}.jsonl`;
  mkdirSync(dirname(runLog), { recursive: true });
  writeFileSync(runLog, '');
  process.env[RUN_LOG_VARIABLE] = runLog;
  // A recording named from outside is one that several runs add to (the contract files in groups): it is
  // neither emptied nor moved.
  const given = process.env[SENT_PROPERTIES_VARIABLE];
  const sentProperties = given || `${run}.sent-properties.jsonl`;
  if (!given) writeFileSync(sentProperties, '');
  process.env[SENT_PROPERTIES_VARIABLE] = sentProperties;
  return () => {
    renameSync(runLog, API_CALLS_LOG);
    if (!given) renameSync(sentProperties, SENT_PROPERTIES_LOG);
  };
}
