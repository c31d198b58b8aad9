/**
 * Builds the client package (client/package.json) into client/dist: the core entry (dist/index.js) and the
 * React entry (dist/react.js) as ES modules, with what they share in a chunk of its own, and their
 * declarations (dist/types). openapi-fetch, React and TanStack Query are left to the installing project.
 * `npm pack` in client/ then makes the tarball others install.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const client = resolve(root, 'client');

export async function buildClient(): Promise<void> {
  rmSync(resolve(client, 'dist'), { recursive: true, force: true });
  await build({
    entryPoints: { index: resolve(client, 'index.ts'), react: resolve(client, 'react.ts') },
    outdir: resolve(client, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    external: ['openapi-fetch', '@tanstack/react-query', 'react'],
    logLevel: 'warning',
  });
  execFileSync(resolve(root, 'node_modules/.bin/tsc'), ['-p', resolve(client, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildClient();
