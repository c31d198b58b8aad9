/**
 * The inquiry's server methods over real HTTP, on every test database: getInquiryForm and submitInquiry as a
 * guest and signed in; the field checks and their field errors; the form token (too soon, forged, expired); the
 * honeypot; the idempotency key (repeated, in parallel, with other content); the per-address limit; the form page
 * of an Id that names no representative. Every answer is checked against the contract, and what was saved is read
 * from the database.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apexUrl, CONTROLLER, DEFAULT_CONTACT_ID, UI_API, type ApexErrorBody } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, GUEST_USER_ID } from '../support/session.ts';
import type { components } from '../../generated/types.ts';
import { listApi, type ListRecords } from '../support/lists.ts';
import { makeId } from '../../server/platform/core/ids.ts';

type InquiryResult = components['schemas']['InquiryResult'];
type InquiryForm = components['schemas']['InquiryForm'];

const START = Date.UTC(2026, 0, 6, 14, 0, 0);

describe.each(databases())('inquiries on %s', (kind) => {
  let server: TestServer;
  let now = START;
  const clock = { now: () => now };

  const getForm = async (headers: Record<string, string> = {}) => {
    const answer = await callOperation<InquiryForm>(
      'getInquiryForm',
      apexUrl(server.baseUrl, CONTROLLER, 'getInquiryForm'),
      {
        headers,
      },
    );
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const submit = <T = InquiryResult | ApexErrorBody>(body: unknown, headers: Record<string, string> = {}) =>
    callOperation<T>('submitInquiry', apexUrl(server.baseUrl, CONTROLLER, 'submitInquiry'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const fields = {
    representativeId: DEFAULT_CONTACT_ID,
    name: 'Dana Reyes',
    email: 'dana.reyes@example.com',
    phone: '+1 512 555 0134',
    company: 'Reyes Electric',
    message: 'Please send prices for 40 panel boards.',
    website: '',
  };
  /** A form made now and filled in for 5 seconds (the clock moves on). */
  const filledForm = async (headers: Record<string, string> = {}) => {
    const form = await getForm(headers);
    now += 5_000;
    return { ...fields, ...form };
  };
  const caseCount = async () =>
    Number(
      (await server.db.query<{ n: string }>(`SELECT count(*) AS n FROM record WHERE object_api_name = 'Case'`)).rows[0]
        .n,
    );
  const caseRow = async (id: string) =>
    (
      await server.db.query<{ fields: Record<string, unknown>; created_by_id: string }>(
        'SELECT fields, created_by_id FROM record WHERE id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 3, app: { clock } });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    now += 60_000;
  });

  it('gives every form its own key and a token, never to be cached', async () => {
    const first = await callOperation<InquiryForm>(
      'getInquiryForm',
      apexUrl(server.baseUrl, CONTROLLER, 'getInquiryForm'),
    );
    const second = await getForm();
    expect(first.body.idempotencyKey).not.toBe(second.idempotencyKey);
    expect(first.body.formToken).toMatch(new RegExp(`^${now}\\.`));
    // Never reused without asking again, and no ETag to be answered 304 with: every ask makes a new form.
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('etag')).toBeNull();
  });

  it('saves a guest inquiry as a Case from the web, linked to the representative', async () => {
    const before = await caseCount();
    const answer = await submit<InquiryResult>(await filledForm());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      caseId: expect.stringMatching(/^500/),
      caseNumber: expect.stringMatching(/^\d{8}$/),
      representativeId: DEFAULT_CONTACT_ID,
      submittedDate: new Date(now).toISOString(),
    });
    expect(await caseCount()).toBe(before + 1);
    const row = await caseRow(answer.body.caseId);
    expect(row.fields).toMatchObject({
      Origin: 'Web',
      Status: 'New',
      SuppliedName: 'Dana Reyes',
      SuppliedEmail: 'dana.reyes@example.com',
      SuppliedPhone: '+1 512 555 0134',
      SuppliedCompany: 'Reyes Electric',
      Description: 'Please send prices for 40 panel boards.',
      APT_Contact_Us__c: DEFAULT_CONTACT_ID,
      Subject: expect.stringMatching(/^Web inquiry for /),
    });
    expect(row.created_by_id).toBe(GUEST_USER_ID);
  });

  it('refuses wrong fields with a field error beside each, and saves nothing', async () => {
    const before = await caseCount();
    const form = await filledForm();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: ' ', email: '', company: '', message: '' }, ['name', 'email', 'company', 'message']],
      [{ email: 'dana.example.com' }, ['email']],
      [{ email: 'dana@example' }, ['email']],
      [{ name: 'x'.repeat(81) }, ['name']],
      [{ message: 'x'.repeat(4_001) }, ['message']],
      [{ phone: 'call me' }, ['phone']],
      [{ representativeId: 'not an id' }, ['representativeId']],
    ];
    for (const [change, wrong] of cases) {
      const answer = await submit<ApexErrorBody>({ ...form, ...change });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(answer.body.fieldErrors ?? {}).sort()).toEqual([...wrong].sort());
      for (const messages of Object.values(answer.body.fieldErrors ?? {})) expect(messages[0]).toMatch(/\w/);
    }
    // A field the contract requires, left out, is refused before the method (no field errors).
    const { message: _left, ...withoutMessage } = form;
    expect((await submit(withoutMessage)).status).toBe(400);
    expect(await caseCount()).toBe(before);
  });

  it('refuses a form sent too soon, a forged or expired token, a key that is no UUID and a filled honeypot', async () => {
    const before = await caseCount();
    const form = await getForm();
    now += 1_000;
    const tooSoon = await submit<ApexErrorBody>({ ...fields, ...form });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.errorMessage).toMatch(/too quickly/);
    now += 4_000;
    const [issuedAt] = form.formToken.split('.');
    const forged = await submit<ApexErrorBody>({
      ...fields,
      ...form,
      formToken: `${Number(issuedAt) - 60_000}.${form.formToken.split('.')[1]}`,
    });
    expect(forged.status).toBe(400);
    expect(forged.body.errorMessage).toMatch(/not made by this site/);
    const notUuid = await submit<ApexErrorBody>({ ...fields, ...form, idempotencyKey: 'twice' });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.errorMessage).toMatch(/UUID/);
    const honeypot = await submit<ApexErrorBody>({ ...fields, ...form, website: 'https://spam.example' });
    expect(honeypot.status).toBe(400);
    expect(honeypot.body).toEqual({ errorMessage: 'This inquiry could not be accepted.' });
    now += 25 * 60 * 60_000;
    const expired = await submit<ApexErrorBody>({ ...fields, ...form });
    expect(expired.status).toBe(400);
    expect(expired.body.errorMessage).toMatch(/expired/);
    expect(await caseCount()).toBe(before);
  });

  it('answers 404 for a representative that does not exist', async () => {
    const answer = await submit<ApexErrorBody>({ ...(await filledForm()), representativeId: 'a1C8d0000000999EAA' });
    expect(answer.status).toBe(404);
  });

  it('makes the form page of an Id that names no representative the page not found, 404, sent or not', async () => {
    // None, a record of another object (a user), and a good form's page for comparison.
    const form = await (await fetch(`${server.baseUrl}/reps/${DEFAULT_CONTACT_ID}/inquiry`)).text();
    expect(form).toContain('name="formToken"');
    for (const id of [makeId('a1C', 999_999), '0058d0000000002AAA']) {
      const path = `/reps/${id}/inquiry`;
      const page = await fetch(`${server.baseUrl}${path}`);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const html = await page.text();
      expect(html).toContain('<title>Page not found</title>');
      expect(html).toContain('<h1');
      expect(html).not.toContain('name="formToken"');
      const before = await caseCount();
      const posted = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.baseUrl },
        body: new URLSearchParams({ ...(await filledForm()), representativeId: id }),
        redirect: 'manual',
      });
      expect(posted.status).toBe(404);
      expect(await posted.text()).toContain('<title>Page not found</title>');
      expect(await caseCount()).toBe(before);
    }
  });

  it('answers the first result to the same key sent again, and saves one Case', async () => {
    const before = await caseCount();
    const form = await filledForm();
    const first = await submit<InquiryResult>(form);
    now += 10_000;
    const again = await submit<InquiryResult>(form);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await caseCount()).toBe(before + 1);
  });

  it('saves one Case when requests with the same key meet', async () => {
    const before = await caseCount();
    const form = await filledForm();
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit<InquiryResult>(form)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0].body);
    expect(await caseCount()).toBe(before + 1);
  });

  it('refuses the same key with other content (409)', async () => {
    const form = await filledForm();
    expect((await submit(form)).status).toBe(200);
    const before = await caseCount();
    const other = await submit<ApexErrorBody>({ ...form, message: 'Another question.' });
    expect(other.status).toBe(409);
    expect(other.body.errorMessage).toMatch(/idempotency key/);
    // Case and spacing of the key do not make another key.
    const upper = await submit<InquiryResult>({ ...form, idempotencyKey: form.idempotencyKey.toUpperCase() });
    expect(upper.status).toBe(200);
    expect(await caseCount()).toBe(before);
  });

  it('saves a signed-in user inquiry in that user name, with the CSRF checks of every write', async () => {
    const session = await signIn(server, 'standard');
    const form = await filledForm(session.headers);
    const refused = await submit<ApexErrorBody>(form, { Cookie: session.cookie });
    expect(refused.status).toBe(403);
    const wrongToken = await submit<ApexErrorBody>(form, { Cookie: session.cookie, 'X-CSRF-Token': 'x' });
    expect(wrongToken.status).toBe(403);
    const answer = await submit<InquiryResult>(form, session.headers);
    expect(answer.status).toBe(200);
    expect((await caseRow(answer.body.caseId)).created_by_id).toBe(session.userId);
    // Another site's page may not send one, signed in or not.
    const crossSite = await submit<ApexErrorBody>(
      { ...form, idempotencyKey: randomUUID() },
      { Origin: 'https://elsewhere.example' },
    );
    expect(crossSite.status).toBe(403);
  });

  it('shows the inquiries in the Cases list view Web Inquiries, newest first, and no other Case', async () => {
    const lists = listApi(() => server);
    const admin = await signIn(server, 'admin');
    const phoned = await callOperation<{ id: string }>('createRecord', `${server.baseUrl}${UI_API}/records`, {
      method: 'POST',
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: 'Case', fields: { Origin: 'Phone', Subject: 'Called in' } }),
    });
    expect(phoned.status).toBe(201);
    const older = await submit<InquiryResult>({ ...(await filledForm()), name: 'Older Sender' });
    now += 60_000;
    const newer = await submit<InquiryResult>({ ...(await filledForm()), name: 'Newer Sender', company: 'Newer Co' });
    const answer = await lists.recordsGet('Case', 'WebInquiries', '?pageSize=200', await signIn(server, 'standard'));
    expect(answer.status).toBe(200);
    const { records } = answer.body as ListRecords;
    const ids = records.map((record) => record.id);
    expect(ids.indexOf(newer.body.caseId)).toBe(0);
    expect(ids).toContain(older.body.caseId);
    expect(ids).not.toContain(phoned.body.id);
    const first = records[0].fields;
    expect(first.SuppliedName.value).toBe('Newer Sender');
    expect(first.SuppliedEmail.value).toBe(fields.email);
    expect(first.SuppliedCompany.value).toBe('Newer Co');
    // The representative's column: the lookup's record, shown by its name.
    expect((first.APT_Contact_Us__r.value as { id: string }).id).toBe(DEFAULT_CONTACT_ID);
    expect(first.APT_Contact_Us__r.displayValue).toMatch(/\w/);
    expect(first.CreatedDate.value).toBe(newer.body.submittedDate);
    const dates = records.map((record) => String(record.fields.CreatedDate.value));
    expect(dates).toEqual([...dates].sort().reverse());
  });
});

describe.each(databases())('the inquiry limit per address on %s', (kind) => {
  let server: TestServer;
  let now = START;
  const clock = { now: () => now };
  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      demoContacts: 3,
      app: { clock, limits: { publicRequestsPerMinute: 0, signInAttemptsPerWindow: 0, inquiriesPerWindow: 2 } },
    });
  });
  afterAll(() => server?.close());

  it('answers 429 with Retry-After past the limit, in the Apex error shape, until the window ends', async () => {
    const url = apexUrl(server.baseUrl, CONTROLLER, 'submitInquiry');
    const send = async () => {
      const form = (
        await callOperation<InquiryForm>('getInquiryForm', apexUrl(server.baseUrl, CONTROLLER, 'getInquiryForm'))
      ).body;
      now += 5_000;
      return callOperation<ApexErrorBody>('submitInquiry', url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          representativeId: DEFAULT_CONTACT_ID,
          name: 'Dana Reyes',
          email: 'dana@example.com',
          company: 'Reyes Electric',
          message: 'Prices, please.',
          ...form,
        }),
      });
    };
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const over = await send();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.body.errorMessage).toMatch(/Too many requests/);
    now += 10 * 60_000;
    expect((await send()).status).toBe(200);
  });
});
