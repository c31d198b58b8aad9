/**
 * The contract fuzzer: for every operation of the contract, requests derived from it (tests/fuzz/cases.ts),
 * each sent as a guest and as the signed-in administrator, on PGlite and, with TEST_DATABASE_URL, on
 * PostgreSQL. Every answer must be below 500, of a status the operation declares, with a body valid against
 * the contract; on PostgreSQL, a write answered with anything but 2xx must leave the database as it was
 * (a digest of every table but the sessions', taken before and, when some transaction id was given out
 * meanwhile, after). Bounded in time per database (FUZZ_BUDGET_MS, default 110 s); prints how many requests it
 * sent per operation and what they answered. A request that blocks the server's event loop over 1 s, or takes
 * over 5 s, fails it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordApiCall } from '../support/api-calls.ts';
import { contract, contractOperation, expectValidResponse, operationsOf, type Operation } from '../support/contract.ts';
import type { BlockedRequest } from '../../server/http/entry/event-loop-watch.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { fuzzCases, oversizedHeaderCase, prng, type FuzzCase } from './cases.ts';

const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 110_000);
/** A request may not block the event loop longer than this, nor take longer than MAX_REQUEST_MS in all. */
const MAX_BLOCKED_MS = 1_000;
const MAX_REQUEST_MS = 5_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Tables a request may write whatever it answers: the sessions (last seen, sign-in). */
const UNDIGESTED_TABLES = new Set(['user_session']);

type Json = Record<string, unknown>;

const isJsonType = (type: string) => /^application\/(?:[\w.+-]+\+)?json$/i.test(type);

/** What is wrong with an answer, or null when it is what the contract declares. */
function contractProblem(operation: Operation, status: number, contentType: string, text: string): string | null {
  if (status >= 500 && status !== 501) return `answered ${status}: ${text.slice(0, 300)}`;
  const responses = operation.operation.responses as Json;
  if (!(String(status) in responses))
    return `answered ${status}, which it does not declare (declares ${Object.keys(responses).join(', ')}): ${text.slice(0, 200)}`;
  try {
    const declared = contractOperationResponse(operation.operationId, status);
    const mediaTypes = Object.keys((declared.content ?? {}) as Json);
    if (mediaTypes.length === 0) return text === '' ? null : `${status} must have no body: ${text.slice(0, 100)}`;
    if (mediaTypes.some(isJsonType) && /^application\/json\b/i.test(contentType)) {
      expectValidResponse(operation.operationId, status, JSON.parse(text) as unknown);
      return null;
    }
    const essence = contentType.split(';')[0].trim().toLowerCase();
    const matches = mediaTypes.some((type) => {
      const [major, minor] = type.toLowerCase().split('/');
      const [actualMajor, actualMinor] = essence.split('/');
      return (major === '*' || major === actualMajor) && (minor === '*' || minor === actualMinor);
    });
    return matches ? null : `${status} content type ${contentType || '(none)'} is not one of ${mediaTypes.join(', ')}`;
  } catch (error) {
    return (error as Error).message.slice(0, 600);
  }
}

function contractOperationResponse(operationId: string, status: number): Json {
  const responses = contractOperation(operationId).operation.responses as Json;
  let response = responses[String(status)] as Json;
  while (typeof response.$ref === 'string') {
    const name = response.$ref.split('/').pop()!;
    response = ((contract.components as Json).responses as Json)[name] as Json;
  }
  return response;
}

/**
 * One digest of every table but the sessions', in the test server's schema (PostgreSQL): each row version's
 * place and creating transaction (ctid, xmin), which any committed insert, update or delete changes, without
 * reading the rows' contents (file bodies, pictures). A count and a sum of hashes, which need no sort: the
 * gazetteer's 150,000 places made an ordered md5 of them take some 250 ms.
 */
