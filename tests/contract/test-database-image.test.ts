/**
 * Test servers on PGlite start from the run's image of a seeded database (tests/support/database-image.ts),
 * not from a database created, migrated and seeded for each.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { contactCount } from '../../server/storefront/seed.ts';
import { databaseImage } from '../support/database-image.ts';
import { startTestServer, TEST_DEMO_CONTACTS, type TestServer } from '../support/server.ts';

describe('a PGlite test server', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it("starts from the run's image, seeded before it started", async () => {
    const image = await databaseImage();
    expect(image).toBeDefined();
    const started = new Date();
    server = await startTestServer();
    expect(server.passwords).toEqual(image?.passwords);
    // Seeding writes the demo users' credentials: written before this server started, they came with the image;
    // the contacts, which the image does not hold, are the server's own.
    const { rows } = await server.db.query<{ seeded: Date }>('SELECT max(updated_at) AS seeded FROM user_credential');
    expect(rows[0].seeded.getTime()).toBeLessThan(started.getTime());
    expect(await contactCount(server.db)).toBe(TEST_DEMO_CONTACTS);
    // The first server of a worker makes the image: migrations, seeding and 152,944 places with their index of
    // positions (some 26 s before it, 36 s with it, on a busy 2-core machine).
  }, 120_000);
});
