// @ts-check
/**
 * What `npm start` builds: nothing when the build in dist/ was made from the files as they are now.
 *
 *   node scripts/build-stamp.js clear    (npm run build, first) forgets the stamp: a build that stops half-way
 *                                        leaves none
 *   node scripts/build-stamp.js write    (npm run build, last) stamps dist/ with the digest of its inputs
 *   node scripts/build-stamp.js ensure   (npm start) runs npm run build unless the stamp is that of the inputs
 *
 * The inputs are every file of the repository but node_modules/, dist/, tests/, .git and other names that begin
 * with a dot (the data directories): the sources, the contract, the scripts the build runs, package.json and
 * package-lock.json (which stand for node_modules). Their digest is a SHA-256 over their paths and contents, so
 * that a checkout that changes no file's content builds nothing, and a change anywhere builds everything.
 *
 * Plain JavaScript, run by node itself: through tsx, the check alone would cost a second of the three a second
 * start may take.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
/** Top-level folders that are not inputs of the build. */
const NOT_INPUTS = new Set(['node_modules', 'dist', 'tests']);
/** What a build makes and a start needs: without one of them, the stamp says nothing. */
const OUTPUTS = [
  'dist/server/main.js',
  'dist/web/.vite/manifest.json',
  'dist/web/.vite/back-office-manifest.json',
  'dist/docs/index.html',
];

/**
 * The digest of the build's inputs under root (the rule above), in hex.
 * @param {string} root
 * @returns {string}
 */
export function inputsDigest(root) {
  const hash = createHash('sha256');
  /** @param {string} folder */
  const walk = (folder) => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (folder === root && NOT_INPUTS.has(entry.name)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const content = readFileSync(path);
        hash.update(`${relative(root, path)}\0${content.byteLength}\0`).update(content);
      }
    }
  };
  walk(root);
  return hash.digest('hex');
}

/** @param {string} root */
const stampPath = (root) => join(root, 'dist', 'build-inputs.sha256');

/**
 * Whether the build in root's dist/ was made from the inputs as they are: its stamp is their digest, and what a
 * start needs is there.
 * @param {string} root
 * @returns {boolean}
 */
export function buildIsCurrent(root) {
  if (!OUTPUTS.every((output) => existsSync(join(root, output)))) return false;
  const stamp = existsSync(stampPath(root)) ? readFileSync(stampPath(root), 'utf8').trim() : '';
  return stamp === inputsDigest(root);
}

/** @param {string} root */
export function writeStamp(root) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(stampPath(root), `${inputsDigest(root)}\n`);
}

/** @param {string} root */
export function clearStamp(root) {
  rmSync(stampPath(root), { force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'clear') clearStamp(ROOT);
  else if (command === 'write') writeStamp(ROOT);
  else if (command === 'ensure') {
    if (buildIsCurrent(ROOT)) {
      console.log('start: the build in dist/ is current (no source changed since it was made); not building');
    } else {
      console.log('start: building (no build yet, or a source changed since the last one)');
      const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
      if (build.status !== 0) process.exit(build.status ?? 1);
    }
  } else {
    console.error('usage: node scripts/build-stamp.js clear|write|ensure');
    process.exit(2);
  }
}
