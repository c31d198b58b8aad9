/** What the tests of the CSV import over a database share: the object, the administrator, files and a count. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { startTestServer, type DatabaseKind, type TestServer } from './server.ts';
import { ADMIN_USER_ID, profileNamed, type Principal } from '../../server/platform/core/principal.ts';

export const OBJECT = 'APT_Contact_Us__c';
export const admin: Principal = {
  userId: ADMIN_USER_ID,
  isGuest: false,
  profile: profileNamed('System Administrator'),
};

export const bytes = (text: string) => new TextEncoder().encode(text);
/** A CSV file of these lines, each ending with CRLF. */
export const csv = (lines: string[]) => bytes(lines.join('\r\n') + '\r\n');
export const HEADER = 'Company Name,Email,Phone,Country,Primary State/Province,Brand,Default Contact,City';

/** How many Contact Us records the database holds. */
/** A file of `count` new contacts, each with its own company, e-mail and phone. */
export function newContacts(count: number, prefix: string): Uint8Array {
  const lines = [HEADER];
  for (let n = 1; n <= count; n++)
    lines.push(
      `${prefix} Company ${n},${prefix.toLowerCase()}${n}@example.com,555 ${String(n).padStart(4, '0')},United States,Texas,Arcline,false,Austin`,
    );
  return csv(lines);
}

export async function contactCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ count: string | number }>(
    'SELECT count(*) AS count FROM record WHERE object_api_name = $1',
    [OBJECT],
  );
  return Number(rows[0].count);
}

/**
 * The set-up every import test file shares: a test server on the database kind, with no Contact Us records
 * before each test. Returns the server's database, read once the server has started.
 */
export function useImportDatabase(kind: DatabaseKind): () => Database {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 0 });
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await server!.db.query(`DELETE FROM record WHERE object_api_name = $1`, [OBJECT]);
  });
  return () => server!.db;
}
