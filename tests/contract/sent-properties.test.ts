/**
 * Required means always sent, both ways. The contract files before this one (it runs last, in a group
 * of its own: vitest.config.ts) recorded, for every JSON answer of the server, which declared properties each
 * object carried, by the object's schema (tests/support/api-calls.ts). Here the recording is compared:
 *
 * - with the contract: a required property some answer lacked fails, per schema, with where;
 * - with the platform reference: an optional property every answer carried (over MIN_ANSWERS answers) is
 *   reported, unless the reference's v55 field lists leave it out or mark it optional (then optional is the
 *   rule) or the allow-list below gives the reason it stays optional;
 * - with the baseline (sent-properties.json, npm run baseline:sent-properties): a property the server always
 *   sent is noticed when some answer lacks it, even where the contract lets it be optional.
 *
 * Skipped when the recording lacks a contract file (one file run alone): the comparison needs them all.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sentPropertiesLog } from '../support/api-calls.ts';
import { contract } from '../support/contract.ts';
import {
  aggregate,
  compare,
  contractFiles,
  filesNotRun,
  MIN_ANSWERS,
  parseRecording,
  platformAlwaysSent,
  type Baseline,
  type PlatformRepresentation,
} from '../support/sent-properties.ts';

const BASELINE = resolve(import.meta.dirname, 'sent-properties.json');

/**
 * Optional properties the server always sends in this suite's answers that stay optional, by
 * `<schema>.<property>`, with the reason: for schemas the v55 field lists do not describe (this product's
 * own, Connect REST, the UI API after v55, objects nested inside a representation), and, against those lists,
 * only with the evidence.
 */
const ALLOWED: Record<string, string> = {
  // Connect REST's media source is not in the reference; a file that is not a picture has no size in pixels,
  // and every answer here is of the one banner picture.
  'ManagedContentDeliveryDocument/properties/contentBody/properties/sfdc_cms:media/properties/source.height':
    'a picture only',
  'ManagedContentDeliveryDocument/properties/contentBody/properties/sfdc_cms:media/properties/source.width':
    'a picture only',
  // The v55 list (LDS RAML) has these four, but the platform's server sends only id and sectionUserStates:
  // the platform's client adds the rest from the request (see the schema's description, and getRecordUi).
  'RecordLayoutUserStateRepresentation.apiName': "added by the platform's client",
  'RecordLayoutUserStateRepresentation.layoutType': "added by the platform's client",
  'RecordLayoutUserStateRepresentation.mode': "added by the platform's client",
  'RecordLayoutUserStateRepresentation.recordTypeId': "added by the platform's client",
};

const log = sentPropertiesLog();
const lines = existsSync(log) ? parseRecording(readFileSync(log, 'utf8')) : [];
const notRun = filesNotRun(lines, contractFiles(readdirSync(import.meta.dirname)));
const partial = notRun.length > 0;
if (partial)
  console.warn(
    `sent properties: not compared, the recording ${log} lacks ${notRun.length} contract files (${notRun.slice(0, 3).join(', ')}${notRun.length > 3 ? ' ...' : ''}); run every contract file (npm test), or name one recording for all the runs in SENT_PROPERTIES_RUN_LOG`,
  );

const representations = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../support/uiapi-v55-fields.json'), 'utf8')) as {
    representations: Record<string, PlatformRepresentation>;
  }
).representations;

describe.skipIf(partial)('required means always sent: what the answers carried, per schema', () => {
  const observed = aggregate(lines);
  const baseline: Baseline = existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline) : {};
  const findings = compare(contract, observed, {
    baseline,
    minAnswers: MIN_ANSWERS,
    allowed: ALLOWED,
    platformAlwaysSent: (component) => platformAlwaysSent(representations, component),
  });
  if (findings.notes.length > 0)
    console.info(
      `sent properties, to note (npm run baseline:sent-properties takes them in):\n${findings.notes.join('\n')}`,
    );

  it('has the answers of the contract files, and a baseline', () => {
    expect(observed.size, 'object schemas the answers had').toBeGreaterThan(50);
    expect(existsSync(BASELINE), `${BASELINE}: make it with npm run baseline:sent-properties`).toBe(true);
  });

  it('sends every required property in every answer', () => {
    expect(findings.requiredMissing, 'make them optional, or have the server send them').toEqual([]);
  });

  it('requires what the server always sends where the platform always sends it', () => {
    // The other optional properties the server always sent are reported, not failed: whether one was sent in
    // every answer depends on which answers a run made (the PostgreSQL run adds some), and the platform
    // reference does not describe their schemas.
    if (findings.optionalAlwaysSent.length)
      console.warn(
        'Optional and always sent (make each required if the platform always sends it, or give its reason in ALLOWED):\n' +
          findings.optionalAlwaysSent.join('\n'),
      );
    expect(
      findings.requiredByPlatform,
      'the reference says the platform always sends these: make them required',
    ).toEqual([]);
  });

  it('still sends what the baseline says it always sent', () => {
    expect(
      findings.stoppedSending,
      'the server stopped sending these in some answer: fix the server, or refresh the baseline on purpose (npm run baseline:sent-properties)',
    ).toEqual([]);
  });

  it('allows nothing stale', () => {
    expect(findings.staleAllowed, 'ALLOWED names a property that is not optional and always sent').toEqual([]);
  });
});
