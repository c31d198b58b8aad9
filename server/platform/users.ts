/**
 * Users who sign in: their User records (in `record`, like every object) and their credentials, hashed with
 * scrypt (memory-hard) under a per-user salt. The demo users are seeded at first start; their passwords come
 * from the caller (the environment) or are generated, and are never stored in clear.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Database, Queryable } from '../db/connection.ts';
import { MASTER_RECORD_TYPE_ID } from './core/ids.ts';
import {
  ADMIN_USER_ID,
  GUEST_USER_ID,
  profileById,
  profileNamed,
  STANDARD_USER_ID,
  type Principal,
} from './core/principal.ts';

const USER_OBJECT = 'User';
const USER_KEY_PREFIX = '005';

/** One of OWASP's equivalent scrypt settings (N=2^14, r=8, p=5): 16 MiB and about 0.2 s per hash. */
const SCRYPT = { N: 16384, r: 8, p: 5, keyLength: 32, saltLength: 16 };

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(
      password.normalize('NFC'),
      salt,
      keyLength,
      { ...options, maxmem: 256 * options.N! * options.r! },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** A storable hash of a password: scrypt$N$r$p$salt$key. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scrypt(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether a password matches a stored hash, in time that does not depend on where they differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/**
 * Verified against when the username is unknown, so that an unknown user costs what a known one does. Random
 * bytes in the hash format: no password matches it.
 */
const DECOY_HASH = [
  'scrypt',
  SCRYPT.N,
  SCRYPT.r,
  SCRYPT.p,
  'Fdzcl198PYsDcIKziF8BUw',
  'nT8WEnz4S23IrNMppEFAR5wQQ3dkMcGlEyEaA1BI3hU',
].join('$');

export interface SignInUser {
  userId: string;
  username: string;
  displayName: string;
  principal: Principal;
}

interface CredentialRow {
  user_id: string;
  password_hash: string;
  username: string;
  name: string | null;
  profile_id: string | null;
  is_active: boolean | null;
}

/** The active user with this username and password, or null (for an unknown user as for a wrong password). */
export async function authenticate(db: Queryable, username: string, password: string): Promise<SignInUser | null> {
  const { rows } = await db.query<CredentialRow>(
    `SELECT c.user_id, c.password_hash, r.fields ->> 'Username' AS username, r.fields ->> 'Name' AS name,
            r.fields ->> 'ProfileId' AS profile_id, (r.fields ->> 'IsActive')::boolean AS is_active
     FROM user_credential c JOIN record r ON r.id = c.user_id
     WHERE c.username = $1`,
    [username.trim().toLowerCase()],
  );
  const row = rows[0];
  if (!row) {
    await verifyPassword(password, DECOY_HASH);
    return null;
  }
  if (!(await verifyPassword(password, row.password_hash))) return null;
  const principal = principalOfUser(row.user_id, row.profile_id, row.is_active);
  if (!principal) return null;
  return { userId: row.user_id, username: row.username, displayName: row.name ?? row.username, principal };
}

/** The principal of a signed-in user; null when the user may not sign in (inactive, guest, unknown profile). */
export function principalOfUser(userId: string, profileId: string | null, isActive: boolean | null): Principal | null {
  const profile = profileId ? profileById(profileId) : undefined;
  if (!profile || profile.userType === 'Guest' || isActive !== true) return null;
  return { userId, isGuest: false, profile };
}

export interface DemoPasswords {
  admin?: string;
  standard?: string;
}

interface DemoUser {
  id: string;
  username: string;
  firstName: string | null;
  lastName: string;
  profile: string;
  userType: 'Standard' | 'Guest';
  password: keyof DemoPasswords | null;
}

const DEMO_USERS: DemoUser[] = [
  {
    id: ADMIN_USER_ID,
    username: 'admin@northgate.example',
    firstName: 'Store',
    lastName: 'Administrator',
    profile: 'System Administrator',
    userType: 'Standard',
    password: 'admin',
  },
  {
    id: STANDARD_USER_ID,
    username: 'user@northgate.example',
    firstName: 'Sales',
    lastName: 'Representative',
    profile: 'Standard User',
    userType: 'Standard',
    password: 'standard',
  },
  // The site's guest user: the principal of every visitor without a session. It has no credential.
  {
    id: GUEST_USER_ID,
    username: 'guest@northgate.example',
    firstName: 'Contact Us',
    lastName: 'Site Guest User',
    profile: 'Contact Us Profile',
    userType: 'Guest',
    password: null,
  },
];

/** The demo users' usernames, by the key of their password. */
export const DEMO_USERNAMES = { admin: DEMO_USERS[0].username, standard: DEMO_USERS[1].username } as const;

/** A password of 20 characters from an alphabet without look-alikes (about 115 bits). */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(40);
  let password = '';
  // 224 is a multiple of the alphabet's 56 letters: no letter is likelier than another.
  for (const byte of bytes) if (byte < 224 && password.length < 20) password += alphabet[byte % alphabet.length];
  return password.length === 20 ? password : generatePassword();
}

/**
 * Seeds the demo users unless they exist. Returns the passwords it generated (those not given), which the
 * caller shows once; nothing is returned when the users were already there.
 */
export async function seedDemoUsers(db: Database, given: DemoPasswords): Promise<DemoPasswords | null> {
  const { rows } = await db.query('SELECT 1 FROM record WHERE id = $1', [ADMIN_USER_ID]);
  if (rows.length > 0) return null;
  const generated: DemoPasswords = {};
  const passwords: DemoPasswords = { ...given };
  for (const key of ['admin', 'standard'] as const) {
    if (!passwords[key]) passwords[key] = generated[key] = generatePassword();
  }
  const hashes = new Map(
    await Promise.all(
      DEMO_USERS.filter((user) => user.password).map(
        async (user) => [user.id, await hashPassword(passwords[user.password!]!)] as const,
      ),
    ),
  );
  const at = new Date().toISOString();
  await db.transaction(async (tx) => {
    for (const user of DEMO_USERS) {
      const fields = {
        Username: user.username,
        Name: [user.firstName, user.lastName].filter(Boolean).join(' '),
        FirstName: user.firstName,
        LastName: user.lastName,
        Email: user.username,
        IsActive: true,
        ProfileId: profileNamed(user.profile).id,
        UserType: user.userType,
      };
      await tx.query(
        `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
         VALUES ($1, $2, $6, $3::jsonb, $4, $5, $4, $5, $4) ON CONFLICT (id) DO NOTHING`,
        [user.id, USER_OBJECT, JSON.stringify(fields), at, ADMIN_USER_ID, MASTER_RECORD_TYPE_ID],
      );
      const hash = hashes.get(user.id);
      if (hash) {
        await tx.query(
          `INSERT INTO user_credential (user_id, username, password_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          [user.id, user.username.toLowerCase(), hash],
        );
      }
    }
    await tx.query(
      `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, $2)
       ON CONFLICT (key_prefix) DO UPDATE SET last_value = GREATEST(id_sequence.last_value, EXCLUDED.last_value)`,
      [USER_KEY_PREFIX, DEMO_USERS.length],
    );
  });
  return generated;
}
