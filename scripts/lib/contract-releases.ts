/**
 * The contract's releases, the pure part (scripts/contract.ts runs it): what changed from one release to the
 * next, as api-smart-diff classifies it (breaking, deprecated, compatible, documentation), whether the new
 * version number says so (semantic versioning: a breaking change raises the major version, an addition the
 * minor one), and the changelog's section of a release.
 *
 * Only changes under `paths` count: a schema in `components` matters to a consumer through the operations
 * that use it, and api-smart-diff reports it there, once for each operation, with the operation's words.
 */
import { apiCompare } from 'api-smart-diff';

export interface Contract {
  info: { version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export type ChangeKind = 'breaking' | 'deprecated' | 'compatible' | 'documentation';

export interface Change {
  kind: ChangeKind;
  /** The operation it is in: `GET /path`, with its operationId where it has one. */
  operation: string;
  /** api-smart-diff's words for it, e.g. "[Removed] query parameter `fields`". */
  description: string;
}

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** A semantic version, MAJOR.MINOR.PATCH (no pre-release or build part); undefined if it is not one. */
export function parseVersion(text: string): Version | undefined {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
  return match ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) } : undefined;
}

/** Negative when a is older than b, 0 when they are the same, positive when a is newer. */
export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

function operationName(contract: Contract, path: string, method: string): string {
  const operation = contract.paths[path]?.[method] as { operationId?: string } | undefined;
  const name = `${method.toUpperCase()} ${path}`;
  return operation?.operationId ? `\`${operation.operationId}\` (${name})` : name;
}

function kindOf(diff: { type: string; action: string; path: (string | number)[] }): ChangeKind {
  // api-smart-diff counts a property the contract never promised (not required) as safe to remove; a consumer
  // that reads it when it comes loses it all the same.
  if (diff.action === 'remove' && diff.path.at(-2) === 'properties') return 'breaking';
  const { type } = diff;
  if (type === 'breaking') return 'breaking';
  if (type === 'deprecated') return 'deprecated';
  if (type === 'annotation') return 'documentation';
  // non-breaking, and what the tool leaves unclassified (an operation's parameter moved in its list): neither
  // takes anything away from a consumer.
  return 'compatible';
}

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
}

/**
 * A copy of the contract with each path's parameters moved into its operations, as OpenAPI defines them: an
 * operation's parameter of the same name and place replaces the path's. api-smart-diff merges them itself but
 * keeps both of such a pair, in an order that differs from one reading to the next, and so finds changes between
 * a contract and itself (GET /lwr/apex/v65.0/{apexClass}/{apexMethod} names its method parameter anew).
 */
function withPathParametersMerged(contract: Contract): Contract {
  const copy = structuredClone(contract);
  const components = (copy.components as { parameters?: Record<string, Parameter> } | undefined)?.parameters ?? {};
  const keyOf = (parameter: Parameter) => {
    const resolved = parameter.$ref ? components[parameter.$ref.replace('#/components/parameters/', '')] : parameter;
    return resolved ? `${resolved.in} ${resolved.name}` : parameter.$ref;
  };
  for (const item of Object.values(copy.paths)) {
    const shared = item.parameters as Parameter[] | undefined;
    if (!shared) continue;
    delete item.parameters;
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const own = ((operation as { parameters?: Parameter[] }).parameters ??= []);
      const named = new Set(own.map(keyOf));
      own.push(...shared.filter((parameter) => !named.has(keyOf(parameter))));
    }
  }
  return copy;
}

/**
 * What changed from `before` to `after`, one entry per operation and description (the same change reached
 * through several schemas is said once). Neither document is changed (api-smart-diff changes its inputs).
 */
export function contractChanges(before: Contract, after: Contract): Change[] {
  const { diffs } = apiCompare(withPathParametersMerged(before), withPathParametersMerged(after));
  const seen = new Set<string>();
  const changes: Change[] = [];
  for (const diff of diffs) {
    const [root, path, method] = diff.path;
    if (root !== 'paths' || typeof path !== 'string') continue;
    const operation =
      typeof method === 'string' && METHODS.has(method)
        ? operationName(diff.action === 'remove' ? before : after, path, method)
        : path;
    const kind = kindOf(diff);
    const description = diff.description?.trim() || `${diff.action} at ${diff.path.slice(3).join('.')}`;
    const key = `${kind} ${operation} ${description}`;
    if (seen.has(key)) continue;
    seen.add(key);
    changes.push({ kind, operation, description });
  }
  return changes;
}

