/**
 * The sandbox (npm run sandbox): the real server, every operation as it is, on a PGlite database in memory that
 * is seeded with the demo data at every start and forgotten at every stop. Beside the Prism mock, which answers
 * from the contract's examples and keeps nothing, it is where a front-end developer sees a created record show up
 * in a list (npm run dev:sandbox points the web app's dev server at it).
 *
 * It never opens a data directory or PostgreSQL, whatever DATA_DIR or DATABASE_URL say, so that it cannot touch
 * real data; the demo users' passwords are fixed (printed below) unless DEMO_ADMIN_PASSWORD and
 * DEMO_USER_PASSWORD choose others.
 */
import { DEMO_USERNAMES } from '../server/platform/users.ts';

/** Where the sandbox listens unless PORT says otherwise: beside the mock's 4010. */
const SANDBOX_PORT = 4012;
/** The demo users' passwords in the sandbox, where nothing is kept and anyone running it may sign in. */
const SANDBOX_PASSWORDS = { admin: 'sandbox-admin', standard: 'sandbox-user' } as const;

delete process.env.DATABASE_URL;
process.env.DATA_DIR = ':memory:';
process.env.PORT ||= String(SANDBOX_PORT);
process.env.DEMO_ADMIN_PASSWORD ||= SANDBOX_PASSWORDS.admin;
process.env.DEMO_USER_PASSWORD ||= SANDBOX_PASSWORDS.standard;

const rule = '='.repeat(78);
console.log(
  [
    rule,
    'SANDBOX: the real server on a database in memory, with the demo data.',
    'Every start begins again from the demo data; everything written is lost when it stops.',
    `Sign in as ${DEMO_USERNAMES.admin} / ${process.env.DEMO_ADMIN_PASSWORD} (System Administrator)`,
    `        or ${DEMO_USERNAMES.standard} / ${process.env.DEMO_USER_PASSWORD} (Standard User).`,
    'The web app against it, in Vite’s dev server: npm run dev:sandbox',
    rule,
  ].join('\n'),
);

await import('../site/main.ts');
