/**
 * API coverage, per tag of the contract: the operations, those the server implements, those answering 501,
 * and those the contract tests exercised — measured from the call log the last test run wrote
 * (dist/coverage/api-calls.jsonl, see tests/support/api-calls.ts), not guessed.
 *
 *   npm test && npm run coverage:api
 *
 * Implemented: createApp(db).implementedOperations over an in-memory PGlite. Exercised: called on the real
 * server at least once with an answer other than 501 (calls of the Prism mock and 501 answers do not count).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { operationTable, tags } from '../generated/operations.ts';
import { createApp } from '../server/app.ts';
import { openDatabase } from '../server/bootstrap.ts';

const root = resolve(import.meta.dirname, '..');
const CALLS = resolve(root, 'dist/coverage/api-calls.jsonl');

interface Operation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
}
interface Call {
  operationId: string;
  method: string;
  status: number;
  target?: string;
}

function contractOperations(): { operations: Operation[]; tagOrder: string[] } {
  const operations = Object.entries(operationTable).map(([operationId, { method, path, tag }]) => ({
    operationId,
    method: method.toUpperCase(),
    path,
    tag,
  }));
  const used = [...new Set(operations.map((operation) => operation.tag))].filter(
    (tag) => !(tags as readonly string[]).includes(tag),
  );
  return { operations, tagOrder: [...tags, ...used] };
}

function readCalls(): Call[] {
  if (!existsSync(CALLS)) {
    console.error(`No call log at ${relative(root, CALLS)}: run npm test first.`);
    process.exit(1);
  }
  const calls: Call[] = [];
  for (const [index, line] of readFileSync(CALLS, 'utf8').split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      calls.push(JSON.parse(line) as Call);
    } catch {
      console.error(`${relative(root, CALLS)}:${index + 1} is not a JSON line: ${line.slice(0, 120)}`);
      process.exit(1);
    }
  }
  return calls;
}

async function implementedOperations(): Promise<ReadonlySet<string>> {
  // A throwaway database: the passwords of its demo users are of no use to anyone, so they are not shown.
  const db = await openDatabase({ dataDir: ':memory:', demoContacts: 0 }, { log: () => {} });
  try {
    return new Set(createApp(db).implementedOperations);
  } finally {
    await db.close();
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.slice(0, -1).map(line), rule, line(rows[rows.length - 1])].join('\n');
}

async function main() {
  const calls = readCalls();
  const { operations, tagOrder } = contractOperations();
  const implemented = await implementedOperations();
  const exercised = new Set(
    calls
      .filter((call) => (call.target ?? 'server') === 'server' && call.status !== 501)
      .map((call) => call.operationId),
  );
  const mocked = new Set(calls.filter((call) => call.target === 'mock').map((call) => call.operationId));

  const count = (list: Operation[]) => {
    const served = list.filter((operation) => implemented.has(operation.operationId));
    return [
      String(list.length),
      String(served.length),
      String(list.length - served.length),
      String(list.filter((operation) => exercised.has(operation.operationId)).length),
      String(list.filter((operation) => mocked.has(operation.operationId)).length),
    ];
  };
  const rows = tagOrder.map((tag) => [tag, ...count(operations.filter((operation) => operation.tag === tag))]);
  rows.push(['Total', ...count(operations)]);

  const logged = statSync(CALLS);
  console.log(
    `API coverage: ${operations.length} operations in the contract; ${calls.length} calls logged by the last test run (last call at ${logged.mtime.toISOString()})`,
  );
  console.log('');
  console.log(table(['Tag', 'Operations', 'Implemented', 'Answer 501', 'Exercised', 'Mocked'], rows));
  console.log('');
  console.log(
    'Exercised: called on the real server by the contract tests with an answer other than 501. Mocked: called on the Prism mock.',
  );

  const notImplemented = operations.filter((operation) => !implemented.has(operation.operationId));
  console.log('');
  console.log(`Answering 501 (${notImplemented.length}):`);
  for (const tag of tagOrder) {
    const ids = notImplemented.filter((operation) => operation.tag === tag).map((operation) => operation.operationId);
    if (ids.length > 0) console.log(`  ${`${tag}:`.padEnd(16)} ${ids.join(', ')}`);
  }
  if (notImplemented.length === 0) console.log('  (none)');

  const untested = operations.filter(
    (operation) => implemented.has(operation.operationId) && !exercised.has(operation.operationId),
  );
  if (untested.length > 0) {
    console.log('');
    console.log(
      `Implemented but not exercised (${untested.length}): ${untested.map((operation) => operation.operationId).join(', ')}`,
    );
  }
  const unknown = [...new Set(calls.map((call) => call.operationId))].filter(
    (id) => !operations.some((operation) => operation.operationId === id),
  );
  if (unknown.length > 0) {
    console.log('');
    console.log(`Logged calls of operations the contract does not have: ${unknown.join(', ')}`);
  }
}

await main();
