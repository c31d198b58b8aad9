/** Pure parts of sessions: password hashing, generated passwords, and which operations need a user. */
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/routes.ts';
import { requiresUser } from '../../server/http/operations/operation.ts';
import { sessionSettings } from '../../server/http/sessions/session.ts';
import { generatePassword, hashPassword, verifyPassword } from '../../server/platform/users.ts';
import { contract, operationsOf } from '../support/contract.ts';
import { needsUser } from '../support/session.ts';

describe('password hashes', () => {
  it('verify the password they were made from and no other, each under its own salt', async () => {
    const [one, two] = await Promise.all([hashPassword('a password'), hashPassword('a password')]);
    expect(one).not.toBe(two);
    expect(one.split('$').slice(0, 4)).toEqual(['scrypt', '16384', '8', '5']);
    expect(await verifyPassword('a password', one)).toBe(true);
    expect(await verifyPassword('a password', two)).toBe(true);
    expect(await verifyPassword('a passworD', one)).toBe(false);
    expect(await verifyPassword('', one)).toBe(false);
  });

  it('refuse a stored value that is not a hash of theirs', async () => {
    expect(await verifyPassword('x', 'x')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$abc$def')).toBe(false);
  });

  it('treat composed and decomposed forms of a character as the same password', async () => {
    const stored = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', stored)).toBe(true);
  });
});

describe('generated passwords', () => {
  it('are 20 characters without look-alikes, and differ', () => {
    const passwords = Array.from({ length: 50 }, generatePassword);
    for (const password of passwords) expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{20}$/);
    expect(new Set(passwords).size).toBe(50);
  });
});

describe('operations that need a user', () => {
  it('are exactly those whose contract security leaves out anonymous access', () => {
    const byId = new Map<string, { operationId: string }>(
      Object.values(routes).map((route) => [route.operationId, route]),
    );
    for (const operation of operationsOf(contract)) {
      expect(requiresUser(byId.get(operation.operationId)!), operation.operationId).toBe(needsUser(operation));
    }
    expect(requiresUser(routes.getCsrfToken)).toBe(true);
    expect(requiresUser(routes.keepSessionAlive)).toBe(true);
    expect(requiresUser(routes.getSession)).toBe(false);
    expect(requiresUser(routes.signIn)).toBe(false);
    expect(requiresUser(routes.getContacts)).toBe(false);
  });
});

describe('session settings', () => {
  it('default to 30 minutes idle and 8 hours absolute, take the environment, and refuse nonsense', () => {
    expect(sessionSettings({}, {})).toEqual({
      idleTimeoutSeconds: 1800,
      absoluteTimeoutSeconds: 28800,
      trustProxy: false,
    });
    expect(
      sessionSettings(
        {},
        { SESSION_IDLE_TIMEOUT_SECONDS: '600', SESSION_ABSOLUTE_TIMEOUT_SECONDS: '3600', TRUST_PROXY: '1' },
      ),
    ).toEqual({
      idleTimeoutSeconds: 600,
      absoluteTimeoutSeconds: 3600,
      trustProxy: true,
    });
    expect(
      sessionSettings(
        { session: { idleTimeoutSeconds: 5 }, trustProxy: false },
        { SESSION_IDLE_TIMEOUT_SECONDS: '600', TRUST_PROXY: '1' },
      ),
    ).toMatchObject({ idleTimeoutSeconds: 5, trustProxy: false });
    for (const bad of ['0', '-5', '1.5', 'half an hour']) {
      expect(() => sessionSettings({}, { SESSION_IDLE_TIMEOUT_SECONDS: bad })).toThrow(
        /SESSION_IDLE_TIMEOUT_SECONDS must be a whole number/,
      );
    }
  });
});
