/** The demo contacts look like real ones: street addresses, postal codes of the right form and range, whole domains. */
import { describe, expect, it } from 'vitest';
import { demoContact, emailDomain, postalCode } from '../../server/storefront/demo-contacts.ts';

const contacts = Array.from({ length: 2400 }, (_, index) => demoContact(index + 1));

/** The form of each country's postal codes that the demo data uses most. */
const FORMS: Record<string, RegExp> = {
  'United States': /^\d{5}$/,
  Canada: /^[ABCEGHJ-NPRSTVXY]\d[A-Z] \d[A-Z]\d$/,
  Australia: /^\d{4}$/,
  'United Kingdom': /^[A-Z]{1,2}\d [0-9][A-Z]{2}$/,
  Brazil: /^\d{5}-\d{3}$/,
  India: /^[1-9]\d{5}$/,
  Germany: /^\d{5}$/,
  Mexico: /^\d{5}$/,
};

describe('the demo contacts', () => {
  it('have a street address, an optional unit and the city in its own field', () => {
    for (const contact of contacts.slice(1)) {
      expect(contact.APT_Address_1__c).toMatch(/^\d{1,4} [A-Z][a-z]+ [A-Z][a-z]+$/);
      if (contact.APT_Address_2__c !== null)
        expect(contact.APT_Address_2__c).toMatch(/^(Suite|Unit|Building|Floor) \d+$/);
      expect(contact.APT_City__c.length).toBeGreaterThan(0);
    }
  });

  it('have postal codes of their country’s form', () => {
    for (const contact of contacts) {
      const form = FORMS[contact.APT_Country__c];
      if (form) expect(contact.APT_Zip__c, `${contact.Name} in ${contact.APT_Country__c}`).toMatch(form);
      else expect(contact.APT_Zip__c).toMatch(/^[1-9]\d{3}$/);
    }
  });

  it('have US ZIP codes and Canadian postal codes of their state’s or province’s range', () => {
    const byState = (country: string, state: string) =>
      contacts.filter((contact) => contact.APT_Country__c === country && contact.APT_Primary_State__c === state);
    expect(byState('United States', 'Texas').length).toBeGreaterThan(5);
    for (const contact of byState('United States', 'Texas')) expect(contact.APT_Zip__c).toMatch(/^7[5-9]\d{3}$/);
    for (const contact of byState('United States', 'Wisconsin')) expect(contact.APT_Zip__c).toMatch(/^5[34]\d{3}$/);
    for (const contact of byState('United States', 'New York')) expect(contact.APT_Zip__c).toMatch(/^1[0-4]\d{3}$/);
    for (const contact of byState('Canada', 'Ontario')) expect(contact.APT_Zip__c).toMatch(/^[KLMNP]/);
    for (const contact of byState('Canada', 'Quebec')) expect(contact.APT_Zip__c).toMatch(/^[GHJ]/);
    for (const contact of byState('Canada', 'British Columbia')) expect(contact.APT_Zip__c).toMatch(/^V/);
    expect(postalCode('US', 'MA', () => 0)).toBe('01000');
    expect(postalCode('US', 'WY', () => 0.999)).toBe('83199');
  });

  it('have e-mail addresses on whole-word domains', () => {
    for (const contact of contacts) {
      const [, domain] = contact.APT_Email__c.split('@');
      expect(domain).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.example$/);
      expect(domain.length).toBeLessThanOrEqual(40 + '.example'.length);
    }
    expect(emailDomain('Fords Prairie Electrical Distributors Corp.')).toBe(
      'fords-prairie-electrical-distributors.example',
    );
  });
});
