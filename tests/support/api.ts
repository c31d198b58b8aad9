/**
 * What the tests know of the product without asking the server: paths, the demo data's fixed points, and
 * small builders of request URLs. Kept apart from server/ so that the tests are an independent oracle.
 */
import type { components } from '../../generated/types.ts';
import type { Queryable } from '../../server/db/connection.ts';

/** The record API's answers, as the contract describes them. */
export type RecordRep = components['schemas']['RecordRepresentation'];
export type RecordPage = components['schemas']['RecordCollectionRepresentation'];
/** A failed record write: the record-error output with field errors. */
export type RecordError = components['schemas']['ErrorWithOutputRepresentation'];
/** The error body of record API calls, content delivery, media and SEO: usually one element. */
export type ErrorList = components['schemas']['ErrorList'];
/** The Apex transport's error body. */
export type ApexErrorBody = components['schemas']['ApexErrorRepresentation'];

export const CONTROLLER = 'APT_ContactUsController';
export const CONTACT_US = 'APT_Contact_Us__c';
export const DEFAULT_CONTACT_ID = 'a1C8d0000000001EAA';
export const MASTER_RECORD_TYPE_ID = '012000000000000AAA';
export const BRANDS = [
  'Arcline',
  'Boltwright',
  'Conduvex',
  'Dynaswitch',
  'Ferrolux',
  'Gridmark',
  'Helioflex',
  'Ironspan',
];
export const CARD_FIELDS = [
  'Id',
  'APT_Company_Name__c',
  'APT_Address_1__c',
  'APT_Address_2__c',
  'APT_City__c',
  'APT_Primary_State__c',
  'APT_UI_Country__c',
  'APT_Zip__c',
  'APT_Phone__c',
  'APT_Email__c',
];
export const NOT_FOUND_BODY = [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }];

export const UI_API = '/services/data/v65.0/ui-api';
export const APEX = '/lwr/apex/v65.0';

export interface ContactsQuery {
  country: string | null;
  state: string | null;
  brands: string[];
  lastRecordId: string | null;
}

export const query = (partial: Partial<ContactsQuery>): ContactsQuery => ({
  country: null,
  state: null,
  brands: [],
  lastRecordId: null,
  ...partial,
});

/** The GET form of a server method: methodParams as URL-encoded compact JSON, or raw text as given. */
export function apexUrl(baseUrl: string, className: string, method: string, methodParams?: unknown): string {
  const url = `${baseUrl}${APEX}/${className}/${method}`;
  if (methodParams === undefined) return url;
  const text = typeof methodParams === 'string' ? methodParams : JSON.stringify(methodParams);
  return `${url}?methodParams=${encodeURIComponent(text)}`;
}

export const contactsUrl = (baseUrl: string, params: unknown) => apexUrl(baseUrl, CONTROLLER, 'getContacts', params);

export const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

export interface StoredContact {
  id: string;
  fields: Record<string, string | boolean | null>;
}

/** Every Contact Us record straight from the database, ordered by Id byte-wise (computed here, not in SQL). */
export async function storedContacts(db: Queryable): Promise<StoredContact[]> {
  const { rows } = await db.query<StoredContact>('SELECT id, fields FROM record WHERE object_api_name = $1', [
    CONTACT_US,
  ]);
  return rows.sort((a, b) => compareBytes(a.id, b.id));
}

/** Byte-wise order of ASCII strings (ids): what ORDER BY id COLLATE "C" gives. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a contact matches a query, by the locator's rules, evaluated in JavaScript. */
export function matches(contact: StoredContact, q: ContactsQuery): boolean {
  const f = contact.fields;
  if (q.country !== null && f.APT_Country__c !== q.country) return false;
  if (q.state !== null && f.APT_Primary_State__c !== q.state) return false;
  if (q.brands.length > 0) {
    const carried = String(f.APT_Brand__c ?? '').split(';');
    if (!q.brands.some((brand) => carried.includes(brand))) return false;
  }
  return true;
}

/** The locator card a stored contact should come back as. */
export function cardOf(contact: StoredContact): Record<string, unknown> {
  return Object.fromEntries(
    CARD_FIELDS.map((name) => [name, name === 'Id' ? contact.id : (contact.fields[name] ?? null)]),
  );
}
