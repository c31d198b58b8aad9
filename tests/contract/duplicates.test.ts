/**
 * Duplicate rules over real HTTP, on every test database: the configuration of an object's rules (GET
 * /duplicates), the duplicates of a record about to be saved (POST /predupe), and the rules in the write path
 * (create, update, batch): a blocking rule refuses the write with DUPLICATES_DETECTED in the record-error
 * output, an alerting one too unless allowSaveOnDuplicate. Every answer is checked against the contract and
 * the matches against the stored records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import {
  CONTACT_US,
  DEFAULT_CONTACT_ID,
  MASTER_RECORD_TYPE_ID,
  UI_API,
  type ErrorList,
  type RecordError,
  type RecordRep,
} from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Configuration = components['schemas']['DuplicatesConfigurationRepresentation'];
type Duplicates = components['schemas']['DuplicatesRepresentation'];

const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
const DEFAULT_EMAIL = 'contact@northgate-electrical.example';
const DEFAULT_PHONE = '414-555-0100';
const DEFAULT_COMPANY = 'Northgate Electrical Products, Inc.';
const ALERT_RULE = 'Contact_Us_Duplicate_Rule';
const BLOCK_RULE = 'Contact_Us_Same_Email_And_Phone';

const newContact = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiName: CONTACT_US,
  fields: {
    APT_Company_Name__c: 'Riverside Breaker Supply',
    APT_City__c: 'Toledo',
    APT_Country__c: 'United States',
    APT_Primary_State__c: 'Ohio',
    APT_Phone__c: '419-555-0170',
    APT_Email__c: 'orders@riverside-breaker.example',
    ...fields,
  },
  ...extra,
});

describe.each(databases())('duplicate rules on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const url = (path: string) => `${server.baseUrl}${UI_API}${path}`;
  const configuration = (
    objectApiName: string,
    session: TestSession | null,
    query = '',
    headers: Record<string, string> = {},
  ) =>
    callOperation<Configuration | ErrorList>('getDuplicateConfiguration', url(`/duplicates/${objectApiName}${query}`), {
      headers: { ...(session?.headers ?? {}), ...headers },
    });
  const send = <T>(operationId: string, method: string, path: string, session: TestSession | null, body: unknown) =>
    callOperation<T>(operationId, url(path), {
      method,
      headers: { ...(session?.headers ?? {}), 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const predupe = (body: unknown, session: TestSession | null = standard) =>
    send<Duplicates | ErrorList>('getDuplicates', 'POST', '/predupe', session, body);
  const create = (body: unknown, session: TestSession = standard, query = '') =>
    send<RecordRep | RecordError>('createRecord', 'POST', `/records${query}`, session, body);
  const update = (id: string, body: unknown, session: TestSession = standard) =>
    send<RecordRep | RecordError>('updateRecord', 'PATCH', `/records/${id}`, session, body);
  const batch = (body: unknown, session: TestSession = standard) =>
    send<{ hasErrors: boolean; results: { statusCode: number; result: unknown }[] }>(
      'executeBatchRecordOperations',
      'POST',
      '/records/batch',
      session,
      body,
    );
  /** Contact Us records with this e-mail address, case-insensitively, straight from the database. */
  const storedWithEmail = async (email: string) => {
    const { rows } = await server.db.query<{ id: string; fields: Record<string, unknown> }>(
      'SELECT id, fields FROM record WHERE object_api_name = $1',
      [CONTACT_US],
    );
    return rows.filter((row) => String(row.fields.APT_Email__c ?? '').toLowerCase() === email.toLowerCase());
  };
  const digits = (text: unknown) => String(text ?? '').replace(/[^0-9]/g, '');

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 40 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID', async () => {
    expect((await configuration(CONTACT_US, null)).body).toEqual(INVALID_SESSION);
    const answer = await predupe(newContact({}), null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(INVALID_SESSION);
  });

  it("gives the Contact Us object's duplicate rules, their filters and matching rules", async () => {
    for (const session of [standard, admin]) {
      const answer = await configuration(CONTACT_US, session);
      expect(answer.status).toBe(200);
      const body = answer.body as Configuration;
      expect(answer.headers.get('etag')).toBe(`"${body.eTag}"`);
      expect(body).toMatchObject({ apiName: CONTACT_US, dedupeEnabled: true, predupeEnabled: true });
      expect(body.dedupeFields.sort()).toEqual(['APT_Company_Name__c', 'APT_Email__c', 'APT_Phone__c']);
      expect(
        body.duplicateRules.map((rule) => [rule.name, rule.actionOnInsert, rule.actionOnUpdate, rule.active]),
      ).toEqual([
        [ALERT_RULE, 'Allow', 'Allow', true],
        [BLOCK_RULE, 'Block', 'Block', true],
      ]);
      const [alert, block] = body.duplicateRules;
      expect(alert.duplicateRuleFilters[0].filterItems).toEqual([
        expect.objectContaining({ field: 'APT_Default_Contact__c', operation: 'equals', sortOrder: 1, value: 'false' }),
      ]);
      expect(alert.duplicateRuleFilters[0].ruleCritera).toBe('Contact Us: Default Contact EQUALS False');
      expect(alert.matchRules).toEqual([
        expect.objectContaining({
          name: 'Contact_Us_Company_Match',
          matchEngine: 'FuzzyMatchEngine',
          matchFields: ['APT_Company_Name__c', 'APT_Email__c'],
          objectApiName: CONTACT_US,
        }),
      ]);
      expect(block.duplicateRuleFilters).toEqual([]);
      expect(block.matchRules).toEqual([
        expect.objectContaining({ matchEngine: 'ExactMatchEngine', matchFields: ['APT_Email__c', 'APT_Phone__c'] }),
      ]);
    }
    // Object names are case-insensitive; the record type may be named; a conditional GET answers 304.
    const lower = await configuration(CONTACT_US.toLowerCase(), admin, `?recordTypeId=${MASTER_RECORD_TYPE_ID}`);
    expect((lower.body as Configuration).apiName).toBe(CONTACT_US);
    const again = await configuration(CONTACT_US, admin, '', { 'If-None-Match': lower.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('gives an object without duplicate rules an empty configuration, and refuses unknown objects and bad record types', async () => {
    const account = await configuration('Account', standard);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({
      apiName: 'Account',
      dedupeEnabled: false,
      dedupeFields: [],
      duplicateRules: [],
      predupeEnabled: false,
    });
    const contact = await configuration('Contact', standard);
    expect((contact.body as Configuration).duplicateRules.map((rule) => rule.name)).toEqual([
      'Standard_Contact_Duplicate_Rule',
    ]);
    const unknown = await configuration('No_Such_Object__c', standard);
    expect(unknown.status).toBe(404);
    expect((unknown.body as ErrorList)[0].errorCode).toBe('INSUFFICIENT_ACCESS');
    const badType = await configuration(CONTACT_US, standard, '?recordTypeId=001000000000000AAA');
    expect(badType.status).toBe(400);
    const badName = await configuration('bad-name!', standard);
    expect(badName.status).toBe(400);
  });

  it('finds the default contact as a likely duplicate of a contact with its company, spelt differently, and e-mail', async () => {
    const expected = (await storedWithEmail(DEFAULT_EMAIL)).map((row) => row.id).sort();
    expect(expected).toContain(DEFAULT_CONTACT_ID);
    for (const company of [DEFAULT_COMPANY, 'Northgate Electrical Products Inc', 'NORTHGATE ELECTRICAL PRODUCTS']) {
      const answer = await predupe(
        newContact({ APT_Company_Name__c: company, APT_Email__c: DEFAULT_EMAIL.toUpperCase() }),
      );
      expect(answer.status).toBe(200);
      const body = answer.body as Duplicates;
      expect(body).toMatchObject({ allowSave: true, duplicateError: true, duplicateRules: [ALERT_RULE] });
      expect(body.matches).toHaveLength(1);
      expect(body.matches[0].objectApiName).toBe(CONTACT_US);
      expect(body.matches[0].recordIds).toEqual(expected);
      expect(body.matches[0].duplicateResultInfos[DEFAULT_CONTACT_ID]).toEqual({
        allowSave: true,
        matchResultInfo: { recordIds: expected, rule: 'Contact_Us_Company_Match' },
        rule: ALERT_RULE,
      });
    }
    // Saving anyway is allowed by the alerting rule: no duplicate error then.
    const anyway = await predupe(
      newContact({ APT_Company_Name__c: DEFAULT_COMPANY, APT_Email__c: DEFAULT_EMAIL }, { allowSaveOnDuplicate: true }),
    );
    expect(anyway.body).toMatchObject({ allowSave: true, duplicateError: false });
  });

  it('finds nothing for another company with the same e-mail, a blank e-mail, or a record the filter leaves out', async () => {
    const none = { allowSave: true, duplicateError: false, duplicateRules: [], matches: [] };
    expect(
      (await predupe(newContact({ APT_Company_Name__c: 'Blue Harbor Lighting', APT_Email__c: DEFAULT_EMAIL }))).body,
    ).toEqual(none);
    expect((await predupe(newContact({ APT_Company_Name__c: DEFAULT_COMPANY, APT_Email__c: null }))).body).toEqual(
      none,
    );
    expect((await predupe(newContact({ APT_Company_Name__c: DEFAULT_COMPANY, APT_Email__c: '' }))).body).toEqual(none);
    // The alerting rule applies only to records that are not the default contact.
    const defaultOne = await predupe(
      newContact({ APT_Company_Name__c: DEFAULT_COMPANY, APT_Email__c: DEFAULT_EMAIL, APT_Default_Contact__c: true }),
      admin,
    );
    expect(defaultOne.body).toEqual(none);
    expect((await predupe(newContact({}))).body).toEqual(none);
  });

  it('finds the same e-mail and phone number (by its digits) with the blocking rule', async () => {
    const expected = (await storedWithEmail(DEFAULT_EMAIL))
      .filter((row) => digits(row.fields.APT_Phone__c) === digits(DEFAULT_PHONE))
      .map((row) => row.id);
    expect(expected).toContain(DEFAULT_CONTACT_ID);
    const answer = await predupe(newContact({ APT_Email__c: DEFAULT_EMAIL, APT_Phone__c: '(414) 555 0100' }));
    expect(answer.status).toBe(200);
    const body = answer.body as Duplicates;
    expect(body).toMatchObject({ allowSave: false, duplicateError: true, duplicateRules: [BLOCK_RULE] });
    expect(body.matches[0].recordIds).toEqual(expected.sort());
    expect(body.matches[0].duplicateResultInfos[DEFAULT_CONTACT_ID]).toMatchObject({
      allowSave: false,
      rule: BLOCK_RULE,
    });
    // allowSaveOnDuplicate does not get past a blocking rule.
    const anyway = await predupe(
      newContact({ APT_Email__c: DEFAULT_EMAIL, APT_Phone__c: DEFAULT_PHONE }, { allowSaveOnDuplicate: true }),
    );
    expect(anyway.body).toMatchObject({ allowSave: false, duplicateError: true });
    // A record is not its own duplicate: with its Id, the default contact matches nothing.
    const itself = await predupe(
      newContact({ Id: DEFAULT_CONTACT_ID, APT_Email__c: DEFAULT_EMAIL, APT_Phone__c: DEFAULT_PHONE }),
      admin,
    );
    expect((itself.body as Duplicates).matches.flatMap((match) => match.recordIds)).not.toContain(DEFAULT_CONTACT_ID);
  });

  it("finds only duplicates the caller may see: another user's private contacts are never matched", async () => {
    const contactWith = async (email: string) => {
      const { rows } = await server.db.query<{ id: string }>(
        `SELECT id FROM record WHERE object_api_name = 'Contact' AND fields ->> 'Email' = $1`,
        [email],
      );
      return rows.map((row) => row.id);
    };
    const adminsOwn = {
      apiName: 'Contact',
      fields: { LastName: 'Service Dsk', Email: 'service@lakeshore-switchgear.example' },
    };
    const expected = await contactWith('service@lakeshore-switchgear.example');
    expect(expected).toHaveLength(1);
    const seen = (await predupe(adminsOwn, admin)).body as Duplicates;
    expect(seen).toMatchObject({
      allowSave: true,
      duplicateError: true,
      duplicateRules: ['Standard_Contact_Duplicate_Rule'],
    });
    expect(seen.matches[0].recordIds).toEqual(expected);
    // The administrator's contact is private to it: the standard user learns nothing of it.
    expect((await predupe(adminsOwn, standard)).body).toEqual({
      allowSave: true,
      duplicateError: false,
      duplicateRules: [],
      matches: [],
    });
    const standardsOwn = (
      await predupe(
        { apiName: 'Contact', fields: { LastName: 'Sales Desks', Email: 'sales@riverbend-controls.example' } },
        standard,
      )
    ).body as Duplicates;
    expect(standardsOwn.matches[0].recordIds).toEqual(await contactWith('sales@riverbend-controls.example'));
  });

  it('answers bad input with 400 in the platform error shape', async () => {
    const cases: [unknown, string][] = [
      [{ fields: { APT_Email__c: DEFAULT_EMAIL } }, 'INVALID_INPUT'],
      [{ apiName: 'No_Such_Object__c', fields: {} }, 'INVALID_TYPE'],
      [{ apiName: CONTACT_US, fields: { No_Such_Field__c: 'x' } }, 'INVALID_FIELD'],
      [{ apiName: CONTACT_US, fields: { Id: 'not-an-id' } }, 'INVALID_ID_FIELD'],
      [{ apiName: CONTACT_US, fields: { Id: '0018d0000000001AAA' } }, 'INVALID_ID_FIELD'],
    ];
    for (const [body, errorCode] of cases) {
      const answer = await predupe(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as ErrorList)[0].errorCode).toBe(errorCode);
    }
    for (const body of [
      { apiName: CONTACT_US },
      { apiName: CONTACT_US, fields: [] },
      { apiName: CONTACT_US, fields: { APT_Email__c: ['x'] } },
      '{"apiName":',
    ]) {
      const answer = await predupe(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Array.isArray(answer.body)).toBe(true);
    }
  });

  it('refuses a create that a blocking rule matches, with DUPLICATES_DETECTED and the matches, and saves nothing', async () => {
    const before = (await storedWithEmail(DEFAULT_EMAIL)).length;
    for (const [query, extra] of [
      ['', {}],
      ['?useDefaultRule=true', { allowSaveOnDuplicate: true }],
    ] as const) {
      const answer = await create(
        newContact({ APT_Email__c: DEFAULT_EMAIL, APT_Phone__c: DEFAULT_PHONE }, extra),
        standard,
        query,
      );
      expect(answer.status).toBe(400);
      const body = answer.body as RecordError;
      expect(body.enhancedErrorType).toBe('RecordError');
      expect(body.output.fieldErrors).toEqual({});
      const [error] = body.output.errors;
      expect(error.errorCode).toBe('DUPLICATES_DETECTED');
      expect(error.duplicateRecordError?.matchResults).toEqual([
        {
          apiName: CONTACT_US,
          isAllowSave: false,
          matchRecordIds: [DEFAULT_CONTACT_ID],
          matchRule: 'Contact_Us_Email_Phone_Match',
          objectLabel: 'Contact Us',
          objectLabelPlural: 'Contact Us',
          themeInfo: { color: '1B96FF', iconUrl: null },
        },
      ]);
    }
    expect((await storedWithEmail(DEFAULT_EMAIL)).length).toBe(before);
  });

  it('refuses a create that an alerting rule matches unless allowSaveOnDuplicate, then saves it', async () => {
    const fields = {
      APT_Company_Name__c: 'Northgate Electrical Products',
      APT_Email__c: DEFAULT_EMAIL,
      APT_Phone__c: '414-555-0199',
    };
    const refused = await create(newContact(fields));
    expect(refused.status).toBe(400);
    const [error] = (refused.body as RecordError).output.errors;
    expect(error.errorCode).toBe('DUPLICATES_DETECTED');
    expect(error.duplicateRecordError?.matchResults[0]).toMatchObject({
      isAllowSave: true,
      matchRule: 'Contact_Us_Company_Match',
    });
    expect(error.duplicateRecordError?.matchResults[0].matchRecordIds).toContain(DEFAULT_CONTACT_ID);
    const saved = await create(newContact(fields, { allowSaveOnDuplicate: true }));
    expect(saved.status).toBe(201);
    const id = (saved.body as RecordRep).id;
    expect((await storedWithEmail(DEFAULT_EMAIL)).map((row) => row.id)).toContain(id);
    // The saved record is now itself a duplicate the rules find.
    const found = await predupe(newContact(fields));
    expect((found.body as Duplicates).matches[0].recordIds).toContain(id);
  });

  it('runs the rules on an update that changes a matched field, and not on one that does not', async () => {
    const created = await create(
      newContact({ APT_Email__c: 'desk@eastfield-controls.example', APT_Phone__c: '614-555-0181' }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as RecordRep).id;
    const untouched = await update(id, { fields: { APT_City__c: 'Columbus' } });
    expect(untouched.status).toBe(200);
    const refused = await update(id, { fields: { APT_Email__c: DEFAULT_EMAIL, APT_Phone__c: DEFAULT_PHONE } });
    expect(refused.status).toBe(400);
    expect((refused.body as RecordError).output.errors[0]).toMatchObject({ errorCode: 'DUPLICATES_DETECTED' });
    const { rows } = await server.db.query<{ fields: Record<string, unknown> }>(
      'SELECT fields FROM record WHERE id = $1',
      [id],
    );
    expect(rows[0].fields.APT_Email__c).toBe('desk@eastfield-controls.example');
  });

  it('honours the rules per record in batch writes, records written earlier in the batch included', async () => {
    const twin = { APT_Email__c: 'sales@westgate-wire.example', APT_Phone__c: '503-555-0166' };
    const answer = await batch({
      allOrNone: false,
      operations: [
        {
          type: 'Create',
          records: [
            newContact(twin),
            newContact(twin),
            newContact({ APT_Email__c: DEFAULT_EMAIL, APT_Phone__c: DEFAULT_PHONE }),
          ],
        },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result) => result.statusCode)).toEqual([201, 400, 400]);
    expect((answer.body.results[1].result as ErrorList)[0].errorCode).toBe('DUPLICATES_DETECTED');
    expect((await storedWithEmail(twin.APT_Email__c)).length).toBe(1);
    const allOrNone = await batch({
      allOrNone: true,
      operations: [{ type: 'Create', records: [newContact({ APT_Email__c: 'x@y.example' }), newContact(twin)] }],
    });
    expect(allOrNone.body.results.map((result) => result.statusCode)).toEqual([400, 400]);
    expect((allOrNone.body.results[1].result as ErrorList)[0].errorCode).toBe('DUPLICATES_DETECTED');
    expect(await storedWithEmail('x@y.example')).toEqual([]);
  });
});
