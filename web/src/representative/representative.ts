/**
 * A representative's page, its pure parts: the query of its record, its address lines, its brands, the
 * description of its head, and its schema.org LocalBusiness as JSON-LD. The server renders the head from these
 * (web/ssr/render.tsx), the page its body (RepresentativePage.tsx).
 */
import type { ApiClient } from '../../../client/index';
import type { components } from '../../../generated/types';
import { getContactQuery } from '../../../client/react';

export type Representative = components['schemas']['ContactUsRepresentative'];

/** getContact of one Id: its key is ['getContact', {methodParams}], which the guests' data reads (query-dependencies.ts). */
export function representativeQuery(api: ApiClient, recordId: string) {
  return getContactQuery(api, { query: { methodParams: JSON.stringify({ recordId }) } });
}

/** The brands a representative carries: the multi-select picklist's values, in their stored order. */
export function brandsOf(representative: Representative): string[] {
  return (representative.APT_Brand__c ?? '')
    .split(';')
    .map((brand) => brand.trim())
    .filter(Boolean);
}

/** The street lines: line 1, and line 2 unless it only repeats the city (as the cards show them). */
export function streetLines(representative: Representative): string[] {
  const { APT_Address_1__c: line1, APT_Address_2__c: line2, APT_City__c: city } = representative;
  return [line1, line2 !== city ? line2 : null].filter((line): line is string => Boolean(line));
}

/** City, state and postal code as one line: "Austin, Texas 78745". */
export function cityLine(representative: Representative): string {
  const { APT_City__c: city, APT_Primary_State__c: state, APT_Zip__c: zip } = representative;
  return [city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}

/** Where it is, for the title and description: "Austin, Texas, United States". */
export function placeOf(representative: Representative): string {
  const { APT_City__c: city, APT_Primary_State__c: state, APT_UI_Country__c: country } = representative;
  return [city, state, country].filter(Boolean).join(', ');
}

/** The page's title and meta description. */
export function representativeHead(representative: Representative): { title: string; description: string } {
  const place = placeOf(representative);
  const brands = brandsOf(representative);
  const name = representative.APT_Company_Name__c || 'Sales representative';
  return {
    title: `${name}${place ? ` – ${place}` : ''} | Contact Us`,
    description:
      `${name}, an authorized sales representative${place ? ` in ${place}` : ''}` +
      `${brands.length ? ` for ${brands.join(', ')}` : ''}: address, phone and e-mail.`,
  };
}

/**
 * The representative as a schema.org LocalBusiness: name, address (a PostalAddress), telephone, e-mail, the
 * brands, and the page's own URL. Properties without a value are left out. The caller escapes it for the
 * script element it goes in (serializeForScript).
 */
export function localBusinessJsonLd(representative: Representative, pageUrl: string): Record<string, unknown> {
  const address = Object.fromEntries(
    Object.entries({
      '@type': 'PostalAddress',
      streetAddress: streetLines(representative).join(', ') || undefined,
      addressLocality: representative.APT_City__c ?? undefined,
      addressRegion: representative.APT_Primary_State__c ?? undefined,
      postalCode: representative.APT_Zip__c ?? undefined,
      addressCountry: representative.APT_UI_Country__c ?? representative.APT_Country__c ?? undefined,
    }).filter(([, value]) => value !== undefined),
  );
  const brands = brandsOf(representative);
  return Object.fromEntries(
    Object.entries({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      '@id': pageUrl,
      name: representative.APT_Company_Name__c,
      url: pageUrl,
      address,
      telephone: representative.APT_Phone__c ?? undefined,
      email: representative.APT_Email__c ?? undefined,
      brand: brands.length ? brands.map((name) => ({ '@type': 'Brand', name })) : undefined,
    }).filter(([, value]) => value !== undefined),
  );
}
