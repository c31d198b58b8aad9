/** The pure parts of the docs build (scripts/docs.ts): the contract as the page shows it, its links. */
import { codeSamples } from './code-samples.ts';

type Requirement = Record<string, string[]>;
export interface Contract {
  info?: { description?: string; [key: string]: unknown };
  security?: Requirement[];
  paths: Record<string, Record<string, { security?: Requirement[] } | unknown>>;
  components: { securitySchemes?: Record<string, unknown>; parameters?: Record<string, Documented> };
}

interface Invalidation {
  operationId: string;
  match?: Record<string, string>;
}

/** What a write's success makes stale in a client's cache (its x-invalidates), in words the page shows. */
export function invalidationText(invalidates: Invalidation[] | 'all'): string {
  if (invalidates === 'all') return '**Makes stale in a client cache:** every cached answer (the caller changes).';
  if (invalidates.length === 0) return '**Makes stale in a client cache:** nothing.';
  const entries = invalidates.map(({ operationId, match }) => {
    const on = Object.entries(match ?? {}).map(([parameter, source]) => `${parameter} = ${source}`);
    return on.length ? `\`${operationId}\` (${on.join(', ')})` : `\`${operationId}\` (all)`;
  });
  return `**Makes stale in a client cache** (x-invalidates): ${entries.join(', ')}.`;
}

/**
 * The contract with its changelog (CHANGELOG.md) at the end of its description, a section of the page: the
 * changelog's title gives way to a "Changelog" heading, and its headings go one level down under it.
 */
export function withChangelog(contract: Contract, changelog: string): Contract {
  const body = changelog
    .replace(/^# .*\n/, '')
    .replace(/^(#{2,5}) /gm, '#$1 ')
    .trim();
  const copy = structuredClone(contract);
  copy.info = { ...copy.info, description: `${copy.info?.description?.trimEnd() ?? ''}\n\n## Changelog\n\n${body}\n` };
  return copy;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const GUEST_SCHEME = 'guest';

/**
 * The contract as the page shows it: every operation a guest may call (its security, or the document's,
 * lists {}) lists the `guest` scheme instead, which says what {} means; every operation shows its example as a
 * call of the generated client and as curl (x-codeSamples, scripts/lib/code-samples.ts); a deprecated operation
 * or parameter says since when and the day it goes (deprecationText).
 */
/** What a deprecated operation or parameter says of it on the page; undefined when it is not deprecated. */
export function deprecationText(node: {
  deprecated?: boolean;
  'x-deprecated-since'?: string;
  'x-sunset'?: string;
}): string | undefined {
  if (node.deprecated !== true) return undefined;
  const sunset = node['x-sunset'] ? `, and goes on ${node['x-sunset']} (the \`Sunset\` header)` : '';
  return `**Deprecated** since ${node['x-deprecated-since']}${sunset}: its answers carry \`Deprecation\` and a \`Link\` to this page.`;
}

type Documented = { description?: string; deprecated?: boolean; 'x-deprecated-since'?: string; 'x-sunset'?: string };

function withDeprecationText(node: Documented): void {
  const text = deprecationText(node);
  if (text) node.description = `${text}\n\n${node.description ?? ''}`.trim();
}

export function contractForDocs(contract: Contract): Contract {
  const samples = codeSamples(contract as unknown as Record<string, unknown>);
  const copy = structuredClone(contract);
  const forDocs = (security: Requirement[]) =>
    security.map((requirement) => (Object.keys(requirement).length ? requirement : { [GUEST_SCHEME]: [] }));
  copy.components.securitySchemes = {
    [GUEST_SCHEME]: {
      type: 'none',
      description:
        'No credentials: a visitor who has not signed in calls the operation as the site guest user (profile Contact Us Profile).',
    },
    ...copy.components.securitySchemes,
  };
  if (copy.security) copy.security = forDocs(copy.security);
  for (const parameter of Object.values(copy.components.parameters ?? {})) withDeprecationText(parameter);
  for (const item of Object.values(copy.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const op = operation as {
        security?: Requirement[];
        operationId?: string;
        description?: string;
        'x-codeSamples'?: unknown;
        'x-invalidates'?: Invalidation[] | 'all';
        parameters?: Documented[];
      } & Documented;
      if (op.security) op.security = forDocs(op.security);
      withDeprecationText(op);
      for (const parameter of op.parameters ?? []) withDeprecationText(parameter);
      if (op['x-invalidates'] !== undefined)
        op.description = `${op.description ?? ''}\n\n${invalidationText(op['x-invalidates'])}`.trim();
      if (op.operationId && samples.has(op.operationId)) op['x-codeSamples'] = samples.get(op.operationId);
    }
  }
  return copy;
}

/**
 * The prerendered page's links made what Redoc renders under the base path, so that hydration keeps them
 * (React does not correct attributes while hydrating) and they answer when opened on their own.
 */
export function linksUnderBase(html: string, base: string): string {
  const start = html.indexOf('<div id="redoc">');
  const end = html.indexOf('<script type="module">', start);
  if (start < 0 || end < 0)
    throw new Error('The Redoc page has no prerendered <div id="redoc">: update scripts/docs.ts');
  const body = html
    .slice(start, end)
    .replace(/\bhref="\/(?!\/)([^"]*)"/g, (_match, path: string) => `href="${base}${path ? `/${path}` : ''}"`);
  return html.slice(0, start) + body + html.slice(end);
}

/** The file, beside the page in dist/docs/, that lists the page's addresses (docsAddresses). */
export const DOCS_ADDRESSES = 'addresses.json';

/** Redoc's slug of a group's name: lower case, words joined with hyphens ("Related lists" → related-lists). */
const slug = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Every address the docs page has under its base: the page, each section and group it links to, and each
 * operation (/docs/{group}/{operationid}). The server answers any other address under the base with 404.
 */
export function docsAddresses(html: string, contract: Contract, base: string): string[] {
  const addresses = new Set([base]);
  for (const [, path] of html.matchAll(/\bhref="([^"#?]*)"/g))
    if (path.startsWith(`${base}/`) && !path.endsWith('.js')) addresses.add(path);
  for (const item of Object.values(contract.paths))
    for (const [method, operation] of Object.entries(item)) {
      const op = operation as { operationId?: string; tags?: string[] };
      if (!METHODS.has(method) || !op.operationId) continue;
      for (const tag of op.tags ?? []) addresses.add(`${base}/${slug(tag)}/${op.operationId.toLowerCase()}`);
    }
  return [...addresses].sort();
}
