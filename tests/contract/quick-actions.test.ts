/**
 * Quick actions over real HTTP, on every test database: their info, layout and defaults, and performing them
 * (performQuickAction, performUpdateRecordQuickAction) as the standard user and the administrator, every answer
 * checked against the contract. A quick action writes through the record engine (read back with getRecord),
 * and what a user may not write directly cannot be written through one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_US, DEFAULT_CONTACT_ID, type ErrorList, type RecordError, type RecordRep } from '../support/api.ts';
import {
  actionCalls,
  actionRecords,
  ADMIN_ACCOUNT,
  names,
  type Actions,
  type Defaults,
  type Execution,
  type Layout,
  type QuickActionInfo,
} from '../support/actions.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

describe.each(databases())('quick actions on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  let standardAccount: string;
  let standardAccountContact: string;
  const { get, recordActions, perform, performUpdate, getRecord, stored, count } = actionCalls(
    () => server,
    () => admin,
  );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
    ({ standardAccount, standardAccountContact } = await actionRecords(server, standard));
  });
  afterAll(() => server?.close());

  describe('quick action info, layout and defaults', () => {
    it('describes a quick action, and answers an unknown one 404', async () => {
      const info = await get<QuickActionInfo>(
        'getQuickActionInfo',
        '/actions/quick-action-info/Account.New_Contact',
        standard,
      );
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({
        actionApiName: 'Account.New_Contact',
        contextSobjectType: 'Account',
        targetSobjectType: 'Contact',
        targetParentField: 'AccountId',
        type: 'Create',
        label: 'New Contact',
      });
      expect(
        (await get<ErrorList>('getQuickActionInfo', '/actions/quick-action-info/Account.Nope', standard)).status,
      ).toBe(404);
      expect(
        (
          await get<ErrorList>(
            'getQuickActionInfo',
            '/actions/quick-action-info/Account.New_Contact?parentRecordId=001bad',
            standard,
          )
        ).status,
      ).toBe(400);
    });

    it('answers the form of an action as a record layout, as the caller may edit it', async () => {
      const forStandard = await get<Layout>(
        'getQuickActionLayout',
        `/actions/layout/${CONTACT_US}.New_Contact`,
        standard,
      );
      expect(forStandard.status).toBe(200);
      expect(forStandard.body).toMatchObject({
        mode: 'Create',
        objectApiName: CONTACT_US,
        layoutType: 'Full',
        id: null,
      });
      const items = forStandard.body.sections.flatMap((section) =>
        section.layoutRows.flatMap((row) => row.layoutItems),
      );
      const item = (name: string) => items.find((candidate) => candidate.layoutComponents[0]?.apiName === name);
      expect(item('APT_Company_Name__c')).toMatchObject({ required: true, editableForNew: true });
      // The standard user may read but not set the default-contact flag.
      expect(item('APT_Default_Contact__c')?.editableForNew).toBe(false);
      const update = await get<Layout>('getQuickActionLayout', `/actions/layout/${CONTACT_US}.Update_Phone`, admin);
      expect(update.body.mode).toBe('Edit');
      expect(
        (
          await get<ErrorList>(
            'getQuickActionLayout',
            `/actions/layout/${CONTACT_US}.New_Contact?recordTypeId=0128d0000000009AAA`,
            admin,
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await get<ErrorList>(
            'getQuickActionLayout',
            `/actions/layout/${CONTACT_US}.New_Contact?objectApiName=Account`,
            admin,
          )
        ).status,
      ).toBe(404);
    });

    it('fills in predefined values and the parent record: a new Contact from an Account gets AccountId', async () => {
      const fromAccount = await get<Defaults>(
        'getQuickActionDefaults',
        `/actions/record-defaults/Account.New_Contact?parentRecordId=${standardAccount}`,
        standard,
      );
      expect(fromAccount.status).toBe(200);
      expect(fromAccount.body.objectApiName).toBe('Contact');
      expect(fromAccount.body.fields.AccountId.value).toBe(standardAccount);
      expect(fromAccount.body.fields.LastName).toEqual({ displayValue: null, value: null });
      const contactUs = await get<Defaults>(
        'getQuickActionDefaults',
        `/actions/record-defaults/${CONTACT_US}.New_Contact?optionalFields=${CONTACT_US}.APT_UI_Country__c`,
        admin,
      );
      expect(contactUs.body.fields.APT_Country__c.value).toBe('United States');
      expect(contactUs.body.fields.APT_Default_Contact__c.value).toBe(false);
      expect(Object.keys(contactUs.body.fields)).toContain('APT_UI_Country__c');
      const phone = (await stored(DEFAULT_CONTACT_ID))!.APT_Phone__c;
      const update = await get<Defaults>(
        'getQuickActionDefaults',
        `/actions/record-defaults/${CONTACT_US}.Update_Phone?parentRecordId=${DEFAULT_CONTACT_ID}`,
        admin,
      );
      expect(update.body.fields.APT_Phone__c.value).toBe(phone);
      // A parent the caller may not see is like a missing one.
      expect(
        (
          await get<ErrorList>(
            'getQuickActionDefaults',
            `/actions/record-defaults/Account.New_Contact?parentRecordId=${ADMIN_ACCOUNT}`,
            standard,
          )
        ).status,
      ).toBe(404);
    });
  });

  describe('performQuickAction', () => {
    it('creates a related record through the write rules and answers the execution result; getRecord reads it back', async () => {
      const answer = await perform(
        'Account.New_Contact',
        { contextId: standardAccount, fields: { LastName: 'Procurement', Title: 'Buyer' } },
        standard,
      );
      expect(answer.status).toBe(201);
      const result = answer.body as Execution;
      expect(result).toMatchObject({ contextId: standardAccount, feedItemId: null, isCreated: true, isSuccess: true });
      expect(result.successMessage).toBe('Contact "Procurement" was created.');
      const record = await getRecord(
        result.id,
        'Contact.LastName,Contact.Title,Contact.AccountId,Contact.OwnerId',
        standard,
      );
      expect(record.status).toBe(200);
      const fields = (record.body as RecordRep).fields;
      expect(fields.LastName.value).toBe('Procurement');
      expect(fields.Title.value).toBe('Buyer');
      expect(fields.AccountId.value).toBe(standardAccount);
      expect(fields.OwnerId.value).toBe(standard.userId);
    });

    it('logs a call as a Case of the Contact it is launched from', async () => {
      const composer = await recordActions(standardAccountContact, '?sections=ActivityComposer', standard);
      expect(names(composer.body as Actions, standardAccountContact)).toEqual(['Contact.Log_A_Call']);
      expect((composer.body as Actions).actions[standardAccountContact].actions[0]).toMatchObject({
        subtype: 'LogACall',
        targetObject: 'Case',
      });
      const answer = await perform(
        'Contact.Log_A_Call',
        { contextId: standardAccountContact, fields: { Description: 'Asked for a quote' } },
        standard,
      );
      expect(answer.status).toBe(201);
      expect((answer.body as Execution).successMessage).toBe('The call was logged.');
      const fields = (await stored((answer.body as Execution).id))!;
      expect(fields).toMatchObject({
        ContactId: standardAccountContact,
        Origin: 'Phone',
        Status: 'Closed',
        Subject: 'Call',
        Description: 'Asked for a quote',
      });
    });

    it('applies predefined values unless given others', async () => {
      const answer = await perform('Global.New_Case', { fields: { Subject: 'Breaker trips', Origin: 'Email' } }, admin);
      expect(answer.status).toBe(201);
      const fields = (await stored((answer.body as Execution).id))!;
      expect(fields).toMatchObject({ Subject: 'Breaker trips', Origin: 'Email', Status: 'New' });
    });

    it('writes nothing the caller could not write directly: field errors, required fields, hidden parents', async () => {
      const before = await count(CONTACT_US);
      const flag = await perform(
        `${CONTACT_US}.New_Contact`,
        { fields: { APT_Company_Name__c: 'Flagged Co', APT_Default_Contact__c: true } },
        standard,
      );
      expect(flag.status).toBe(400);
      expect(Object.keys((flag.body as RecordError).output.fieldErrors)).toEqual(['APT_Default_Contact__c']);
      const required = await perform(`${CONTACT_US}.New_Contact`, { fields: { APT_City__c: 'Austin' } }, admin);
      expect(required.status).toBe(400);
      expect(Object.keys((required.body as RecordError).output.fieldErrors)).toContain('APT_Company_Name__c');
      expect(await count(CONTACT_US)).toBe(before);
      const hidden = await perform(
        'Account.New_Contact',
        { contextId: ADMIN_ACCOUNT, fields: { LastName: 'Sneaky' } },
        standard,
      );
      expect(hidden.status).toBe(404);
      const smuggled = await perform(
        'Account.New_Contact',
        { fields: { LastName: 'Sneaky', AccountId: ADMIN_ACCOUNT } },
        standard,
      );
      expect(smuggled.status).toBe(400);
    });

    it('rejects bad input: an unknown action 404, values of the wrong type, an update action, another object', async () => {
      expect((await perform('Account.Nope', { fields: { LastName: 'X' } })).status).toBe(404);
      expect((await perform('Account.New_Contact', { fields: { LastName: { nested: true } } })).status).toBe(400);
      expect((await perform('Account.New_Contact', { contextId: ADMIN_ACCOUNT })).status).toBe(400);
      expect((await perform('Account.New_Contact', '{not json')).status).toBe(400);
      expect(
        (await perform(`${CONTACT_US}.Update_Phone`, { contextId: DEFAULT_CONTACT_ID, fields: { APT_Phone__c: '1' } }))
          .status,
      ).toBe(400);
      expect(
        (await perform('Account.New_Contact', { apiName: 'Case', contextId: ADMIN_ACCOUNT, fields: { LastName: 'X' } }))
          .status,
      ).toBe(400);
    });
  });

  describe('performUpdateRecordQuickAction', () => {
    it('updates the context record through the write rules; getRecord reads the change back', async () => {
      const answer = await performUpdate(
        `${CONTACT_US}.Update_Phone`,
        { apiName: CONTACT_US, contextId: DEFAULT_CONTACT_ID, fields: { APT_Phone__c: '1-897-555-0177' } },
        standard,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        contextId: DEFAULT_CONTACT_ID,
        id: DEFAULT_CONTACT_ID,
        isCreated: false,
        isSuccess: true,
        feedItemId: null,
      });
      const record = await getRecord(DEFAULT_CONTACT_ID, `${CONTACT_US}.APT_Phone__c`, standard);
      expect((record.body as RecordRep).fields.APT_Phone__c.value).toBe('1-897-555-0177');
    });

    it('applies the action’s predefined values (Close Case sets Status Closed)', async () => {
      const created = await perform('Global.New_Case', { fields: { Subject: 'Close me' } }, admin);
      const id = (created.body as Execution).id;
      const answer = await performUpdate(
        'Case.Close_Case',
        { contextId: id, fields: { Description: 'Solved by phone' } },
        admin,
      );
      expect(answer.status).toBe(200);
      const record = await getRecord(id, 'Case.Status,Case.Description,Case.IsClosed');
      expect((record.body as RecordRep).fields.Status.value).toBe('Closed');
      expect((record.body as RecordRep).fields.Description.value).toBe('Solved by phone');
    });

    it('refuses what the caller could not update directly, and bad input', async () => {
      const flag = await performUpdate(
        `${CONTACT_US}.Update_Phone`,
        { contextId: DEFAULT_CONTACT_ID, fields: { APT_Default_Contact__c: false } },
        standard,
      );
      expect(flag.status).toBe(400);
      const hidden = await performUpdate(
        'Account.Update_Phone',
        { contextId: ADMIN_ACCOUNT, fields: { Phone: '1' } },
        standard,
      );
      expect(hidden.status).toBe(404);
      expect((await stored(ADMIN_ACCOUNT))!.Phone).not.toBe('1');
      expect((await performUpdate(`${CONTACT_US}.Update_Phone`, { fields: { APT_Phone__c: '1' } })).status).toBe(400);
      expect(
        (await performUpdate(`${CONTACT_US}.Update_Phone`, { contextId: ADMIN_ACCOUNT, fields: { APT_Phone__c: '1' } }))
          .status,
      ).toBe(404);
      expect(
        (
          await performUpdate(`${CONTACT_US}.New_Contact`, {
            contextId: DEFAULT_CONTACT_ID,
            fields: { APT_Phone__c: '1' },
          })
        ).status,
      ).toBe(400);
      expect((await performUpdate(`${CONTACT_US}.Nope`, { contextId: DEFAULT_CONTACT_ID, fields: {} })).status).toBe(
        404,
      );
      expect(
        (
          await performUpdate(`${CONTACT_US}.Update_Phone`, {
            contextId: DEFAULT_CONTACT_ID,
            fields: { APT_Phone__c: [1] },
          })
        ).status,
      ).toBe(400);
    });
  });
});
