/**
 * The list operations of a test server, each call checked against the contract (callOperation), as a guest
 * (null session) or a signed-in user; and what the tests know of the org's list views.
 */
import type { components } from '../../generated/types.ts';
import { UI_API } from './api.ts';
import { callOperation, type CheckedResponse } from './contract.ts';
import type { TestServer } from './server.ts';
import type { TestSession } from './session.ts';

type Schemas = components['schemas'];
export type ListInfo = Schemas['ListInfoRepresentation'];
export type ListRecords = Schemas['ListRecordCollectionRepresentation'];
export type ListUi = Schemas['ListUiRepresentation'];
export type ListViewSummaries = Schemas['ListViewSummaryCollectionRepresentation'];
export type ListInfoSummaries = Schemas['ListInfoSummaryCollectionRepresentation'];
export type ListInfoBatch = Schemas['ListInfoBatchRepresentation'];
export type ListPreferences = Schemas['ListPreferencesRepresentation'];
export type ListObjectInfo = Schemas['ListObjectInfoRepresentation'];
export type ErrorList = Schemas['ErrorList'];

export const ALL_CONTACT_US_ID = '00B8d0000000001EAA';
export const DEFAULT_CONTACTS_ID = '00B8d0000000002EAA';
export const MY_CONTACT_US_ID = '00B8d0000000004EAA';
export const ALL_ACCOUNTS = 'AllAccounts';

/** The list operations of a server, as `session` (null: a guest). Paths are below /services/data/v65.0/ui-api. */
export function listApi(server: () => TestServer) {
  const url = (path: string) => `${server().baseUrl}${UI_API}${path}`;
  const headers = (session: TestSession | null, extra: Record<string, string> = {}) => ({
    ...(session?.headers ?? {}),
    ...extra,
  });
  const get = <T>(operationId: string, path: string, session: TestSession | null, extra: Record<string, string> = {}) =>
    callOperation<T | ErrorList>(operationId, url(path), { headers: headers(session, extra) });
  const send = <T>(operationId: string, method: string, path: string, session: TestSession | null, body?: unknown) =>
    callOperation<T | ErrorList>(operationId, url(path), {
      method,
      headers: headers(session, body === undefined ? {} : { 'Content-Type': 'application/json' }),
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    url,
    listInfo: (object: string, view: string, session: TestSession | null, extra: Record<string, string> = {}) =>
      get<ListInfo>('getListInfoByName', `/list-info/${object}/${view}`, session, extra),
    mruListInfo: (object: string, session: TestSession | null) =>
      get<ListInfo>('getMruListInfo', `/mru-list-info/${object}`, session),
    listInfoById: (id: string, session: TestSession | null) =>
      get<ListInfo>('getListInfosByObjectName', `/list-info/${id}`, session),
    listInfos: (object: string, query: string, session: TestSession | null) =>
      get<ListInfoSummaries>('getListInfosByObjectName', `/list-info/${object}${query}`, session),
    listInfoBatch: (query: string, session: TestSession | null) =>
      get<ListInfoBatch>('getListInfosByName', `/list-info/batch${query}`, session),
    summaries: (objectOrId: string, query: string, session: TestSession | null, extra: Record<string, string> = {}) =>
      get<ListViewSummaries | ListUi>('getListViewSummaryCollection', `/list-ui/${objectOrId}${query}`, session, extra),
    listUi: (
      object: string,
      view: string,
      query: string,
      session: TestSession | null,
      extra: Record<string, string> = {},
    ) => get<ListUi>('getListUiByApiName', `/list-ui/${object}/${view}${query}`, session, extra),
    mruListUi: (object: string, query: string, session: TestSession | null) =>
      get<ListUi>('getMruListUi', `/mru-list-ui/${object}${query}`, session),
    records: (object: string, view: string, body: unknown, session: TestSession | null) =>
      send<ListRecords>('getListRecordsByName', 'POST', `/list-records/${object}/${view}`, session, body),
    recordsGet: (
      object: string,
      view: string,
      query: string,
      session: TestSession | null,
      extra: Record<string, string> = {},
    ) => get<ListRecords>('getListRecordsByApiName', `/list-records/${object}/${view}${query}`, session, extra),
    recordsById: (id: string, query: string, session: TestSession | null) =>
      get<ListRecords>('getListRecordsById', `/list-records/${id}${query}`, session),
    mruRecords: (object: string, query: string, session: TestSession | null) =>
      get<ListRecords>('getMruListRecords', `/mru-list-records/${object}${query}`, session),
    objectInfo: (object: string, session: TestSession | null) =>
      get<ListObjectInfo>('getListObjectInfo', `/list-object-info/${object}`, session),
    create: (object: string, body: unknown, session: TestSession | null) =>
      send<ListInfo>('createListInfo', 'POST', `/list-info/${object}`, session, body),
    update: (object: string, view: string, body: unknown, session: TestSession | null) =>
      send<ListInfo>('updateListInfoByName', 'PATCH', `/list-info/${object}/${view}`, session, body),
    remove: (object: string, view: string, session: TestSession | null) =>
      send<undefined>('deleteListInfo', 'DELETE', `/list-info/${object}/${view}`, session),
    preferences: (object: string, view: string, session: TestSession | null) =>
      get<ListPreferences>('getListPreferences', `/list-preferences/${object}/${view}`, session),
    updatePreferences: (object: string, view: string, body: unknown, session: TestSession | null) =>
      send<ListPreferences>('updateListPreferences', 'PATCH', `/list-preferences/${object}/${view}`, session, body),
  };
}

export type ListApi = ReturnType<typeof listApi>;

/** The body of a 200 (or 201) answer, failing with the answer's text otherwise. */
export function ok<T>(response: CheckedResponse<unknown>, status = 200): T {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${response.text.slice(0, 500)}`);
  return response.body as T;
}

/** The one error of an error answer, with its status. */
export function errorOf(response: CheckedResponse<unknown>): { status: number; errorCode: string; message: string } {
  const [error] = response.body as ErrorList;
  return { status: response.status, errorCode: error?.errorCode, message: error?.message };
}

/** A field's value in a list record. */
export const valueOf = (record: Schemas['RecordRepresentation'], field: string) => record.fields[field]?.value;
