/**
 * Builds the server that `npm start` runs: site/main.ts and everything it imports from this repository, as one
 * JavaScript module (dist/server/main.js, with a source map), the packages of node_modules left to Node.
 *
 * Why: run from the TypeScript sources (node --import tsx, as `npm run dev` and the tests do), a start spends
 * about a second loading tsx and resolving and transforming some two hundred modules before it serves; the
 * built file loads in a fraction of that, which is most of what a restart after a crash costs
 * (`npm run bench:restart`).
 *
 * Modules find their data files (metadata, migrations, the contract) next to their own source, through
 * import.meta.dirname and import.meta.url; in the built file these name the source file each came from, so
 * the build serves from this checkout, like the rest of dist/.
 */
import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = resolve(root, 'dist/server/main.js');

/** import.meta.dirname and import.meta.url of each source module, kept as they are when it runs from source. */
const sourceLocation: Plugin = {
  name: 'source-location',
  setup(builder) {
    builder.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      return {
        contents: text
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
        loader: path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

export async function buildServer(): Promise<void> {
  await build({
    // The worker that runs PGlite (server/db/pglite-worker.ts) is a module of its own beside main.js.
    entryPoints: { main: resolve(root, 'site/main.ts'), 'pglite-worker': resolve(root, 'server/db/pglite-worker.ts') },
    outdir: dirname(SERVER_BUNDLE),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [sourceLocation],
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await buildServer();
