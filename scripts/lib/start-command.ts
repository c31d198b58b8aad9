/**
 * How `npm start` runs the built server, read from package.json's start script (its last command: the environment
 * it sets, then node and its arguments), so that every benchmark and test that starts the built server runs it
 * the same way: `spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } })`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface StartCommand {
  /** The variables the start script sets (NODE_ENV, MALLOC_ARENA_MAX). */
  env: Record<string, string>;
  /** node's arguments: its options and the built server's file, relative to ROOT. */
  args: string[];
}

/** The last command of a start script such as `node scripts/build-stamp.js ensure && NAME=value node …`. */
export function parseStartScript(script: string): StartCommand {
  const words = script.split('&&').at(-1)!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let word = words.shift();
  for (; word !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(word); word = words.shift()) {
    const at = word.indexOf('=');
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  if (word !== 'node' || words.length === 0)
    throw new Error(`The start script's last command does not run node on a file: ${script}`);
  return { env, args: words };
}

/** package.json's start script, parsed. */
export function startCommand(): StartCommand {
  const { scripts } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return parseStartScript(scripts.start);
}
