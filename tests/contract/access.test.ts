/**
 * Who may call what: every operation of the contract, called with its example request as a guest, as the
 * standard user and as the administrator, answers the status the table below gives. Each caller has its own
 * server, and the operations run in contract order with the deletions and signOut last, so that every
 * example meets its record (and its session) and every run meets the same data.
 *
 * The table is the reviewed record of the access rules; two rules are also checked on their own, so that a
 * wrong row cannot hide them: a guest gets 401 INVALID_SESSION_ID from every operation whose security does
 * not allow guests, and no caller ever gets a 5xx other than 501 NOT_IMPLEMENTED.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { recordApiCall } from '../support/api-calls.ts';
import { contract, expectValidResponse, expectValidSchema, operationsOf, type Operation } from '../support/contract.ts';
import { exampleFetch } from '../support/examples.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { needsUser, signIn } from '../support/session.ts';

type Caller = 'guest' | 'standard' | 'admin';
const CALLERS: Caller[] = ['guest', 'standard', 'admin'];

/**
 * operationId: [guest, standard user, administrator], for each operation's example request. Guests reach
 * only the public page's data (the storefront, content, media, SEO, the Contact Us object's info and
 * picklists) and the session calls. The standard user may not set the default-contact flag (createRecord
 * 400, a field error) and may not delete a record it does not own (deleteRecord 400); everything else its
 * profile allows. signIn's example password is not a demo user's (401 for all). 501: not implemented.
 */
const ACCESS: Record<string, [number, number, number]> = {
  getDefaultContacts: [200, 200, 200],
  getDependentStatePicklistsValues: [200, 200, 200],
  getContacts: [200, 200, 200],
  getContact: [200, 200, 200],
  getNearestContacts: [200, 200, 200],
  getPlaceSuggestions: [200, 200, 200],
  getInquiryForm: [200, 200, 200],
  submitInquiry: [400, 400, 400],
  invokeApexCacheable: [200, 200, 200],
  invokeApexImperative: [200, 200, 200],
  getManagedContentForSite: [200, 200, 200],
  getManagedContentForChannel: [200, 200, 200],
  getManagedContentsForSite: [200, 200, 200],
  getManagedContentsForChannel: [200, 200, 200],
  getManagedContentMedia: [200, 200, 200],
  getSiteImage: [200, 200, 200],
  getResizedManagedContentMedia: [200, 200, 200],
  getResizedSiteImage: [200, 200, 200],
  getRecordSeoProperties: [200, 200, 200],
  createRecord: [401, 400, 201],
  getRecord: [401, 200, 200],
  // The example's Account belongs to the administrator, and Accounts are private: the standard user gets 404.
  getChildRecords: [401, 404, 200],
  updateRecord: [401, 200, 200],
  executeBatchRecordOperations: [401, 200, 200],
  getRecords: [401, 200, 200],
  createContentDocumentAndVersion: [401, 201, 201],
  createContentVersion: [401, 201, 201],
  getRecordUi: [401, 200, 200],
  getListRecordsByApiName: [401, 200, 200],
  getListRecordsByName: [401, 200, 200],
  getListRecordsById: [401, 200, 200],
  getListViewSummaryCollection: [401, 200, 200],
  getListUiByApiName: [401, 200, 200],
  getMruListUi: [401, 200, 200],
  getMruListRecords: [401, 200, 200],
  getMruListInfo: [401, 200, 200],
  getListInfosByName: [401, 200, 200],
  getListInfosByObjectName: [401, 200, 200],
  createListInfo: [401, 201, 201],
  getListInfoByName: [401, 200, 200],
  // The examples change and delete one of the org's list views, which only the administrator may.
  updateListInfoByName: [401, 403, 200],
  getListPreferences: [401, 200, 200],
  updateListPreferences: [401, 200, 200],
  getListObjectInfo: [401, 200, 200],
  getObjectInfoDirectory: [401, 200, 200],
  getObjectInfos: [401, 200, 200],
  getPicklistValuesByRecordType: [401, 200, 200],
  getApps: [401, 200, 200],
  getAppDetails: [401, 200, 200],
  getSelectedApp: [401, 200, 200],
  selectApp: [401, 200, 200],
  getUserNavItems: [401, 200, 200],
  updateUserNavItems: [401, 200, 200],
  getNavItems: [401, 200, 200],
  getActiveTheme: [401, 200, 200],
  getLayout: [401, 200, 200],
  getLayoutUserState: [401, 200, 200],
  updateLayoutUserState: [401, 200, 200],
  getPathLayout: [401, 200, 200],
  getRecordAvatars: [401, 200, 200],
  updateRecordAvatar: [401, 200, 200],
  getRecordCreateDefaults: [401, 200, 200],
  getRecordCloneDefaults: [401, 200, 200],
  getRecordTemplateClone: [401, 200, 200],
  getRecordTemplateCreate: [401, 200, 200],
  getDuplicateConfiguration: [401, 200, 200],
  getDuplicates: [401, 200, 200],
  getObjectInfo: [200, 200, 200],
  getPicklistValues: [200, 200, 200],
  getGlobalActions: [401, 200, 200],
  getQuickActionLayout: [401, 200, 200],
  getLookupActions: [401, 200, 200],
  getListViewActions: [401, 200, 200],
  getMruListActions: [401, 200, 200],
  getListViewChartActions: [401, 200, 200],
  getPhotoActions: [401, 200, 200],
  getListViewRecordActions: [401, 200, 200],
  getFlexipageActions: [401, 200, 200],
  getObjectCreateActions: [401, 200, 200],
  getActionOverrides: [401, 200, 200],
  getFormulaActivation: [401, 200, 200],
  getQuickActionInfo: [401, 200, 200],
  getQuickActionDefaults: [401, 200, 200],
  getRecordActions: [401, 200, 200],
  getRecordEditActions: [401, 200, 200],
  // The related-list examples name the administrator's Account, which the standard user may not see (private).
  getRelatedListsActions: [401, 404, 200],
  getRelatedListActions: [401, 404, 200],
  getRelatedListActionsByQuery: [401, 404, 200],
  getRelatedListRecordActions: [401, 404, 200],
  // The example sets the default-contact flag, which the standard user may not (a field error).
  performQuickAction: [401, 400, 201],
  performUpdateRecordQuickAction: [401, 200, 200],
  // The related records of the example's Account, which belongs to the administrator (private): the standard user gets 404.
  getRelatedListsCount: [401, 404, 200],
  getRelatedListCount: [401, 404, 200],
  getRelatedListInfoBatch: [401, 200, 200],
  getRelatedListsInfo: [401, 200, 200],
  getRelatedListInfo: [401, 200, 200],
  updateRelatedListInfo: [401, 200, 200],
  getRelatedListPreferencesBatch: [401, 200, 200],
  getRelatedListPreferences: [401, 200, 200],
  updateRelatedListPreferences: [401, 200, 200],
  getRelatedListRecordsBatch: [401, 404, 200],
  getRelatedListRecords: [401, 404, 200],
  getRelatedListRecordsByQuery: [401, 404, 200],
  getSearchFilterMetadata: [401, 200, 200],
  getSearchFilterOptions: [401, 200, 200],
  getLookupMetadata: [401, 200, 200],
  getSearchResults: [401, 200, 200],
  getKeywordSearchResults: [401, 200, 200],
  getLookupRecords: [401, 200, 200],
  getLookupRecordsByQuery: [401, 200, 200],
  getLookupRecordsForTarget: [401, 200, 200],
  // Each caller's own favorites: the examples name the favorite that createFavorite's example makes first.
  getFavorites: [401, 200, 200],
  createFavorite: [401, 201, 201],
  updateFavoritesBatch: [401, 200, 200],
  getFavorite: [401, 200, 200],
  updateFavorite: [401, 200, 200],
  updateFavoriteUsage: [401, 200, 200],
  getSession: [200, 200, 200],
  signIn: [401, 401, 401],
  keepSessionAlive: [401, 200, 200],
  getCsrfToken: [401, 200, 200],
  deleteRecord: [401, 400, 204],
  deleteListInfo: [401, 403, 204],
  deleteFavorite: [401, 204, 204],
  signOut: [204, 204, 204],
};

