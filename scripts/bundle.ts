/** Bundles the split contract into the one file every other tool reads: generated/openapi.json. */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const redocly = resolve(root, 'node_modules/.bin/redocly');
execFileSync(redocly, ['bundle', 'openapi/openapi.yaml', '--output', 'generated/openapi.json', '--ext', 'json'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
