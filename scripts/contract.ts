/**
 * The contract's releases: npm run contract:check, and npm run contract:release.
 *
 * Every contract on main is a release: `info.version` (semantic) names it, and its bundle is kept as
 * openapi/releases/<version>.json, so that the next change is compared with what consumers have.
 *
 * - `check` (CI, after npm run generate): the bundle (generated/openapi.json) must be its version's release copy,
 *   unchanged; and that release, compared with the one before it by api-smart-diff, must raise its version as
 *   its changes require (scripts/lib/contract-releases.ts: a breaking change raises the major version and the
 *   changelog says "Breaking"), with its section in CHANGELOG.md. Exits 1 with what is wrong.
 * - `release` (after raising info.version and npm run generate): writes the bundle as its version's release
 *   copy and the version's CHANGELOG.md section from the changes since the release before (keeping the
 *   sentences written by hand above its lists), then checks as `check` does.
 *
 * `--releases DIR` and `--changelog FILE` name other places (the tests use copies).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import {
  changelogSection,
  compareVersions,
  contractChanges,
  handWritten,
  parseVersion,
  releaseProblems,
  sectionOf,
  withSection,
  type Contract,
} from './lib/contract-releases.ts';

const root = resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    contract: { type: 'string', default: resolve(root, 'generated/openapi.json') },
    releases: { type: 'string', default: resolve(root, 'openapi/releases') },
    changelog: { type: 'string', default: resolve(root, 'CHANGELOG.md') },
  },
});
const command = positionals[0];
if (command !== 'check' && command !== 'release') {
  console.error('usage: tsx scripts/contract.ts check|release [--contract F] [--releases DIR] [--changelog F]');
  process.exit(2);
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Contract;
const current = readJson(values.contract);
const version = current.info.version;
if (!parseVersion(version)) {
  console.error(`contract: info.version "${version}" is not a semantic version (MAJOR.MINOR.PATCH)`);
  process.exit(1);
}

/** The release copies, oldest first. */
function releases(): { version: string; path: string }[] {
  if (!existsSync(values.releases)) return [];
  return readdirSync(values.releases)
    .map((file) => ({ file, parsed: parseVersion(file.replace(/\.json$/, '')) }))
    .filter((entry) => entry.file.endsWith('.json') && entry.parsed)
    .sort((a, b) => compareVersions(a.parsed!, b.parsed!))
    .map((entry) => ({ version: entry.file.replace(/\.json$/, ''), path: join(values.releases, entry.file) }));
}

const changelogText = () => (existsSync(values.changelog) ? readFileSync(values.changelog, 'utf8') : '# Changelog\n');
const own = join(values.releases, `${version}.json`);
const before = releases().filter(
  (release) => compareVersions(parseVersion(release.version)!, parseVersion(version)!) < 0,
);
const previousRelease = before.at(-1);
const previous = previousRelease ? readJson(previousRelease.path) : undefined;
const started = performance.now();
const changes = previous ? contractChanges(previous, current) : [];
const took = `${Math.round(performance.now() - started)} ms`;

const counts = ['breaking', 'deprecated', 'compatible', 'documentation']
  .map((kind) => `${changes.filter((change) => change.kind === kind).length} ${kind}`)
  .join(', ');
console.log(
  previous
    ? `contract: ${version} against ${previous.info.version}: ${counts} (compared in ${took})`
    : `contract: ${version}, the first release`,
);

/** Says what is wrong and exits 1, if anything is. */
function refuse(problems: string[]): void {
  if (problems.length === 0) return;
  for (const problem of problems) console.error(`contract: ${problem}`);
  process.exit(1);
}

if (command === 'release') {
  const changelog = changelogText();
  const kept = handWritten(changelogSection(changelog, version) ?? `## ${version}`);
  const date = new Date().toISOString().slice(0, 10);
  const written = withSection(changelog, version, sectionOf(current, previous, changes, date, kept));
  // A release the check would refuse is not written: nothing is left to undo.
  refuse(releaseProblems(previous, current, changes, written).map((problem) => `not released: ${problem}`));
  mkdirSync(values.releases, { recursive: true });
  writeFileSync(own, JSON.stringify(current, null, 2) + '\n');
  writeFileSync(values.changelog, written);
  console.log(`contract: wrote ${own} and the ${version} section of ${values.changelog}`);
}

const problems: string[] = [];
const newest = releases().at(-1);
if (!existsSync(own))
  problems.push(
    `no release copy of ${version} (${own}): raise info.version if it is released, then npm run contract:release`,
  );
else if (!isDeepStrictEqual(readJson(own), current))
  problems.push(
    `the contract differs from its release copy ${own}: raise info.version (the release ${version} is kept as it was), npm run generate, then npm run contract:release`,
  );
if (newest && compareVersions(parseVersion(newest.version)!, parseVersion(version)!) > 0)
  problems.push(`a newer release than ${version} is kept (${newest.path})`);
problems.push(...releaseProblems(previous, current, changes, changelogText()));

refuse(problems);
console.log(`contract: ${version} may be released`);
