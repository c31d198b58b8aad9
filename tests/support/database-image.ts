/**
 * One migrated and seeded PGlite database per test run, as an image (PGlite's dumpDataDir) that every PGlite
 * test server starts from: about 1 s per server rather than the 4.5 s of creating, migrating and seeding a
 * database anew (the figures in the commit that added it). The image holds everything a first start seeds but
 * the contacts, whose number each test chooses: a server seeds its own. The first test server of a run makes
 * the image, so a run of unit tests alone makes none.
 *
 * Vitest globalSetup: names the run's image directory (TEST_PGLITE_IMAGE) and removes it at the run's end.
 */
import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/bootstrap.ts';
import { PGLITE_EXTENSIONS } from '../../server/db/pglite-extensions.ts';
import { generatePassword, type DemoPasswords } from '../../server/platform/users.ts';

const IMAGE_VARIABLE = 'TEST_PGLITE_IMAGE';

export interface DatabaseImage {
  image: Blob;
  /** The demo users' passwords, set when the image was seeded. */
  passwords: Required<DemoPasswords>;
}

let loaded: DatabaseImage | undefined;

/**
 * The run's image of a seeded database without contacts, made at the first call of the run; undefined outside a
 * run of the suite (no TEST_PGLITE_IMAGE).
 */
export async function databaseImage(): Promise<DatabaseImage | undefined> {
  const folder = process.env[IMAGE_VARIABLE];
  if (!folder) return undefined;
  if (loaded) return loaded;
  const seeded = join(folder, 'seeded');
  const imageFile = join(seeded, 'image.tar');
  const passwordsFile = join(seeded, 'passwords.json');
  if (!existsSync(seeded)) {
    // Made in a folder of this process's own and renamed whole: two workers may make it at once, and the image
    // and its passwords must come from the same one.
    mkdirSync(folder, { recursive: true });
    const building = mkdtempSync(join(folder, 'building-'));
    const dataDir = join(building, 'data');
    mkdirSync(dataDir);
    const passwords = { admin: generatePassword(), standard: generatePassword() };
    const db = await openDatabase({ dataDir, demoContacts: 0 }, { demoPasswords: passwords, log: () => {} });
    await db.close();
    const pglite = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS });
    const image = await pglite.dumpDataDir('none');
    await pglite.close();
    rmSync(dataDir, { recursive: true, force: true });
    writeFileSync(join(building, 'passwords.json'), JSON.stringify(passwords));
    writeFileSync(join(building, 'image.tar'), Buffer.from(await image.arrayBuffer()));
    try {
      renameSync(building, seeded);
    } catch {
      // Another worker's came first (a folder is not renamed over one that holds files): that one is used.
      rmSync(building, { recursive: true, force: true });
    }
  }
  loaded = {
    image: new Blob([readFileSync(imageFile)]),
    passwords: JSON.parse(readFileSync(passwordsFile, 'utf8')) as DatabaseImage['passwords'],
  };
  return loaded;
}

export function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'contact-us-test-image-'));
  process.env[IMAGE_VARIABLE] = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