const isLast = (operation: Operation) => operation.method === 'delete';
const operations = [
  ...operationsOf(contract).filter((operation) => !isLast(operation)),
  ...operationsOf(contract).filter(isLast),
];

interface Outcome {
  status: number;
  text: string;
  json: boolean;
}

async function callAll(caller: Caller): Promise<Map<string, Outcome>> {
  const server: TestServer = await startTestServer({ demoContacts: 30 });
  try {
    const headers = caller === 'guest' ? {} : (await signIn(server, caller)).headers;
    const outcomes = new Map<string, Outcome>();
    for (const operation of operations) {
      const { url, init } = exampleFetch(server.baseUrl, operation, {
        headers: { ...headers, ...(caller === 'guest' ? {} : { Origin: server.baseUrl }) },
      });
      // The example's own Cookie header (a made-up session) must not replace the real one.
      if (caller !== 'guest') (init.headers as Record<string, string>).Cookie = headers.Cookie;
      const response = await fetch(url, init);
      const text = await response.text();
      recordApiCall({
        operationId: operation.operationId,
        method: operation.method,
        status: response.status,
        target: 'server',
      });
      outcomes.set(operation.operationId, {
        status: response.status,
        text,
        json: /^application\/json\b/.test(response.headers.get('content-type') ?? ''),
      });
    }
    return outcomes;
  } finally {
    await server.close();
  }
}

describe('access: every operation as guest, standard user and administrator', () => {
  const outcomes = new Map<Caller, Map<string, Outcome>>();

  beforeAll(async () => {
    for (const caller of CALLERS) outcomes.set(caller, await callAll(caller));
    if (process.env.PRINT_ACCESS_TABLE) {
      const rows = operations.map(
        ({ operationId }) =>
          `  ${operationId}: [${CALLERS.map((caller) => outcomes.get(caller)!.get(operationId)!.status).join(', ')}],`,
      );
      console.log(`const ACCESS = {\n${rows.join('\n')}\n};`);
    }
  }, 600_000);

  it('the table names every operation of the contract, and only those', () => {
    expect(Object.keys(ACCESS).sort()).toEqual(operations.map(({ operationId }) => operationId).sort());
  });

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    '%s',
    (operationId, operation) => {
      const expected = ACCESS[operationId];
      CALLERS.forEach((caller, index) => {
        const { status, text, json } = outcomes.get(caller)!.get(operationId)!;
        const what = `${caller} ${operation.method.toUpperCase()} ${operation.path} answered ${status}: ${text.slice(0, 300)}`;
        if (caller === 'guest' && needsUser(operation)) {
          expect(status, what).toBe(401);
          expect(JSON.parse(text)).toEqual([{ errorCode: 'INVALID_SESSION_ID', message: expect.any(String) }]);
        }
        expect(status >= 500 && status !== 501, what).toBe(false);
        expect(status, what).toBe(expected?.[index]);
        // 501 is not in the contract: the operations that answer it are listed by npm run coverage:api.
        if (status === 501) expectValidSchema('ErrorList', JSON.parse(text));
        else if (json && text) expectValidResponse(operationId, status, JSON.parse(text));
      });
    },
  );
});
