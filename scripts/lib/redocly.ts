/**
 * Runs the Redocly CLI the way every script here does: from the project root, without its telemetry (this
 * machine's network refuses it, and each run would wait for it) or its update notice, and without the two
 * boxed notices it prints on every run that nobody here can act on: Node.js 20's end of support (Node 20 is
 * what every machine has, see design.md) and build-docs' switch to Redoc 3 (done: docs.ts is written for
 * it). @redocly/cli 2.77 prints both unconditionally, so they are taken out of its output here; every
 * other line of it, and all of it when the command fails, reaches the terminal.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const redocly = resolve(root, 'node_modules/.bin/redocly');

/** REDOCLY_TELEMETRY also sets what build-docs writes into the page (disableTelemetry). */
export const REDOCLY_ENV = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
};

/** The notices that are dropped: a box (╔ … ╚) whose text matches one of these. */
const NOTICES = [/Node\.js 20 support is ending/, /build-docs now renders docs with Redoc 3/];

/** The output without the boxed notices above, and without the blank lines that framed them. */
export function withoutNotices(output: string): string {
  const kept: string[] = [];
  let box: string[] | undefined;
  for (const line of output.split('\n')) {
    if (box) {
      box.push(line);
      if (line.trimStart().startsWith('╚')) {
        if (!NOTICES.some((notice) => notice.test(box!.join('\n')))) kept.push(...box);
        box = undefined;
      }
    } else if (line.trimStart().startsWith('╔')) box = [line];
    else kept.push(line);
  }
  if (box) kept.push(...box);
  return kept
    .join('\n')
    .replace(/^\s*\n/, '')
    .replace(/\n{3,}/g, '\n\n');
}

/** Runs `redocly <args>`; its standard output is dropped unless `stdout` is asked for. Throws when it fails. */
export function runRedocly(args: string[], options: { stdout?: 'inherit' } = {}): void {
  const result = spawnSync(redocly, args, {
    cwd: root,
    env: { ...process.env, ...REDOCLY_ENV },
    stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  const stderr = withoutNotices(result.stderr ?? '');
  if (stderr.trim()) process.stderr.write(stderr.endsWith('\n') ? stderr : `${stderr}\n`);
  if (result.status !== 0) throw new Error(`redocly ${args[0]} failed (exit code ${result.status ?? result.signal})`);
}
