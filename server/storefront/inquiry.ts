/**
 * Inquiries from the storefront (APT_ContactUsController.getInquiryForm and submitInquiry): an inquiry to a
 * representative is saved as a Case through the record code, so that Case's fields, required fields and
 * metadata hold. No e-mail is sent.
 *
 * - Idempotent: the form carries a UUID (getInquiryForm); the inquiry table (migration 025) keeps, by that key,
 *   the hash of the content and the first answer. The key's row is inserted in the transaction that creates the
 *   Case, so two requests with the same key meet on the primary key: the second waits for the first to commit,
 *   then answers its result. The same key with other content is refused (409).
 * - The form token is the time the form was made and an HMAC of it under a server secret kept in the database
 *   (as the CSRF tokens are): a form sent under MIN_FILL_MS after it was made, or over MAX_FORM_AGE_MS after, is
 *   refused, and a token the server did not make cannot pass.
 * - The honeypot (`website`, hidden from people) must stay empty: a filled one is refused with a plain error
 *   (400) and nothing is saved.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../db/connection.ts';
import type { Schemas } from '../../generated/types.ts';
import { ApexError } from './apex-error.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';
import { toId18 } from '../platform/core/ids.ts';
import { profileNamed, type Principal } from '../platform/core/principal.ts';
import { describeOrg } from '../platform/core/describe.ts';
import { insertRecord, objectToCreate, valueContext } from '../platform/records/write.ts';
import { recordTypeForCreate } from '../platform/records/write-rules.ts';
import { enforceDuplicateRules } from '../platform/duplicates/match.ts';
import { stableJson } from '../cache/result-cache.ts';
import { INQUIRY_LIMITS, MIN_FILL_MS } from '../../common/inquiry.ts';

type InquiryInput = Schemas['InquiryInput'];
type InquiryResult = Schemas['InquiryResult'];

/** A form older than this is refused: the page is to be loaded again. */
export const MAX_FORM_AGE_MS = 24 * 60 * 60_000;

/** The inquiry's content once checked: trimmed, the representative's Id in its 18-character form. */
interface CheckedInquiry {
  representativeId: string;
  name: string;
  email: string;
  phone: string;
  company: string;
  message: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID (RFC 9562: versions 1 to 8, the variant of the RFC), as the idempotency key must be. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * An e-mail address as a form takes it (the WHATWG form's rule): a local part of the allowed characters, an @,
 * and a domain of dot-separated labels of letters, digits and inner hyphens, with at least one dot.
 */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmailAddress(value: string): boolean {
  return EMAIL.test(value);
}

/**
 * Checks an inquiry's fields: the checked content, or the problems by field, each in words a visitor can act on.
 * Pure; the representative's existence is checked against the database later.
 */
export function checkInquiry(
  input: Pick<InquiryInput, 'representativeId' | 'name' | 'email' | 'phone' | 'company' | 'message'>,
): { ok: true; inquiry: CheckedInquiry } | { ok: false; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  const problem = (field: string, message: string) => (fieldErrors[field] ??= []).push(message);
  const text = (field: keyof typeof INQUIRY_LIMITS, label: string, required: boolean): string => {
    const value = (input[field] ?? '').trim();
    if (required && value === '') problem(field, `Enter your ${label}.`);
    else if ([...value].length > INQUIRY_LIMITS[field])
      problem(field, `Your ${label} must be at most ${INQUIRY_LIMITS[field]} characters long.`);
    return value;
  };
  const representativeId = toId18(input.representativeId.trim());
  if (!representativeId) problem('representativeId', 'Choose a representative from the Contact Us page.');
  const name = text('name', 'name', true);
  const email = text('email', 'e-mail address', true);
  if (email !== '' && !fieldErrors.email && !isEmailAddress(email))
    problem('email', 'Enter an e-mail address such as name@example.com.');
  const phone = text('phone', 'phone number', false);
  if (phone !== '' && !fieldErrors.phone && !/^[0-9+().\s/-]*[0-9][0-9+().\s/-]*$/.test(phone))
    problem('phone', 'Enter a phone number with digits, spaces and + ( ) - only.');
  const company = text('company', 'company', true);
  const message = text('message', 'message', true);
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, inquiry: { representativeId: representativeId!, name, email, phone, company, message } };
}

/** The SHA-256 of an inquiry's content, to tell a repeat of an inquiry from another one sent with its key. */
export function contentHash(inquiry: CheckedInquiry): string {
  return createHash('sha256').update(stableJson(inquiry)).digest('base64url');
}

const tokenSignature = (secret: Buffer, issuedAt: number) =>
  createHmac('sha256', secret).update(`inquiry-form:${issuedAt}`).digest('base64url');

/** The form token of a form made at issuedAt (milliseconds): the time and its signature. */
export function formTokenFor(secret: Buffer, issuedAt: number): string {
  return `${issuedAt}.${tokenSignature(secret, issuedAt)}`;
}

/** When the form of a token was made, or undefined when the token is not one made with this secret. */
export function formTokenIssuedAt(secret: Buffer, token: string): number | undefined {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const issuedAt = Number(match[1]);
  const given = Buffer.from(match[2]);
  const expected = Buffer.from(tokenSignature(secret, issuedAt));
  return given.length === expected.length && timingSafeEqual(given, expected) ? issuedAt : undefined;
}

/** Why a form token is refused at a time, or undefined when it may be sent. */
export function formTokenProblem(secret: Buffer, token: string, now: number): string | undefined {
  const issuedAt = formTokenIssuedAt(secret, token);
  if (issuedAt === undefined) return 'This form was not made by this site: load the page again and send it from there.';
  if (now - issuedAt < MIN_FILL_MS) return 'The form was sent too quickly: check your inquiry and send it again.';
  if (now - issuedAt > MAX_FORM_AGE_MS) return 'This form has expired: load the page again and send your inquiry.';
  return undefined;
}

/** The key of the form tokens, created once per database and shared by every server on it. */
const secrets = new WeakMap<Queryable, Promise<Buffer>>();
function formSecret(db: Queryable): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      await db.query(`INSERT INTO server_secret (name, value) VALUES ('inquiry', $1) ON CONFLICT (name) DO NOTHING`, [
        randomBytes(32).toString('base64url'),
      ]);
      const { rows } = await db.query<{ value: string }>(`SELECT value FROM server_secret WHERE name = 'inquiry'`);
      return Buffer.from(rows[0].value, 'base64url');
    })();
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

