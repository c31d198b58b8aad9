/**
 * Actions over real HTTP, on every test database: every operation of the Actions tag as a guest, the
 * standard user and the administrator, with valid and invalid input, every answer checked against the
 * contract. Lists hold an action only when the caller may do it. The quick actions' own operations (info,
 * layout, defaults, and performing them) are in quick-actions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_US, DEFAULT_CONTACT_ID, NOT_FOUND_BODY, UI_API, type ErrorList } from '../support/api.ts';
import {
  actionCalls,
  actionRecords,
  ADMIN_ACCOUNT,
  INVALID_SESSION,
  MISSING_CONTACT_US,
  names,
  type ActionBatch,
  type Actions,
  type Execution,
  type Formulas,
  type Override,
} from '../support/actions.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

describe.each(databases())('actions on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  let standardAccount: string;
  let standardAccountContact: string;
  let adminAccountContact: string;
  const { get, send, recordActions, perform, performUpdate } = actionCalls(
    () => server,
    () => admin,
  );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
    ({ standardAccount, standardAccountContact, adminAccountContact } = await actionRecords(server, standard));
  });
  afterAll(() => server?.close());

  it('answers a guest 401 INVALID_SESSION_ID on every action operation', async () => {
    const answers = await Promise.all([
      get('getGlobalActions', '/actions/global', null),
      get('getRecordActions', `/actions/record/${DEFAULT_CONTACT_ID}?sections=Page`, null),
      get('getRecordEditActions', `/actions/record/${DEFAULT_CONTACT_ID}/record-edit`, null),
      get('getObjectCreateActions', `/actions/object/${CONTACT_US}/record-create`, null),
      get('getLookupActions', `/actions/lookup/${CONTACT_US}`, null),
      send('getRelatedListActions', 'POST', `/actions/record/${ADMIN_ACCOUNT}/related-list/Contacts`, null, {}),
      get('getRelatedListActionsByQuery', `/actions/record/${ADMIN_ACCOUNT}/related-list/Contacts`, null),
      send('getRelatedListsActions', 'POST', `/actions/record/${ADMIN_ACCOUNT}/related-list/batch`, null, {
        relatedListsActionParameters: [{ relatedListId: 'Contacts' }],
      }),
      get(
        'getRelatedListRecordActions',
        `/actions/record/${ADMIN_ACCOUNT}/related-list-record/${adminAccountContact}`,
        null,
      ),
      get('getActionOverrides', `/actions/overrides/${CONTACT_US}?type=New`, null),
      get('getFormulaActivation', '/actions/formula-activation/DynamicActions', null),
      get('getQuickActionInfo', `/actions/quick-action-info/${CONTACT_US}.New_Contact`, null),
      get('getQuickActionLayout', `/actions/layout/${CONTACT_US}.New_Contact`, null),
      get('getQuickActionDefaults', `/actions/record-defaults/${CONTACT_US}.New_Contact`, null),
      perform(`${CONTACT_US}.New_Contact`, { fields: { APT_Company_Name__c: 'Guest Co' } }, null),
      performUpdate(
        `${CONTACT_US}.Update_Phone`,
        { contextId: DEFAULT_CONTACT_ID, fields: { APT_Phone__c: '1' } },
        null,
      ),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(INVALID_SESSION);
    }
  });

  describe('getGlobalActions', () => {
    it('lists the global quick actions of objects the caller may create, filtered by type and name', async () => {
      const all = await get<Actions>('getGlobalActions', '/actions/global', standard);
      expect(all.status).toBe(200);
      expect(names(all.body, 'Global')).toEqual(['Global.New_Contact_Us', 'Global.New_Account', 'Global.New_Case']);
      const first = all.body.actions.Global.actions[0];
      expect(first).toMatchObject({
        actionListContext: 'Global',
        actionTarget: `/services/data/v65.0/ui-api/actions/quick-action-info/Global.New_Contact_Us`,
        sourceObject: 'Global',
        subtype: 'Create',
        targetObject: CONTACT_US,
        type: 'QuickAction',
        section: 'Page',
      });
      expect(all.headers.get('ETag')).toBe(`"${all.body.eTag}"`);
      const named = await get<Actions>('getGlobalActions', '/actions/global?apiNames=Global.New_Case', admin);
      expect(names(named.body, 'Global')).toEqual(['Global.New_Case']);
      const buttons = await get<Actions>('getGlobalActions', '/actions/global?actionTypes=StandardButton', admin);
      expect(names(buttons.body, 'Global')).toEqual([]);
    });

    it('rejects a section that does not exist with 400', async () => {
      const answer = await get<ErrorList>('getGlobalActions', '/actions/global?sections=Sidebar', admin);
      expect(answer.status).toBe(400);
    });
  });

  describe('getRecordActions', () => {
    it('needs sections or apiNames: without both, 400', async () => {
      const answer = await recordActions(DEFAULT_CONTACT_ID, '');
      expect(answer.status).toBe(400);
      expect((answer.body as ErrorList)[0].errorCode).toBe('MISSING_ARGUMENT');
    });

    it('lists what the caller may do with the record: Delete only for who may delete it', async () => {
      const forAdmin = await recordActions(DEFAULT_CONTACT_ID, '?sections=Page');
      expect(forAdmin.status).toBe(200);
      expect(names(forAdmin.body as Actions, DEFAULT_CONTACT_ID)).toEqual([
        'Edit',
        'Delete',
        'Clone',
        'ChangeOwner',
        `${CONTACT_US}.New_Contact`,
        `${CONTACT_US}.Update_Phone`,
      ]);
      // The standard user may edit Contact Us records but delete only its own; the default contact is not.
      const owner = (
        await server.db.query<{ created_by_id: string }>('SELECT created_by_id FROM record WHERE id = $1', [
          DEFAULT_CONTACT_ID,
        ])
      ).rows[0];
      expect(owner.created_by_id).not.toBe(standard.userId);
      const forStandard = await recordActions(DEFAULT_CONTACT_ID, '?sections=Page', standard);
      expect(names(forStandard.body as Actions, DEFAULT_CONTACT_ID)).toEqual([
        'Edit',
        'Clone',
        'ChangeOwner',
        `${CONTACT_US}.New_Contact`,
        `${CONTACT_US}.Update_Phone`,
      ]);
    });

    it('filters by section, API name and type, and keys several records by id', async () => {
      const links = await recordActions(DEFAULT_CONTACT_ID, '?sections=SingleActionLinks');
      expect(names(links.body as Actions, DEFAULT_CONTACT_ID)).toEqual([`${CONTACT_US}.Update_Phone`]);
      const byName = await recordActions(`${DEFAULT_CONTACT_ID},${standardAccount}`, '?apiNames=Edit,Delete');
      expect(byName.status).toBe(200);
      expect(Object.keys((byName.body as Actions).actions)).toEqual([DEFAULT_CONTACT_ID, standardAccount]);
      expect(names(byName.body as Actions, standardAccount)).toEqual(['Edit', 'Delete']);
      const quick = await recordActions(standardAccount, '?sections=Page&actionTypes=QuickAction', standard);
      expect(names(quick.body as Actions, standardAccount)).toEqual([
        'Account.New_Contact',
        'Account.New_Case',
        'Account.Update_Phone',
      ]);
      // The standard user owns this Account: it may delete it.
      const own = await recordActions(standardAccount, '?apiNames=Delete', standard);
      expect(names(own.body as Actions, standardAccount)).toEqual(['Delete']);
    });

    it('adds the actions no layout places with retrievalMode All', async () => {
      const page = await recordActions(DEFAULT_CONTACT_ID, '?apiNames=Edit&sections=Page&retrievalMode=PageLayout');
      expect(names(page.body as Actions, DEFAULT_CONTACT_ID)).toEqual(['Edit']);
      const account = await recordActions(ADMIN_ACCOUNT, '?sections=Page&retrievalMode=All');
      // Clone is not placed on Accounts' page; All lists it as well.
      expect(names(account.body as Actions, ADMIN_ACCOUNT)).toContain('Clone');
      const placed = await recordActions(ADMIN_ACCOUNT, '?sections=Page');
      expect(names(placed.body as Actions, ADMIN_ACCOUNT)).not.toContain('Clone');
    });

    it('places actions per record type: a Sales Inquiry case has no Clone on its page', async () => {
      const create = (recordTypeId: string) =>
        perform(
          'Global.New_Case',
          { fields: { Subject: `Placement ${recordTypeId}`, RecordTypeId: recordTypeId } },
          admin,
        ).then((answer) => (answer.body as Execution).id);
      const support = await create('0128d0000000001AAA');
      const inquiry = await create('0128d0000000002AAA');
      const both = await recordActions(`${support},${inquiry}`, '?sections=Page');
      expect(names(both.body as Actions, support)).toEqual([
        'Edit',
        'Delete',
        'Clone',
        'ChangeOwner',
        'Case.Close_Case',
      ]);
      expect(names(both.body as Actions, inquiry)).toEqual(['Edit', 'Delete', 'ChangeOwner', 'Case.Close_Case']);
    });

    it('answers a record the caller may not see like a missing one (404), and a malformed id 400', async () => {
      const hidden = await recordActions(ADMIN_ACCOUNT, '?sections=Page', standard);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND_BODY);
      const missing = await recordActions(MISSING_CONTACT_US, '?sections=Page');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(NOT_FOUND_BODY);
      // 18 characters whose last three do not check out.
      const malformed = await recordActions('a1C8d0000000001XXX', '?sections=Page');
      expect(malformed.status).toBe(400);
      expect((malformed.body as ErrorList)[0].errorCode).toBe('INVALID_ID_FIELD');
    });
  });

  describe('getRecordEditActions', () => {
    it('offers Save only to who may change the record', async () => {
      const forAdmin = await get<Actions>(
        'getRecordEditActions',
        `/actions/record/${ADMIN_ACCOUNT}/record-edit`,
        admin,
      );
      expect(forAdmin.status).toBe(200);
      expect(names(forAdmin.body, ADMIN_ACCOUNT)).toEqual(['Save', 'Cancel']);
      expect(forAdmin.body.actions[ADMIN_ACCOUNT].actions[0].actionListContext).toBe('RecordEdit');
      const hidden = await get<ErrorList>(
        'getRecordEditActions',
        `/actions/record/${ADMIN_ACCOUNT}/record-edit`,
        standard,
      );
      expect(hidden.status).toBe(404);
      const user = await get<Actions>(
        'getRecordEditActions',
        `/actions/record/${standard.userId}/record-edit`,
        standard,
      );
      expect(user.status).toBe(200);
      expect(names(user.body, standard.userId)).toEqual(['Cancel']);
    });
  });

  describe('getObjectCreateActions and getLookupActions', () => {
    it('offer create actions only for objects the caller may create', async () => {
      const contactUs = await get<Actions>(
        'getObjectCreateActions',
        `/actions/object/${CONTACT_US}/record-create`,
        standard,
      );
      expect(contactUs.status).toBe(200);
      expect(names(contactUs.body, CONTACT_US)).toEqual(['New', `${CONTACT_US}.New_Contact`]);
      const users = await get<Actions>('getObjectCreateActions', '/actions/object/User/record-create', standard);
      expect(names(users.body, 'User')).toEqual([]);
      const lookup = await get<Actions>('getLookupActions', '/actions/lookup/Account,Contact,User', standard);
      expect(lookup.status).toBe(200);
      expect(Object.keys(lookup.body.actions)).toEqual(['Account', 'Contact', 'User']);
      expect(names(lookup.body, 'Account')).toEqual(['New']);
      expect(names(lookup.body, 'User')).toEqual([]);
      expect(lookup.body.actions.Account.actions[0]).toMatchObject({
        actionListContext: 'Lookup',
        type: 'StandardButton',
        targetObject: 'Account',
      });
    });

    it('answer an unknown object 404', async () => {
      expect(
        (await get<ErrorList>('getObjectCreateActions', '/actions/object/Nope__c/record-create', admin)).status,
      ).toBe(404);
      expect((await get<ErrorList>('getLookupActions', '/actions/lookup/Account,Nope__c', admin)).status).toBe(404);
    });
  });

  describe('related lists', () => {
    it('lists a related list’s New and the parent’s quick actions that create such a child', async () => {
      const answer = await send<Actions>(
        'getRelatedListActions',
        'POST',
        `/actions/record/${ADMIN_ACCOUNT}/related-list/Contacts`,
        admin,
        {
          sections: ['Page'],
        },
      );
      expect(answer.status).toBe(200);
      expect(names(answer.body, 'Contacts')).toEqual(['NewContact', 'Account.New_Contact']);
      expect(answer.body.actions.Contacts.actions[0]).toMatchObject({
        relatedSourceObject: 'Contacts',
        sourceObject: ADMIN_ACCOUNT,
        targetObject: 'Contact',
      });
      const unknown = await send<ErrorList>(
        'getRelatedListActions',
        'POST',
        `/actions/record/${ADMIN_ACCOUNT}/related-list/Nope`,
        admin,
        {},
      );
      expect(unknown.status).toBe(404);
      const hidden = await send<ErrorList>(
        'getRelatedListActions',
        'POST',
        `/actions/record/${ADMIN_ACCOUNT}/related-list/Contacts`,
        standard,
        {},
      );
      expect(hidden.status).toBe(404);
      const badType = await send<ErrorList>(
        'getRelatedListActions',
        'POST',
        `/actions/record/${ADMIN_ACCOUNT}/related-list/Contacts`,
        admin,
        {
          sections: 'Page',
        },
      );
      expect(badType.status).toBe(400);
    });

    it('answers the GET form like the POST, with the options in the query', async () => {
      const posted = await send<Actions>(
        'getRelatedListActions',
        'POST',
        `/actions/record/${standardAccount}/related-list/Cases`,
        standard,
        {
          actionTypes: ['StandardButton'],
        },
      );
      const got = await get<Actions>(
        'getRelatedListActionsByQuery',
        `/actions/record/${standardAccount}/related-list/Cases?actionTypes=StandardButton`,
        standard,
      );
      expect(got.status).toBe(200);
      expect(got.body).toEqual(posted.body);
      expect(names(got.body, 'Cases')).toEqual(['NewCase']);
      expect(got.headers.get('ETag')).toBe(`"${got.body.eTag}"`);
      expect(
        (
          await get<ErrorList>(
            'getRelatedListActionsByQuery',
            `/actions/record/${standardAccount}/related-list/Cases?sections=Sidebar`,
            standard,
          )
        ).status,
      ).toBe(400);
      expect(
        (
          await get<ErrorList>(
            'getRelatedListActionsByQuery',
            `/actions/record/${ADMIN_ACCOUNT}/related-list/Cases`,
            standard,
          )
        ).status,
      ).toBe(404);
    });

    it('answers a batch with one result per related list; a missing one fails only its item', async () => {
      const answer = await send<ActionBatch>(
        'getRelatedListsActions',
        'POST',
        `/actions/record/${standardAccount}/related-list/batch`,
        standard,
        {
          relatedListsActionParameters: [
            { relatedListId: 'Cases', actionTypes: ['QuickAction'] },
            { relatedListId: 'Warranties__r' },
          ],
        },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.results.map((result) => result.statusCode)).toEqual([200, 404]);
      expect(names(answer.body.results[0].result as Actions, 'Cases')).toEqual(['Account.New_Case']);
      expect(answer.body.results[1].result).toEqual(NOT_FOUND_BODY);
      const noId = await send<ErrorList>(
        'getRelatedListsActions',
        'POST',
        `/actions/record/${standardAccount}/related-list/batch`,
        standard,
        {
          relatedListsActionParameters: [{ actionTypes: ['QuickAction'] }],
        },
      );
      expect(noId.status).toBe(400);
    });

    it('lists a related record’s Edit and Delete as far as the caller may', async () => {
      const answer = await get<Actions>(
        'getRelatedListRecordActions',
        `/actions/record/${standardAccount}/related-list-record/${standardAccountContact}`,
        standard,
      );
      expect(answer.status).toBe(200);
      expect(names(answer.body, standardAccountContact)).toEqual(['Edit', 'Delete']);
      expect(answer.body.actions[standardAccountContact].actions[0]).toMatchObject({
        actionListContext: 'RelatedListRecord',
        relatedListRecordId: standardAccountContact,
        relatedSourceObject: 'Contacts',
      });
      // Not a child of that Account: 404.
      const stranger = await get<ErrorList>(
        'getRelatedListRecordActions',
        `/actions/record/${ADMIN_ACCOUNT}/related-list-record/${standardAccountContact}`,
        admin,
      );
      expect(stranger.status).toBe(404);
    });
  });

  describe('getActionOverrides and getFormulaActivation', () => {
    it('answer overrides from the metadata, and null where there is none or only the default is asked for', async () => {
      const overridden = await get<Override>(
        'getActionOverrides',
        `/actions/overrides/${CONTACT_US}?type=New`,
        standard,
      );
      expect(overridden.status).toBe(200);
      expect(overridden.body.url).toBe('/lightning/cmp/c__aptContactUsNew');
      const plain = await get<Override>(
        'getActionOverrides',
        `/actions/overrides/${CONTACT_US}?type=New&defaultTemplateOnly=true`,
        standard,
      );
      expect(plain.body.url).toBeNull();
      const edit = await get<Override>('getActionOverrides', `/actions/overrides/${CONTACT_US}?type=Edit`, standard);
      expect(edit.body.url).toBeNull();
      expect(
        (await get<ErrorList>('getActionOverrides', `/actions/overrides/${CONTACT_US}?type=Bogus`, standard)).status,
      ).toBe(400);
      expect((await get<ErrorList>('getActionOverrides', '/actions/overrides/Nope__c?type=New', standard)).status).toBe(
        404,
      );
    });

    it('answers the formulas of a feature per object, and 404 for an unknown feature', async () => {
      const answer = await get<Formulas>(
        'getFormulaActivation',
        `/actions/formula-activation/DynamicActions?objectApiNames=${CONTACT_US}`,
        admin,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.formulaActivation).toEqual({
        [CONTACT_US]: {
          [`${CONTACT_US}.New_Contact`]: 'NOT(APT_Contact_Us__c.APT_Default_Contact__c)',
          Delete: 'NOT(APT_Contact_Us__c.APT_Default_Contact__c)',
        },
      });
      const every = await get<Formulas>('getFormulaActivation', '/actions/formula-activation/DynamicActions', admin);
      expect(Object.keys(every.body.formulaActivation).sort()).toEqual([CONTACT_US, 'Case', 'Contact']);
      expect((await get<ErrorList>('getFormulaActivation', '/actions/formula-activation/Nope', admin)).status).toBe(
        404,
      );
    });
  });

  describe('list view, recent list, chart, list row, photo and Lightning page actions', () => {
    const ACCOUNTS_LIST_VIEW = '00B8d000000000BEAQ';
    const CONTACT_US_LIST_VIEW = '00B8d0000000001EAA';
    const sorted = (list: string[]) => [...list].sort();

    it('answers a guest 401 INVALID_SESSION_ID', async () => {
      for (const [operationId, path] of [
        ['getListViewActions', `/actions/list-view/${ACCOUNTS_LIST_VIEW}`],
        ['getMruListActions', '/actions/mru-list/Account'],
        ['getListViewChartActions', '/actions/list-view-chart/Account'],
        ['getListViewRecordActions', `/actions/list-view-record/${DEFAULT_CONTACT_ID}`],
        ['getPhotoActions', `/actions/photo/${DEFAULT_CONTACT_ID}`],
        ['getFlexipageActions', '/actions/flexipage/Storefront_Home_Page'],
      ]) {
        const answer = await get(operationId, path, null);
        expect(answer.status, operationId).toBe(401);
        expect(answer.body).toEqual(INVALID_SESSION);
      }
    });

    it("key a list view's actions by its id: its object's create actions the caller may do", async () => {
      const createOf = async (object: string, session: TestSession) =>
        names(
          (await get<Actions>('getObjectCreateActions', `/actions/object/${object}/record-create`, session)).body,
          object,
        );
      const answer = await get<Actions>(
        'getListViewActions',
        `/actions/list-view/${CONTACT_US_LIST_VIEW.slice(0, 15)},${ACCOUNTS_LIST_VIEW}`,
        standard,
      );
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.actions)).toEqual([CONTACT_US_LIST_VIEW, ACCOUNTS_LIST_VIEW]);
      expect(names(answer.body, CONTACT_US_LIST_VIEW)).toEqual(await createOf(CONTACT_US, standard));
      expect(names(answer.body, ACCOUNTS_LIST_VIEW)).toEqual(await createOf('Account', standard));
      expect(answer.body.actions[ACCOUNTS_LIST_VIEW].url).toBe(`${UI_API}/actions/list-view/${ACCOUNTS_LIST_VIEW}`);
      for (const action of answer.body.actions[CONTACT_US_LIST_VIEW].actions)
        expect(action).toMatchObject({ actionListContext: 'ListView', sourceObject: CONTACT_US });
      const quick = await get<Actions>(
        'getListViewActions',
        `/actions/list-view/${CONTACT_US_LIST_VIEW}?actionTypes=QuickAction`,
        standard,
      );
      expect(names(quick.body, CONTACT_US_LIST_VIEW)).toEqual([`${CONTACT_US}.New_Contact`]);
    });

    it('list the create actions of recent lists and list view charts per object, none where the caller may not create', async () => {
      for (const [operationId, resource, context] of [
        ['getMruListActions', 'mru-list', 'MruList'],
        ['getListViewChartActions', 'list-view-chart', 'ObjectHomeChart'],
      ]) {
        const answer = await get<Actions>(
          operationId,
          `/actions/${resource}/Account,${CONTACT_US},User,account`,
          standard,
        );
        expect(answer.status, operationId).toBe(200);
        expect(Object.keys(answer.body.actions)).toEqual(['Account', CONTACT_US, 'User']);
        expect(names(answer.body, 'Account')).toEqual(['New']);
        expect(names(answer.body, CONTACT_US)).toEqual(['New', `${CONTACT_US}.New_Contact`]);
        expect(names(answer.body, 'User')).toEqual([]);
        expect(answer.body.actions.Account.actions[0]).toMatchObject({
          actionListContext: context,
          targetObject: 'Account',
        });
        expect(answer.body.actions.Account.url).toBe(`${UI_API}/actions/${resource}/Account`);
        // As the object's own create list gives them, for either user.
        for (const session of [standard, admin]) {
          const users = await get<Actions>(operationId, `/actions/${resource}/User`, session);
          const create = await get<Actions>('getObjectCreateActions', '/actions/object/User/record-create', session);
          expect(names(users.body, 'User')).toEqual(names(create.body, 'User'));
        }
        const unknown = await get<ErrorList>(operationId, `/actions/${resource}/Account,Nope__c`, standard);
        expect(unknown.status).toBe(404);
        expect((await get<ErrorList>(operationId, `/actions/${resource}/bad-name`, standard)).status).toBe(400);
      }
    });

    it("list a list row's Edit, Delete and Change Owner exactly where the record's own actions have them", async () => {
      const ROW_ACTIONS = 'Edit,Delete,ChangeOwner';
      for (const [session, ids] of [
        [standard, [standardAccount, standardAccountContact, DEFAULT_CONTACT_ID]],
        [admin, [ADMIN_ACCOUNT, adminAccountContact, DEFAULT_CONTACT_ID]],
      ] as const) {
        const rows = await get<Actions>(
          'getListViewRecordActions',
          `/actions/list-view-record/${ids.join(',')}`,
          session,
        );
        expect(rows.status).toBe(200);
        expect(Object.keys(rows.body.actions)).toEqual(ids);
        const own = (await recordActions(ids.join(','), `?apiNames=${ROW_ACTIONS}&retrievalMode=All`, session))
          .body as Actions;
        for (const id of ids) {
          expect(sorted(names(rows.body, id)), id).toEqual(sorted(names(own, id)));
          for (const action of rows.body.actions[id].actions)
            expect(action).toMatchObject({ actionListContext: 'ListViewRecord', sourceObject: id, section: 'Page' });
        }
      }
      const adminRow = await get<Actions>(
        'getListViewRecordActions',
        `/actions/list-view-record/${ADMIN_ACCOUNT}`,
        admin,
      );
      expect(names(adminRow.body, ADMIN_ACCOUNT)).toEqual(['Edit', 'Delete', 'ChangeOwner']);
      const onlyEdit = await get<Actions>(
        'getListViewRecordActions',
        `/actions/list-view-record/${ADMIN_ACCOUNT}?apiNames=Edit`,
        admin,
      );
      expect(names(onlyEdit.body, ADMIN_ACCOUNT)).toEqual(['Edit']);
      // The administrator's Account is private: the standard user may not see it.
      const hidden = await get<ErrorList>(
        'getListViewRecordActions',
        `/actions/list-view-record/${ADMIN_ACCOUNT}`,
        standard,
      );
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND_BODY);
      expect(
        (await get<ErrorList>('getListViewRecordActions', `/actions/list-view-record/${MISSING_CONTACT_US}`, admin))
          .status,
      ).toBe(404);
      expect((await get<ErrorList>('getListViewRecordActions', '/actions/list-view-record/nope', admin)).status).toBe(
        400,
      );
    });

    it("offer to update a record's photo where the caller may change the record, and to delete it once it has one", async () => {
      const photo = (id: string, session: TestSession) =>
        get<Actions>('getPhotoActions', `/actions/photo/${id}`, session);
      expect(names((await photo(ADMIN_ACCOUNT, admin)).body, ADMIN_ACCOUNT)).toEqual(['UpdatePhoto']);
      for (const id of [standardAccount, DEFAULT_CONTACT_ID]) {
        const mayEdit = names(
          (await recordActions(id, '?apiNames=Edit&retrievalMode=All', standard)).body as Actions,
          id,
        );
        expect(names((await photo(id, standard)).body, id), id).toEqual(mayEdit.length ? ['UpdatePhoto'] : []);
      }
      const associated = await send(
        'updateRecordAvatar',
        'POST',
        `/record-avatars/${ADMIN_ACCOUNT}/association`,
        admin,
        {
          actionType: 'AssociateAvatar',
          photoUrl: 'https://logos.example/photo-actions.png',
        },
      );
      expect(associated.status).toBe(200);
      const withPhoto = (await photo(ADMIN_ACCOUNT, admin)).body;
      expect(names(withPhoto, ADMIN_ACCOUNT)).toEqual(['UpdatePhoto', 'DeletePhoto']);
      expect(withPhoto.actions[ADMIN_ACCOUNT].actions[1]).toMatchObject({
        actionListContext: 'Photo',
        label: 'Delete Photo',
        type: 'StandardButton',
      });
      await send('updateRecordAvatar', 'POST', `/record-avatars/${ADMIN_ACCOUNT}/association`, admin, {
        actionType: 'DisassociateAvatar',
      });
      expect(names((await photo(ADMIN_ACCOUNT, admin)).body, ADMIN_ACCOUNT)).toEqual(['UpdatePhoto']);
      expect((await photo(ADMIN_ACCOUNT, standard)).status).toBe(404);
      expect((await photo(MISSING_CONTACT_US, admin)).status).toBe(404);
    });

    it("list a Lightning page's actions by section, keyed by its name, those the caller may do", async () => {
      const pages = await get<Actions>(
        'getFlexipageActions',
        '/actions/flexipage/storefront_home_page,Account_Record_Page',
        admin,
      );
      expect(pages.status).toBe(200);
      expect(Object.keys(pages.body.actions)).toEqual(['Storefront_Home_Page', 'Account_Record_Page']);
      expect(names(pages.body, 'Storefront_Home_Page')).toEqual([
        'Global.New_Contact_Us',
        'Global.New_Account',
        'Global.New_Case',
      ]);
      expect(pages.body.actions.Account_Record_Page.actions.map((action) => [action.section, action.apiName])).toEqual([
        ['ActivityComposer', 'Global.New_Case'],
        ['Page', 'New'],
        ['Page', 'Global.New_Account'],
      ]);
      expect(pages.body.actions.Account_Record_Page.actions[1]).toMatchObject({
        actionListContext: 'FlexiPage',
        sourceObject: 'Account_Record_Page',
        targetObject: 'Account',
      });
      // The standard user gets the global actions it may run, as the global list gives them.
      const global = (await get<Actions>('getGlobalActions', '/actions/global?sections=Page', standard)).body;
      const home = await get<Actions>('getFlexipageActions', '/actions/flexipage/Storefront_Home_Page', standard);
      expect(names(home.body, 'Storefront_Home_Page')).toEqual(names(global, 'Global'));
      const composer = await get<Actions>(
        'getFlexipageActions',
        '/actions/flexipage/Account_Record_Page?sections=ActivityComposer&actionTypes=QuickAction',
        admin,
      );
      expect(names(composer.body, 'Account_Record_Page')).toEqual(['Global.New_Case']);
      const named = await get<Actions>(
        'getFlexipageActions',
        '/actions/flexipage/Account_Record_Page?apiNames=New',
        admin,
      );
      expect(names(named.body, 'Account_Record_Page')).toEqual(['New']);
      const unknown = await get<ErrorList>(
        'getFlexipageActions',
        '/actions/flexipage/Storefront_Home_Page,No_Such_Page',
        admin,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND_BODY);
      expect((await get<ErrorList>('getFlexipageActions', '/actions/flexipage/bad-name', admin)).status).toBe(400);
    });

    it('answer unknown and malformed list views 404 and 400', async () => {
      const unknown = await get<ErrorList>(
        'getListViewActions',
        `/actions/list-view/${ACCOUNTS_LIST_VIEW},00B8d0000000099`,
        admin,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND_BODY);
      expect((await get<ErrorList>('getListViewActions', '/actions/list-view/001nope', admin)).status).toBe(400);
      expect(
        (await get<ErrorList>('getListViewActions', `/actions/list-view/${ACCOUNTS_LIST_VIEW}?formFactor=Huge`, admin))
          .status,
      ).toBe(400);
    });
  });
});
