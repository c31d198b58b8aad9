/**
 * Builds the Redoc page of the contract into dist/docs/: index.html and the Redoc script it loads from the
 * server (/docs/redoc.standalone.js, the copy @redocly/cli ships) rather than from a CDN, so that the page
 * works offline and loads nothing from another site, which its Content-Security-Policy would refuse anyway.
 *
 * - Addresses: Redoc's history router under /docs, so that every link of the page (/docs/storefront,
 *   /docs/storefront/getdefaultcontacts ...) is an address the server answers with the page
 *   (server/app.ts), in a new tab too.
 * - No telemetry (REDOCLY_TELEMETRY=off in scripts/lib/redocly.ts sets the page's disableTelemetry).
 * - The "API docs by" badge's logo, which Redoc loads from its CDN, is drawn in the script itself.
 * - The changelog (CHANGELOG.md) is the last section of the description.
 * - Security: Redoc leaves an empty requirement ({}: no credentials) out, so an operation a guest may call
 *   would read "Security: sessionCookie". The page's copy of the contract names that alternative `guest`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  contractForDocs,
  docsAddresses,
  DOCS_ADDRESSES,
  linksUnderBase,
  withChangelog,
  type Contract,
} from './lib/docs-page.ts';
import { runRedocly } from './lib/redocly.ts';

const root = resolve(import.meta.dirname, '..');
const CONTRACT = resolve(root, 'generated/openapi.json');
const CHANGELOG = resolve(root, 'CHANGELOG.md');
const OUT = resolve(root, 'dist/docs');
const output = resolve(OUT, 'index.html');
const SCRIPT = '/docs/redoc.standalone.js';
const DOCS_BASE = '/docs';

/** Redoc's badge logos, from its CDN; here small drawings in the script itself (the policy allows data: images). */
const LOGOS: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 12" width="50" height="12"><text x="0" y="10" textLength="49" lengthAdjust="spacingAndGlyphs" font-family="system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif" font-size="11" font-weight="700" fill="#0044d4">Redocly</text></svg>',
  'https://cdn.redoc.ly/redoc/logo-mini.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 14 14" width="14" height="14"><rect width="14" height="14" rx="3" fill="#0044d4"/><text x="7" y="11" text-anchor="middle" font-family="system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif" font-size="10" font-weight="700" fill="#fff">R</text></svg>',
};

function replaceOrFail(text: string, search: string | RegExp, replacement: string, what: string): string {
  const found = typeof search === 'string' ? text.includes(search) : search.test(text);
  if (!found) throw new Error(`${what} not found: @redocly/cli changed, update scripts/docs.ts`);
  return typeof search === 'string' ? text.split(search).join(replacement) : text.replace(search, replacement);
}

/** The Redoc script with its logos drawn in: no request to another site. */
function standaloneScript(): string {
  let script = readFileSync(resolve(root, 'node_modules/@redocly/cli/lib/chunks/redoc.standalone.js'), 'utf8');
  for (const [url, svg] of Object.entries(LOGOS))
    script = replaceOrFail(script, url, `data:image/svg+xml,${encodeURIComponent(svg)}`, `Redoc's logo ${url}`);
  return script;
}

function build(): void {
  const work = mkdtempSync(join(tmpdir(), 'storefront-docs-'));
  try {
    const contract = contractForDocs(
      withChangelog(JSON.parse(readFileSync(CONTRACT, 'utf8')) as Contract, readFileSync(CHANGELOG, 'utf8')),
    );
    const input = join(work, 'openapi.json');
    writeFileSync(input, JSON.stringify(contract));
    mkdirSync(OUT, { recursive: true });
    runRedocly([
      'build-docs',
      input,
      '--output',
      output,
      '--openapi.router=history',
      `--openapi.basePath=${DOCS_BASE}`,
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const script = standaloneScript();
  writeFileSync(resolve(OUT, 'redoc.standalone.js'), script);
  const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
  let html = readFileSync(output, 'utf8');
  html = replaceOrFail(
    html,
    /https:\/\/cdn\.redocly\.com\/redoc\/v[0-9.]+\/bundles\/redoc\.standalone\.js/g,
    SCRIPT,
    'The CDN address of redoc.standalone.js',
  );
  html = replaceOrFail(
    html,
    /integrity="sha384-[^"]+"/,
    `integrity="${integrity}"`,
    'The integrity of redoc.standalone.js',
  );
  html = replaceOrFail(
    html,
    '</title>',
    '</title>\n  <link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    'The <title>',
  );
  html = linksUnderBase(html, DOCS_BASE);
  writeFileSync(output, html);
  // The server answers the page at these addresses only, and 404 at any other under /docs.
  const addresses = docsAddresses(html, JSON.parse(readFileSync(CONTRACT, 'utf8')) as Contract, DOCS_BASE);
  writeFileSync(resolve(OUT, DOCS_ADDRESSES), `${JSON.stringify(addresses, null, 2)}\n`);
  console.log(`docs: ${output}`);
}

build();
