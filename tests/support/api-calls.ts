/**
 * The log of the operations the contract tests call, so that API coverage is measured rather than guessed:
 * one JSON line {operationId, method, status, target} per call. target is 'server' for the real server,
 * 'mock' for the Prism mock (which exercises the contract, not the server).
 *
 * Also Vitest's globalSetup: each run logs into a file of its own (dist/coverage/runs/<run>.jsonl, named to
 * the workers in API_CALLS_RUN_LOG), and at its end that file becomes dist/coverage/api-calls.jsonl, the
 * one npm run coverage:api reads. So the log always holds exactly one whole run, even when two runs overlap.
 */
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const COVERAGE_DIR = resolve(import.meta.dirname, '../../dist/coverage');
export const API_CALLS_LOG = resolve(COVERAGE_DIR, 'api-calls.jsonl');
const RUN_LOG_VARIABLE = 'API_CALLS_RUN_LOG';

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

/** Vitest globalSetup: a run starts with an empty log of its own, which replaces the shared one at its end. */
export function setup(): () => void {
  const runLog = resolve(
    COVERAGE_DIR,
    'runs',
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.jsonl`,
  );
  mkdirSync(dirname(runLog), { recursive: true });
  writeFileSync(runLog, '');
  process.env[RUN_LOG_VARIABLE] = runLog;
  return () => {
    renameSync(runLog, API_CALLS_LOG);
  };
}
