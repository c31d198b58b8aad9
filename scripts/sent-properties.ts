/**
 * Refreshes the baseline of sent properties (tests/contract/sent-properties.json) from the recording of a
 * run of every contract file: for each object schema of the answers, the declared properties every answer
 * carried. Run it on purpose, after npm test (or the contract files in groups with one SENT_PROPERTIES_RUN_LOG),
 * when the server's answers change as they should; the diff of the baseline is then part of the change.
 *
 *   npm run baseline:sent-properties [-- <recording.jsonl>]   (default dist/coverage/sent-properties.jsonl)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SENT_PROPERTIES_LOG } from '../tests/support/api-calls.ts';
import {
  aggregate,
  baselineOf,
  contractFiles,
  filesNotRun,
  MIN_ANSWERS,
  parseRecording,
} from '../tests/support/sent-properties.ts';

const root = resolve(import.meta.dirname, '..');
const recording = resolve(process.argv[2] ?? SENT_PROPERTIES_LOG);
if (!existsSync(recording)) {
  console.error(`No recording at ${recording}: run the contract files first (npm test).`);
  process.exit(1);
}
const lines = parseRecording(readFileSync(recording, 'utf8'));
const notRun = filesNotRun(lines, contractFiles(readdirSync(resolve(root, 'tests/contract'))));
if (notRun.length > 0) {
  console.error(`The recording ${recording} lacks ${notRun.length} contract files:\n  ${notRun.join('\n  ')}`);
  process.exit(1);
}
const contract = JSON.parse(readFileSync(resolve(root, 'generated/openapi.json'), 'utf8')) as Record<string, unknown>;
const baseline = baselineOf(contract, aggregate(lines), MIN_ANSWERS);
const target = resolve(root, 'tests/contract/sent-properties.json');
writeFileSync(target, `${JSON.stringify(baseline, null, 2)}\n`);
console.log(`${Object.keys(baseline).length} schemas written to ${target}`);