/** getInquiryForm: a new idempotency key and the form token of now. */
export async function inquiryForm(db: Queryable, now: number): Promise<Schemas['InquiryForm']> {
  return { idempotencyKey: randomUUID(), formToken: formTokenFor(await formSecret(db), now) };
}

/**
 * The inquiry's writer: the server method runs in system mode, as the platform's server classes do (a guest may
 * not create Cases itself), in the name of its caller (the site's guest user, or the signed-in user).
 */
function systemMode(caller: Principal): Principal {
  return { userId: caller.userId, isGuest: caller.isGuest, profile: profileNamed('System Administrator') };
}

const KEY_REUSED = 'This idempotency key was sent with another inquiry; send a new inquiry with a new key.';

/** submitInquiry: saves the inquiry as a Case, once per idempotency key; answers the first result for a repeat. */
export async function submitInquiry(
  db: Database,
  caller: Principal,
  input: InquiryInput,
  now: number,
): Promise<InquiryResult> {
  const checked = checkInquiry(input);
  if (!checked.ok) {
    const fields = Object.keys(checked.fieldErrors).join(', ');
    throw new ApexError(400, `Check the fields marked: ${fields}.`, undefined, checked.fieldErrors);
  }
  if (input.website) throw new ApexError(400, 'This inquiry could not be accepted.');
  if (!isUuid(input.idempotencyKey))
    throw new ApexError(400, 'The idempotency key must be a UUID: load the page again and send it from there.');
  const tokenProblem = formTokenProblem(await formSecret(db), input.formToken, now);
  if (tokenProblem) throw new ApexError(400, tokenProblem);
  const { inquiry } = checked;
  const key = input.idempotencyKey.toLowerCase();
  const hash = contentHash(inquiry);

  const { rows: representatives } = await db.query<{ company: string | null }>(
    `SELECT fields ->> 'APT_Company_Name__c' AS company FROM record WHERE id = $1 AND object_api_name = $2`,
    [inquiry.representativeId, CONTACT_US_OBJECT],
  );
  if (!representatives[0]) throw new ApexError(404, `No representative has the Id ${inquiry.representativeId}.`);
  const representative = representatives[0].company ?? inquiry.representativeId;

  const org = await describeOrg(db);
  const principal = systemMode(caller);
  const object = objectToCreate(org, principal, 'Case');
  const fields = {
    Origin: 'Web',
    Subject: `Web inquiry for ${representative}`.slice(0, 255),
    Description: inquiry.message,
    SuppliedName: inquiry.name,
    SuppliedEmail: inquiry.email,
    SuppliedPhone: inquiry.phone || null,
    SuppliedCompany: inquiry.company,
    APT_Contact_Us__c: inquiry.representativeId,
  };
  const { recordTypeId, fields: caseFields } = recordTypeForCreate(object, fields);
  const context = await valueContext(db, org, object, recordTypeId);
  const submitted = new Date(now);

  const answer = await db.transaction(async (tx): Promise<{ result?: InquiryResult; hash: string }> => {
    const taken = await tx.query(
      `INSERT INTO inquiry (idempotency_key, content_hash, created_date) VALUES ($1, $2, $3)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING idempotency_key`,
      [key, hash, submitted.toISOString()],
    );
    if (taken.rows.length === 0) {
      // Another request with this key committed first (this insert waited for it): its answer is this one's.
      const { rows } = await tx.query<{ content_hash: string; result: InquiryResult }>(
        'SELECT content_hash, result FROM inquiry WHERE idempotency_key = $1',
        [key],
      );
      return { result: rows[0].result, hash: rows[0].content_hash };
    }
    const caseId = await insertRecord(tx, org, principal, object, recordTypeId, caseFields, context, submitted, {
      beforeWrite: enforceDuplicateRules,
    });
    const { rows } = await tx.query<{ number: string }>(
      `SELECT fields ->> 'CaseNumber' AS number FROM record WHERE id = $1`,
      [caseId],
    );
    const result: InquiryResult = {
      caseId,
      caseNumber: rows[0].number,
      representativeId: inquiry.representativeId,
      submittedDate: submitted.toISOString(),
    };
    await tx.query('UPDATE inquiry SET case_id = $2, result = $3::jsonb WHERE idempotency_key = $1', [
      key,
      caseId,
      JSON.stringify(result),
    ]);
    return { result, hash };
  });
  if (answer.hash !== hash) throw new ApexError(409, KEY_REUSED);
  return answer.result!;
}
