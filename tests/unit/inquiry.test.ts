/** The inquiry's pure parts: idempotency keys, e-mail addresses, the field checks, form tokens, content hashes. */
import { describe, expect, it } from 'vitest';
import {
  checkInquiry,
  contentHash,
  formTokenFor,
  formTokenIssuedAt,
  formTokenProblem,
  isEmailAddress,
  isUuid,
  MAX_FORM_AGE_MS,
} from '../../server/storefront/inquiry.ts';
import { MIN_FILL_MS } from '../../common/inquiry.ts';

const fields = {
  representativeId: 'a1C8d0000000001EAA',
  name: 'Dana Reyes',
  email: 'dana@example.com',
  phone: '',
  company: 'Reyes Electric',
  message: 'Prices, please.',
};

describe('idempotency keys', () => {
  it('takes UUIDs of every version, in either case', () => {
    expect(isUuid('0b6a3c52-5d0e-4c53-9c8e-2f1d7c1f6a10')).toBe(true);
    expect(isUuid('0B6A3C52-5D0E-4C53-9C8E-2F1D7C1F6A10')).toBe(true);
    expect(isUuid('01890a5d-ac96-774b-bcce-b302099a8057')).toBe(true);
  });
  it('refuses anything else', () => {
    for (const key of [
      '',
      'twice',
      '0b6a3c52-5d0e-4c53-9c8e-2f1d7c1f6a1',
      '0b6a3c52-5d0e-4c53-9c8e-2f1d7c1f6a100',
      '0b6a3c525d0e4c539c8e2f1d7c1f6a10',
      '0b6a3c52-5d0e-0c53-9c8e-2f1d7c1f6a10',
      '0b6a3c52-5d0e-4c53-7c8e-2f1d7c1f6a10',
      ' 0b6a3c52-5d0e-4c53-9c8e-2f1d7c1f6a10',
      'zb6a3c52-5d0e-4c53-9c8e-2f1d7c1f6a10',
    ])
      expect(isUuid(key), key).toBe(false);
  });
});

describe('e-mail addresses', () => {
  it('takes what a form takes', () => {
    for (const address of ['a@b.co', 'dana.reyes+web@mail.example.com', "o'neil@example.org"])
      expect(isEmailAddress(address), address).toBe(true);
  });
  it('refuses the rest', () => {
    for (const address of [
      '',
      'dana',
      'dana@',
      '@example.com',
      'dana@example',
      'da na@example.com',
      'dana@-x.com',
      'a@b..c',
    ])
      expect(isEmailAddress(address), address).toBe(false);
  });
});

describe('checkInquiry', () => {
  it('trims the fields and gives the 18-character id', () => {
    const checked = checkInquiry({ ...fields, name: '  Dana Reyes ', representativeId: 'a1C8d0000000001' });
    expect(checked).toEqual({
      ok: true,
      inquiry: { ...fields, representativeId: 'a1C8d0000000001EAA', name: 'Dana Reyes' },
    });
  });
  it('names every wrong field once, with a message', () => {
    const checked = checkInquiry({
      representativeId: 'x',
      name: '',
      email: 'no',
      company: ' ',
      message: '',
      phone: 'abc',
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.keys(checked.fieldErrors).sort()).toEqual([
      'company',
      'email',
      'message',
      'name',
      'phone',
      'representativeId',
    ]);
    for (const messages of Object.values(checked.fieldErrors)) expect(messages).toHaveLength(1);
  });
  it('counts characters, not UTF-16 units, against the lengths', () => {
    expect(checkInquiry({ ...fields, name: '😀'.repeat(80) }).ok).toBe(true);
    expect(checkInquiry({ ...fields, name: '😀'.repeat(81) }).ok).toBe(false);
    expect(checkInquiry({ ...fields, message: 'x'.repeat(4_000) }).ok).toBe(true);
    expect(checkInquiry({ ...fields, message: 'x'.repeat(4_001) }).ok).toBe(false);
  });
  it('leaves the phone optional', () => {
    expect(checkInquiry({ ...fields, phone: undefined }).ok).toBe(true);
    expect(checkInquiry({ ...fields, phone: '+1 (512) 555-0134' }).ok).toBe(true);
  });
});

describe('form tokens', () => {
  const secret = Buffer.alloc(32, 7);
  const other = Buffer.alloc(32, 8);
  const issuedAt = Date.UTC(2026, 0, 6, 14);

  it('carry the time they were made, under the secret only', () => {
    const token = formTokenFor(secret, issuedAt);
    expect(formTokenIssuedAt(secret, token)).toBe(issuedAt);
    expect(formTokenIssuedAt(other, token)).toBeUndefined();
    const [, signature] = token.split('.');
    expect(formTokenIssuedAt(secret, `${issuedAt - 10_000}.${signature}`)).toBeUndefined();
    expect(formTokenIssuedAt(secret, `${issuedAt}`)).toBeUndefined();
    expect(formTokenIssuedAt(secret, `${token}x`)).toBeUndefined();
  });

  it('may be sent from MIN_FILL_MS after they were made until MAX_FORM_AGE_MS after', () => {
    const token = formTokenFor(secret, issuedAt);
    expect(formTokenProblem(secret, token, issuedAt + MIN_FILL_MS - 1)).toMatch(/too quickly/);
    expect(formTokenProblem(secret, token, issuedAt + MIN_FILL_MS)).toBeUndefined();
    expect(formTokenProblem(secret, token, issuedAt + MAX_FORM_AGE_MS)).toBeUndefined();
    expect(formTokenProblem(secret, token, issuedAt + MAX_FORM_AGE_MS + 1)).toMatch(/expired/);
    expect(formTokenProblem(other, token, issuedAt + MIN_FILL_MS)).toMatch(/not made by this site/);
  });
});

describe('contentHash', () => {
  it('is the same for the same content whatever the order of its fields, and differs otherwise', () => {
    const checked = { ...fields, phone: '' };
    const reordered = Object.fromEntries(Object.entries(checked).reverse()) as typeof checked;
    expect(contentHash(reordered)).toBe(contentHash(checked));
    expect(contentHash({ ...checked, message: 'Other.' })).not.toBe(contentHash(checked));
  });
});
