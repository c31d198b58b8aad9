/**
 * What the contract tests of the Actions tag share (tests/contract/actions.test.ts, quick-actions.test.ts): the
 * calls of its operations as a session, the database read behind them, and the demo records they act on.
 */
import { UI_API, type ErrorList, type RecordError, type RecordRep } from './api.ts';
import { callOperation } from './contract.ts';
import type { TestServer } from './server.ts';
import type { TestSession } from './session.ts';
import type { components } from '../../generated/types.ts';

export type Actions = components['schemas']['ActionRepresentation'];
export type ActionBatch = components['schemas']['ActionBatchRepresentation'];
export type QuickActionInfo = components['schemas']['QuickActionInfoRepresentation'];
export type Layout = components['schemas']['RecordLayoutRepresentation'];
export type Defaults = components['schemas']['QuickActionDefaultsRepresentation'];
export type Execution = components['schemas']['QuickActionExecutionRepresentation'];
export type Override = components['schemas']['ActionOverrideRepresentation'];
export type Formulas = components['schemas']['FormulaActivationRepresentation'];

export const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
export const ADMIN_ACCOUNT = '0018d0000000001AAA';
/** A well-formed Contact Us id that no record has. */
export const MISSING_CONTACT_US = 'a1C8d0000004C91EAE';

/** The API names of the actions listed under key. */
export const names = (body: Actions, key: string) => body.actions[key].actions.map((action) => action.apiName);

/** The calls of the Actions tests, on the server and as the session given (the administrator by default). */
export function actionCalls(server: () => TestServer, admin: () => TestSession) {
  const url = (path: string) => `${server().baseUrl}${UI_API}${path}`;
  const get = <T>(operationId: string, path: string, session: TestSession | null) =>
    callOperation<T>(operationId, url(path), { headers: session?.headers ?? {} });
  const send = <T>(operationId: string, method: string, path: string, session: TestSession | null, body?: unknown) =>
    callOperation<T>(operationId, url(path), {
      method,
      headers: { ...(session?.headers ?? {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** A call that performs a quick action, as the session given (the administrator by default). */
  const quickAction =
    (operationId: string, method: string) =>
    (action: string, body: unknown, session: TestSession | null = admin()) =>
      send<Execution | RecordError | ErrorList>(
        operationId,
        method,
        `/actions/perform-quick-action/${action}`,
        session,
        body,
      );
  return {
    get,
    send,
    recordActions: (ids: string, query: string, session: TestSession | null = admin()) =>
      get<Actions | ErrorList>('getRecordActions', `/actions/record/${ids}${query}`, session),
    perform: quickAction('performQuickAction', 'POST'),
    performUpdate: quickAction('performUpdateRecordQuickAction', 'PATCH'),
    getRecord: (id: string, fields: string, session: TestSession = admin()) =>
      get<RecordRep | ErrorList>('getRecord', `/records/${id}?fields=${fields}`, session),
    /** A record's fields as stored. */
    stored: async (id: string) =>
      (await server().db.query<{ fields: Record<string, unknown> }>('SELECT fields FROM record WHERE id = $1', [id]))
        .rows[0]?.fields,
    /** How many records an object has. */
    count: async (object: string) =>
      (
        await server().db.query<{ n: number }>('SELECT count(*)::int AS n FROM record WHERE object_api_name = $1', [
          object,
        ])
      ).rows[0].n,
  };
}

/** An Account the standard user owns, and one of its Contacts; a Contact of the administrator's Account. */
export async function actionRecords(server: TestServer, standard: TestSession) {
  const accounts = await server.db.query<{ id: string }>(
    `SELECT id FROM record WHERE object_api_name = 'Account' AND fields ->> 'OwnerId' = $1 ORDER BY id`,
    [standard.userId],
  );
  const standardAccount = accounts.rows[0].id;
  const contacts = await server.db.query<{ id: string; account: string }>(
    `SELECT id, fields ->> 'AccountId' AS account FROM record WHERE object_api_name = 'Contact' ORDER BY id`,
  );
  return {
    standardAccount,
    standardAccountContact: contacts.rows.find((row) => row.account === standardAccount)!.id,
    adminAccountContact: contacts.rows.find((row) => row.account === ADMIN_ACCOUNT)!.id,
  };
}