/** The changelog's section of a version: from its `## version` heading to the next `## `, or undefined. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => line === `## ${version}` || line.startsWith(`## ${version} `));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/**
 * What is wrong with releasing `current` after `previous` (none: the release may go): its version must be a
 * semantic version newer than the previous; a breaking change must raise the major version and the changelog
 * must say "Breaking" in the release's section; a compatible change or a deprecation must raise at least the
 * minor version; and the changelog must have a section for the release.
 */
export function releaseProblems(
  previous: Contract | undefined,
  current: Contract,
  changes: Change[],
  changelog: string,
): string[] {
  const problems: string[] = [];
  const version = parseVersion(current.info.version);
  if (!version) return [`info.version "${current.info.version}" is not a semantic version (MAJOR.MINOR.PATCH)`];
  const section = changelogSection(changelog, current.info.version);
  if (!section) problems.push(`CHANGELOG.md has no section "## ${current.info.version}"`);
  if (!previous) return problems;
  const before = parseVersion(previous.info.version);
  if (!before) return [...problems, `the previous release's version "${previous.info.version}" is not semantic`];
  if (compareVersions(version, before) <= 0)
    problems.push(`info.version ${current.info.version} is not newer than the last release, ${previous.info.version}`);
  const breaking = changes.filter((change) => change.kind === 'breaking');
  if (breaking.length > 0) {
    const listed = breaking.map((change) => `  - ${change.operation}: ${change.description}`).join('\n');
    if (version.major <= before.major)
      problems.push(
        `${breaking.length} breaking change(s) since ${previous.info.version}, but the major version is not raised:\n${listed}`,
      );
    else if (section && !/breaking/i.test(section))
      problems.push(`the changelog's section of ${current.info.version} does not say what breaks ("Breaking")`);
  }
  const additions = changes.some((change) => change.kind === 'compatible' || change.kind === 'deprecated');
  if (additions && version.major === before.major && version.minor <= before.minor)
    problems.push(
      `the contract gains operations, parameters, properties or deprecations since ${previous.info.version}: raise at least the minor version`,
    );
  return problems;
}

const HEADINGS: Record<ChangeKind, string> = {
  breaking: 'Breaking',
  deprecated: 'Deprecated',
  compatible: 'Added and changed',
  documentation: 'Documentation',
};

/**
 * The changelog section of a release, from its changes: a heading with the version and date, the text kept
 * from an earlier section of the same version (`kept`, the sentences written by hand above its lists), then
 * the changes by kind, each line an operation and what changed in it. Documentation changes are counted, not
 * listed.
 */
export function sectionOf(
  current: Contract,
  previous: Contract | undefined,
  changes: Change[],
  date: string,
  kept = '',
): string {
  const lines = [`## ${current.info.version} (${date})`, ''];
  if (kept.trim()) lines.push(kept.trim(), '');
  if (!previous) {
    const operations = Object.values(current.paths).flatMap((item) =>
      Object.keys(item).filter((method) => METHODS.has(method)),
    ).length;
    lines.push(`The first release: ${operations} operations.`, '');
    return lines.join('\n');
  }
  if (changes.length === 0) lines.push(`No change since ${previous.info.version}.`, '');
  for (const kind of ['breaking', 'deprecated', 'compatible'] as const) {
    const ofKind = changes.filter((change) => change.kind === kind);
    if (ofKind.length === 0) continue;
    lines.push(`### ${HEADINGS[kind]}`, '');
    for (const change of ofKind) lines.push(`- ${change.operation}: ${change.description}`);
    lines.push('');
  }
  const documentation = changes.filter((change) => change.kind === 'documentation').length;
  if (documentation > 0)
    lines.push(`### ${HEADINGS.documentation}`, '', `- ${documentation} change(s) to descriptions and examples.`, '');
  return lines.join('\n');
}

/** The hand-written text of a section: its lines after the heading, before its first `### ` list. */
export function handWritten(section: string): string {
  const lines = section.split('\n').slice(1);
  const end = lines.findIndex((line) => line.startsWith('### '));
  const text = lines
    .slice(0, end < 0 ? undefined : end)
    .join('\n')
    .trim();
  // A generated sentence is not kept: it is written again from the changes.
  return text
    .split('\n')
    .filter((line) => !/^(The first release: \d+ operations\.|No change since \S+\.)$/.test(line))
    .join('\n')
    .trim();
}

/** The changelog with the section of a release in place: replacing its section, or first after the title. */
export function withSection(changelog: string, version: string, section: string): string {
  const existing = changelogSection(changelog, version);
  if (existing) return changelog.replace(existing, section.trimEnd() + '\n');
  const lines = changelog.split('\n');
  const first = lines.findIndex((line) => line.startsWith('## '));
  if (first < 0) return `${changelog.trimEnd()}\n\n${section.trimEnd()}\n`;
  return [...lines.slice(0, first), section.trimEnd(), '', ...lines.slice(first)].join('\n');
}
