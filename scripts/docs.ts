/**
 * Builds the Redoc page of the contract into dist/docs/index.html. The page loads Redoc from the server
 * (/docs/redoc.standalone.js, the copy @redocly/cli ships) rather than from a CDN, so that it works offline.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const output = resolve(root, 'dist/docs/index.html');
execFileSync(resolve(root, 'node_modules/.bin/redocly'), ['build-docs', 'generated/openapi.json', '--output', output], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const html = readFileSync(output, 'utf8');
const cdn = /https:\/\/cdn\.redocly\.com\/redoc\/v[0-9.]+\/bundles\/redoc\.standalone\.js/g;
if (!cdn.test(html)) throw new Error('The Redoc page no longer loads redoc.standalone.js from the CDN: update scripts/docs.ts');
writeFileSync(output, html.replace(cdn, '/docs/redoc.standalone.js'));
copyFileSync(resolve(root, 'node_modules/@redocly/cli/lib/chunks/redoc.standalone.js'), resolve(root, 'dist/docs/redoc.standalone.js'));
console.log(`docs: ${output}`);