async function databaseDigest(server: TestServer): Promise<string> {
  tablesOfSchema ??= (
    await server.db.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
    )
  ).rows
    .map(({ name }) => name)
    .filter((name) => !UNDIGESTED_TABLES.has(name));
  const rowVersions = tablesOfSchema
    .map((name) => `SELECT '${name}' AS t, ctid::text AS c, xmin::text AS x FROM "${name}"`)
    .join(' UNION ALL ');
  const { rows } = await server.db.query<{ digest: string }>(
    `SELECT count(*) || ':' || sum(hashtextextended(t || c || ':' || x, 0)::numeric) AS digest FROM (${rowVersions}) v`,
  );
  return rows[0].digest;
}
let tablesOfSchema: string[] | undefined;

/**
 * The first transaction id PostgreSQL has not yet given out, in the whole cluster. Every transaction that writes
 * a row gets one (the row version's xmin, or xmax for a delete), so while it stays the same nothing has been
 * written anywhere, and the digest need not be taken again.
 */
async function nextTransactionId(server: TestServer): Promise<string> {
  const { rows } = await server.db.query<{ next: string }>(
    'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
  );
  return rows[0].next;
}

interface Tally {
  sent: number;
  statuses: Map<number, number>;
}

for (const kind of databases()) {
  describe(`contract fuzzer on ${kind}`, () => {
    let server: TestServer;
    let admin: TestSession;
    /** The server's reports of requests under way while its event loop stalled (100 ms or more). */
    const blocked: BlockedRequest[] = [];

    beforeAll(async () => {
      server = await startTestServer({
        database: kind,
        demoContacts: 30,
        app: { eventLoop: { onBlocked: (report) => blocked.push(report) } },
      });
      admin = await signIn(server, 'admin');
    });
    afterAll(() => server?.close());

    it('answers every derived request below 500, with a declared status and a body the contract allows, and commits nothing on a refused write', async () => {
      const random = prng(SEED);
      const started = Date.now();
      const tallies = new Map<string, Tally>();
      const failures: string[] = [];
      let digest = kind === 'postgres' ? await databaseDigest(server) : '';
      /** The next transaction id when the digest was taken: while it is the same, so is the digest. */
      let digestedAt = kind === 'postgres' ? await nextTransactionId(server) : '';
      let cut = 0;
      /** Refused writes after which some transaction id was given out, so that the digest was taken again. */
      let digestsTaken = 0;
      let refusedWrites = 0;
      /** The longest stall of the event loop a request lived through (none: none of 100 ms or more), and which. */
      let longestStall: { ms: number; request: string } | undefined;

      const send = async (operation: Operation, fuzz: FuzzCase, as: 'guest' | 'admin') => {
        const headers: Record<string, string> = {
          Origin: server.baseUrl,
          ...fuzz.headers,
          ...(as === 'admin' ? admin.headers : {}),
        };
        const write = fuzz.method !== 'GET' && fuzz.method !== 'HEAD';
        if (kind === 'postgres' && write) {
          const next = await nextTransactionId(server);
          if (next !== digestedAt) [digest, digestedAt] = [await databaseDigest(server), next];
        }
        let status = 0;
        let text = '';
        let contentType = '';
        blocked.length = 0;
        const sentAt = performance.now();
        try {
          const response = await fetch(`${server.baseUrl}${fuzz.pathAndQuery}`, {
            method: fuzz.method,
            headers,
            body: fuzz.body as BodyInit | undefined,
            redirect: 'manual',
            signal: AbortSignal.timeout(20_000),
          });
          status = response.status;
          contentType = response.headers.get('content-type') ?? '';
          text = await response.text();
        } catch (error) {
          failures.push(
            `${operation.operationId} as ${as}, ${fuzz.label}: the request failed: ${(error as Error).message}`,
          );
          return;
        }
        const tookMs = performance.now() - sentAt;
        if (tookMs > MAX_REQUEST_MS)
          failures.push(`${operation.operationId} as ${as}, ${fuzz.label}: took ${Math.round(tookMs)} ms`);
        for (const report of blocked) {
          if (report.blockedMs > (longestStall?.ms ?? 0))
            longestStall = { ms: report.blockedMs, request: `${operation.operationId} as ${as}, ${fuzz.label}` };
          if (report.blockedMs > MAX_BLOCKED_MS)
            failures.push(
              `${operation.operationId} as ${as}, ${fuzz.label}: blocked the event loop ${Math.round(report.blockedMs)} ms`,
            );
        }
        const tally = tallies.get(operation.operationId) ?? { sent: 0, statuses: new Map() };
        tally.sent++;
        tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
        tallies.set(operation.operationId, tally);
        recordApiCall({ operationId: operation.operationId, method: fuzz.method, status, target: 'server' });

        const problem = contractProblem(operation, status, contentType, text);
        if (problem) failures.push(`${operation.operationId} ${fuzz.method} as ${as}, ${fuzz.label}: ${problem}`);

        if (kind === 'postgres' && write && (status < 200 || status >= 300)) {
          refusedWrites++;
          // While no transaction id was given out, nothing was written anywhere.
          const next = await nextTransactionId(server);
          if (next !== digestedAt) {
            digestsTaken++;
            const after = await databaseDigest(server);
            digestedAt = next;
            if (after !== digest) {
              failures.push(
                `${operation.operationId} as ${as}, ${fuzz.label}: answered ${status}, yet the database changed`,
              );
              digest = after;
            }
          }
        }
        // Signing out ends the administrator's session: sign in again for the requests that follow.
        if (as === 'admin' && operation.operationId === 'signOut') admin = await signIn(server, 'admin');
      };

      // Each operation gets an equal share of what is left of the time budget, so that on a busy machine every
      // operation is still fuzzed, with fewer cases each (their order puts the broadest first).
      const operations = operationsOf(contract);
      for (const [index, operation] of operations.entries()) {
        // What the issue names first (text the database cannot store, content types, sizes) before the rest, so
        // that a tight time budget cuts the least telling cases.
        const first = (fuzz: FuzzCase) =>
          /example|NUL|surrogate|UTF-8|content type|oversized|headers over|nested|wide|900,000|keys/.test(fuzz.label);
        const generated = fuzzCases(operation, random);
        const cases = [
          oversizedHeaderCase(operation),
          ...generated.filter(first),
          ...generated.filter((fuzz) => !first(fuzz)),
        ];
        const operationStarted = Date.now();
        const share = (BUDGET_MS - (operationStarted - started)) / (operations.length - index);
        for (const fuzz of cases) {
          if (Date.now() - operationStarted > share) {
            cut++;
            continue;
          }
          await send(operation, fuzz, 'guest');
          await send(operation, fuzz, 'admin');
        }
      }

      const rows = [...tallies].map(([operationId, { sent, statuses }]) => {
        const answered = [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ');
        return `  ${operationId.padEnd(34)} ${String(sent).padStart(5)}  ${answered}`;
      });
      const total = [...tallies.values()].reduce((sum, { sent }) => sum + sent, 0);
      console.log(
        [
          `contract fuzzer on ${kind} (seed ${SEED}): ${total} requests to ${tallies.size} operations in ${((Date.now() - started) / 1000).toFixed(1)} s` +
            (cut ? `; ${cut} cases left out by the time budget` : ''),
          '  operation                           sent  statuses',
          ...rows,
          ...(kind === 'postgres'
            ? [
                `  refused writes: ${refusedWrites}, of which ${digestsTaken} gave out a transaction id (digest taken again)`,
              ]
            : []),
          `  longest stall of the event loop: ${longestStall ? `${Math.round(longestStall.ms)} ms (${longestStall.request})` : 'none of 100 ms or more'}`,
          `  failures: ${failures.length}`,
        ].join('\n'),
      );
      expect(failures.slice(0, 60), `${failures.length} answers outside the contract`).toEqual([]);
    }, 600_000);
  });
}
