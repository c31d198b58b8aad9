/**
 * The representative's vCard (server/storefront/vcard.ts): RFC 6350 as written by vcard4, with its lines folded
 * by octets (never inside a character), CRLF line ends, text escaped; and the download's file name (RFC 6266).
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'vcard4';
import { foldLine, representativeVcard } from '../../server/storefront/vcard.ts';
import { attachmentDisposition } from '../../server/http/answers/attachment.ts';
import type { Schemas } from '../../generated/types.ts';

const PAGE = 'https://shop.example/reps/a1C8d0000000002EAA';

const representative = (fields: Partial<Schemas['ContactUsRepresentative']> = {}) => ({
  Id: 'a1C8d0000000002EAA',
  APT_Company_Name__c: 'Austin Electrical Supply Co.',
  APT_Address_1__c: '2217 Industrial Boulevard',
  APT_Address_2__c: 'Unit 12',
  APT_City__c: 'Austin',
  APT_Primary_State__c: 'Texas',
  APT_Country__c: 'United States',
  APT_UI_Country__c: 'United States',
  APT_Zip__c: '78745',
  APT_Phone__c: '512-555-0147',
  APT_Email__c: 'sales@austin-electrical-supply.example',
  APT_Brand__c: 'Arcline;Conduvex',
  ...fields,
});

/** The content lines, unfolded (RFC 6350 §3.2). */
const unfolded = (card: string) => card.replace(/\r\n /g, '').split('\r\n').slice(0, -1);

describe('representativeVcard', () => {
  it('writes a vCard 4.0 with KIND, FN, ORG, ADR, TEL, EMAIL and the page URL', () => {
    expect(unfolded(representativeVcard(representative(), PAGE))).toEqual([
      'BEGIN:VCARD',
      'VERSION:4.0',
      'KIND:org',
      'FN:Austin Electrical Supply Co.',
      'ORG:Austin Electrical Supply Co.',
      'ADR;TYPE="work":;;2217 Industrial Boulevard\\nUnit 12;Austin;Texas;78745;United States',
      'TEL;TYPE="work,voice":512-555-0147',
      'EMAIL;TYPE="work":sales@austin-electrical-supply.example',
      `URL:${PAGE}`,
      'END:VCARD',
    ]);
  });

  it('ends every line with CRLF, and no line with a lone CR or LF', () => {
    const card = representativeVcard(representative(), PAGE);
    expect(card.endsWith('\r\n')).toBe(true);
    expect(card.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('folds a long non-ASCII name into lines of at most 75 octets, between characters', () => {
    const name = 'Électricité Générale du Québec – Société Coopérative Énergie 😀 Ünïcödé Straße Nord-Süd';
    const card = representativeVcard(representative({ APT_Company_Name__c: name }), PAGE);
    const lines = card.split('\r\n').slice(0, -1);
    expect(lines.length).toBeGreaterThan(unfolded(card).length);
    for (const line of lines) {
      expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
      // No half of a surrogate pair alone at either end: a character split between two lines.
      expect(line).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
      // The line is whole UTF-8: it reads back as itself.
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
    }
    expect(unfolded(card)).toContain(`FN:${name}`);
  });

  it('escapes backslash, comma, semicolon and newline in text, not the colon', () => {
    const card = representativeVcard(
      representative({ APT_Company_Name__c: 'A\\B, C; D: E\nF', APT_Address_1__c: 'Line 1\r\nstill 1' }),
      PAGE,
    );
    const lines = unfolded(card);
    expect(lines).toContain('FN:A\\\\B\\, C\\; D: E\\nF');
    expect(lines.find((line) => line.startsWith('ADR'))).toContain(';;Line 1\\nstill 1\\nUnit 12;');
  });

  it('leaves out what the record lacks, and an address line 2 that only repeats the city', () => {
    const lines = unfolded(
      representativeVcard(
        representative({ APT_Phone__c: null, APT_Email__c: '  ', APT_Address_2__c: 'Austin', APT_Zip__c: null }),
        PAGE,
      ),
    );
    expect(lines.some((line) => line.startsWith('TEL'))).toBe(false);
    expect(lines.some((line) => line.startsWith('EMAIL'))).toBe(false);
    expect(lines).toContain('ADR;TYPE="work":;;2217 Industrial Boulevard;Austin;Texas;;United States');
  });

  it('is read back by vcard4’s parser', () => {
    const card = representativeVcard(representative({ APT_Company_Name__c: 'Société Générale, Québec' }), PAGE);
    expect(() => parse(card)).not.toThrow();
  });
});

describe('foldLine', () => {
  it('keeps a line of 75 octets whole, and folds one of 76', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('moves a character of several octets whole to the next line', () => {
    // 74 octets, then é (2 octets): 76 in all, so é goes to the next line.
    expect(foldLine(`${'x'.repeat(74)}é`)).toBe(`${'x'.repeat(74)}\r\n é`);
    expect(foldLine(`${'x'.repeat(73)}😀`)).toBe(`${'x'.repeat(73)}\r\n 😀`);
  });
});

describe('attachmentDisposition', () => {
  const vcardDisposition = (name: string) => attachmentDisposition(name, 'vcf', 'representative');

  it('gives an ASCII file name and the UTF-8 one (RFC 6266, RFC 8187)', () => {
    expect(vcardDisposition('Électricité Québec')).toBe(
      `attachment; filename="_lectricit_ Qu_bec.vcf"; filename*=UTF-8''%C3%89lectricit%C3%A9%20Qu%C3%A9bec.vcf`,
    );
  });

  it('takes out what no file name or quoted string may hold', () => {
    expect(vcardDisposition('A/B\\C:"D"*?<>|\r\nE')).toBe(
      `attachment; filename="A B C D E.vcf"; filename*=UTF-8''A%20B%20C%20D%20E.vcf`,
    );
    expect(vcardDisposition("O'Neil (Supply)")).toBe(
      `attachment; filename="O'Neil (Supply).vcf"; filename*=UTF-8''O%27Neil%20%28Supply%29.vcf`,
    );
    expect(vcardDisposition('  ')).toBe(
      `attachment; filename="representative.vcf"; filename*=UTF-8''representative.vcf`,
    );
  });
});
