import { API_VERSION } from '../common/platform';
import { infiniteQueryOptions, queryOptions, type InfiniteData } from '@tanstack/react-query';
import * as contract from '../generated/operations';
import {
  ApiError,
  unwrap,
  type ApiClient,
  type components,
  type ContactsQuery,
  type ContactsResult,
  type CountryStatesMap,
  type DefaultContactList,
  type ObjectInfoRepresentation,
  type OperationErrorBody,
  type OperationId,
  type operations,
  type PicklistValuesRepresentation,
} from './index';

/** The one query-key scheme: the contract's operationId, then the operation's parameters as one object. */
export function operationKey<Op extends OperationId, Params extends object>(operationId: Op, params: Params) {
  return [operationId, params] as const;
}

/** What a failed query of this operation rejects with. */
export type OperationError<Op extends OperationId> = ApiError<OperationErrorBody<Op>>;

type NoParams = Record<string, never>;
const noParams: NoParams = {};

export function getDefaultContactsQuery(api: ApiClient) {
  const path = contract.getDefaultContacts.path;
  return queryOptions<
    DefaultContactList,
    OperationError<'getDefaultContacts'>,
    DefaultContactList,
    ReturnType<typeof operationKey<'getDefaultContacts', NoParams>>
  >({
    queryKey: operationKey('getDefaultContacts', noParams),
    queryFn: ({ signal }) => unwrap('getDefaultContacts', path, api.GET(path, { signal })),
    staleTime: contract.getDefaultContacts.cacheTtl,
  });
}

/** The server answers a JSON *text* (a string); the query parses it into the country-to-states map. */
export function getDependentStatePicklistsValuesQuery(api: ApiClient) {
  const operationId = 'getDependentStatePicklistsValues';
  const path = contract.getDependentStatePicklistsValues.path;
  return queryOptions<
    CountryStatesMap,
    OperationError<typeof operationId>,
    CountryStatesMap,
    ReturnType<typeof operationKey<typeof operationId, NoParams>>
  >({
    queryKey: operationKey(operationId, noParams),
    queryFn: async ({ signal }) => {
      const text = await unwrap(operationId, path, api.GET(path, { signal }));
      return parseCountryStatesMap(text);
    },
    staleTime: contract.getDependentStatePicklistsValues.cacheTtl,
  });
}

export function parseCountryStatesMap(text: string): CountryStatesMap {
  const malformed = (debugInfo: string) =>
    new ApiError('getDependentStatePicklistsValues', 200, {
      errorMessage: 'The country-to-states data is malformed',
      debugInfo,
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw malformed(cause instanceof Error ? cause.message : String(cause));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw malformed('Expected a JSON object keyed by country name');
  }
  for (const [country, states] of Object.entries(parsed)) {
    if (!Array.isArray(states) || !states.every((state) => typeof state === 'string')) {
      throw malformed(`The states of ${country} are not a list of names`);
    }
  }
  return parsed as CountryStatesMap;
}

/** Normalises the arguments into the compact JSON the methodParams parameter carries, keys in a fixed order. */
export function contactsMethodParams({ country, state, brands, lastRecordId }: ContactsQuery): string {
  return JSON.stringify({ country, state, brands, lastRecordId });
}

function fetchContacts(api: ApiClient, args: ContactsQuery, signal: AbortSignal) {
  const path = contract.getContacts.path;
  return unwrap(
    'getContacts',
    path,
    api.GET(path, { params: { query: { methodParams: contactsMethodParams(args) } }, signal }),
  );
}

/** One chunk of matching contacts: the first with lastRecordId null, the next after the given Id. */
export function getContactsQuery(api: ApiClient, args: ContactsQuery) {
  const params: ContactsQuery = {
    country: args.country,
    state: args.state,
    brands: args.brands,
    lastRecordId: args.lastRecordId,
  };
  return queryOptions<
    ContactsResult,
    OperationError<'getContacts'>,
    ContactsResult,
    ReturnType<typeof operationKey<'getContacts', ContactsQuery>>
  >({
    queryKey: operationKey('getContacts', params),
    queryFn: ({ signal }) => fetchContacts(api, params, signal),
    staleTime: contract.getContacts.cacheTtl,
  });
}

export type ContactsFilters = Omit<ContactsQuery, 'lastRecordId'>;
export type ContactsChunks = InfiniteData<ContactsResult, string | null>;

/**
 * All chunks of the matching contacts as one infinite query: each page is a getContacts call whose
 * lastRecordId (the page param) is the Id of the last contact loaded so far. Its key is
 * ['getContacts', filters] – the same scheme, without lastRecordId, which the chunks carry.
 */
export function getContactsChunksQuery(api: ApiClient, filters: ContactsFilters) {
  const params: ContactsFilters = { country: filters.country, state: filters.state, brands: filters.brands };
  return infiniteQueryOptions<
    ContactsResult,
    OperationError<'getContacts'>,
    ContactsChunks,
    ReturnType<typeof operationKey<'getContacts', ContactsFilters>>,
    string | null
  >({
    queryKey: operationKey('getContacts', params),
    queryFn: ({ pageParam, signal }) => fetchContacts(api, { ...params, lastRecordId: pageParam }, signal),
    initialPageParam: null,
    getNextPageParam: (lastChunk, chunks) => {
      const loaded = chunks.reduce((count, chunk) => count + chunk.contacts.length, 0);
      const lastContact = lastChunk.contacts.at(-1);
      // An empty chunk ends the list even if totalRecords promised more, so that paging never loops.
      if (!lastContact || loaded >= lastChunk.totalRecords) return undefined;
      return lastContact.Id;
    },
    staleTime: contract.getContacts.cacheTtl,
  });
}

export function getObjectInfoQuery(api: ApiClient, params: { objectApiName: string }) {
  const path = contract.getObjectInfo.path;
  const key = { objectApiName: params.objectApiName };
  return queryOptions<
    ObjectInfoRepresentation,
    OperationError<'getObjectInfo'>,
    ObjectInfoRepresentation,
    ReturnType<typeof operationKey<'getObjectInfo', typeof key>>
  >({
    queryKey: operationKey('getObjectInfo', key),
    queryFn: ({ signal }) => unwrap('getObjectInfo', path, api.GET(path, { params: { path: key }, signal })),
    staleTime: contract.getObjectInfo.cacheTtl,
  });
}

export function getPicklistValuesQuery(
  api: ApiClient,
  params: { objectApiName: string; recordTypeId: string; fieldApiName: string },
) {
  const path = contract.getPicklistValues.path;
  const key = {
    objectApiName: params.objectApiName,
    recordTypeId: params.recordTypeId,
    fieldApiName: params.fieldApiName,
  };
  return queryOptions<
    PicklistValuesRepresentation,
    OperationError<'getPicklistValues'>,
    PicklistValuesRepresentation,
    ReturnType<typeof operationKey<'getPicklistValues', typeof key>>
  >({
    queryKey: operationKey('getPicklistValues', key),
    queryFn: ({ signal }) => unwrap('getPicklistValues', path, api.GET(path, { params: { path: key }, signal })),
    staleTime: contract.getPicklistValues.cacheTtl,
  });
}

type Schemas = components['schemas'];
export type ManagedContentDocument = Schemas['ManagedContentDeliveryDocument'];
export type ManagedContentCollection = Schemas['ManagedContentDeliveryDocumentCollection'];
export type RecordSeoProperties = Schemas['RecordSeoPropertiesRepresentation'];

export { API_VERSION };

type ContentItemOperation = 'getManagedContentForSite' | 'getManagedContentForChannel';
type ContentCollectionOperation = 'getManagedContentsForSite' | 'getManagedContentsForChannel';
/** The content delivery operations the factories below serve, by operationId. */
const contentOperations = {
  getManagedContentForSite: contract.getManagedContentForSite,
  getManagedContentForChannel: contract.getManagedContentForChannel,
  getManagedContentsForSite: contract.getManagedContentsForSite,
  getManagedContentsForChannel: contract.getManagedContentsForChannel,
};
type QueryParamsOf<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;
/** Where content is delivered from: a site (0DM…) or a channel (0ap…). */
type ContentSource = { siteId: string } | { channelId: string };

/** One content item (by content key or managed content id), with its body, and the contract's options. */
export type ManagedContentParams = { contentKeyOrId: string } & QueryParamsOf<ContentItemOperation>;

/**
 * Which items of a collection, and how, as the contract's query parameters; contentKeys and
 * managedContentIds may be given as arrays, and are sent (and keyed) comma-joined, as the contract has them.
 */
export type ManagedContentsParams = Omit<
  QueryParamsOf<ContentCollectionOperation>,
  'contentKeys' | 'managedContentIds'
> & {
  contentKeys?: string | readonly string[];
  managedContentIds?: string | readonly string[];
};

/** Query parameters as the key and the request carry them: lists comma-joined, absent ones left out. */
function sentQuery(params: object): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
  );
}

/** openapi-fetch's GET for a path chosen at run time among operations of one shape. */
type AnyGet = (
  path: string,
  init: { params: { path: object; query: object }; signal: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function contentItemQuery<Op extends ContentItemOperation>(
  api: ApiClient,
  operationId: Op,
  source: ContentSource,
  params: ManagedContentParams,
) {
  const path = contentOperations[operationId].path;
  const { contentKeyOrId, ...options } = params;
  const query = sentQuery(options);
  const key = { ...source, contentKeyOrId, ...query };
  return queryOptions<
    ManagedContentDocument,
    OperationError<Op>,
    ManagedContentDocument,
    ReturnType<typeof operationKey<Op, typeof key>>
  >({
    queryKey: operationKey(operationId, key),
    queryFn: ({ signal }) =>
      unwrap(
        operationId,
        path,
        (api.GET as unknown as AnyGet)(path, { params: { path: { ...source, contentKeyOrId }, query }, signal }),
      ) as Promise<ManagedContentDocument>,
    staleTime: contentOperations[operationId].cacheTtl,
  });
}

function contentCollectionQuery<Op extends ContentCollectionOperation>(
  api: ApiClient,
  operationId: Op,
  source: ContentSource,
  params: ManagedContentsParams,
) {
  const path = contentOperations[operationId].path;
  const query = sentQuery(params);
  const key = { ...source, ...query };
  return queryOptions<
    ManagedContentCollection,
    OperationError<Op>,
    ManagedContentCollection,
    ReturnType<typeof operationKey<Op, typeof key>>
  >({
    queryKey: operationKey(operationId, key),
    queryFn: ({ signal }) =>
      unwrap(
        operationId,
        path,
        (api.GET as unknown as AnyGet)(path, { params: { path: source, query }, signal }),
      ) as Promise<ManagedContentCollection>,
    staleTime: contentOperations[operationId].cacheTtl,
  });
}

export function getManagedContentForSiteQuery(
  api: ApiClient,
  { siteId, ...params }: ManagedContentParams & { siteId: string },
) {
  return contentItemQuery(api, 'getManagedContentForSite', { siteId }, params);
}

export function getManagedContentsForSiteQuery(
  api: ApiClient,
  { siteId, ...params }: ManagedContentsParams & { siteId: string },
) {
  return contentCollectionQuery(api, 'getManagedContentsForSite', { siteId }, params);
}

export function getManagedContentForChannelQuery(
  api: ApiClient,
  { channelId, ...params }: ManagedContentParams & { channelId: string },
) {
  return contentItemQuery(api, 'getManagedContentForChannel', { channelId }, params);
}

export function getManagedContentsForChannelQuery(
  api: ApiClient,
  { channelId, ...params }: ManagedContentsParams & { channelId: string },
) {
  return contentCollectionQuery(api, 'getManagedContentsForChannel', { channelId }, params);
}

/**
 * The search-engine properties of a page: recordId is the id of the record the page shows, or on a page
 * without one its view name (contact_us); fields as the contract has them, comma-separated.
 */
export function getRecordSeoPropertiesQuery(
  api: ApiClient,
  params: { communityId: string; recordId: string; fields?: string | readonly string[]; apiVersion?: string },
) {
  const operationId = 'getRecordSeoProperties';
  const path = contract.getRecordSeoProperties.path;
  const fields =
    params.fields === undefined
      ? undefined
      : typeof params.fields === 'string'
        ? params.fields
        : params.fields.join(',');
  const key = {
    apiVersion: params.apiVersion ?? API_VERSION,
    communityId: params.communityId,
    recordId: params.recordId,
    ...(fields === undefined ? {} : { fields }),
  };
  return queryOptions<
    RecordSeoProperties,
    OperationError<typeof operationId>,
    RecordSeoProperties,
    ReturnType<typeof operationKey<typeof operationId, typeof key>>
  >({
    queryKey: operationKey(operationId, key),
    queryFn: ({ signal }) =>
      unwrap(
        operationId,
        path,
        api.GET(path, {
          params: {
            path: { apiVersion: key.apiVersion, communityId: key.communityId, recordId: key.recordId },
            query: { fields: key.fields },
          },
          signal,
        }),
      ),
    staleTime: contract.getRecordSeoProperties.cacheTtl,
  });
}

export type SessionRepresentation = Schemas['SessionRepresentation'];
export type SignInInput = Schemas['SignInInputRepresentation'];
export type CsrfToken = Schemas['CsrfTokenRepresentation'];

/**
 * Whether the caller is a guest or signed in, and when the session expires. Asking never extends the
 * session; the answer is only as fresh as its serverTime, so it is never stale by age: whoever holds it
 * replaces it with newer answers (sign-in, keep-alive) or invalidates it.
 */
export function getSessionQuery(api: ApiClient) {
  const operationId = 'getSession';
  return queryOptions<
    SessionRepresentation,
    OperationError<typeof operationId>,
    SessionRepresentation,
    ReturnType<typeof operationKey<typeof operationId, NoParams>>
  >({
    queryKey: operationKey(operationId, noParams),
    queryFn: ({ signal }) => fetchSession(api, signal),
    staleTime: Infinity,
  });
}

/** The signed-in session's CSRF token; the same for the whole session. */
export function getCsrfTokenQuery(api: ApiClient) {
  const operationId = 'getCsrfToken';
  const path = contract.getCsrfToken.path;
  return queryOptions<
    CsrfToken,
    OperationError<typeof operationId>,
    CsrfToken,
    ReturnType<typeof operationKey<typeof operationId, NoParams>>
  >({
    queryKey: operationKey(operationId, noParams),
    queryFn: ({ signal }) => unwrap(operationId, path, api.GET(path, { signal })),
    staleTime: Infinity,
  });
}

/** One reading of the session, outside the query cache (for a caller that times from its arrival). */
export function fetchSession(api: ApiClient, signal?: AbortSignal): Promise<SessionRepresentation> {
  const path = contract.getSession.path;
  return unwrap('getSession', path, api.GET(path, { signal }));
}

/*
 * The state-changing session calls. The API client adds the session's CSRF token itself (csrfMiddleware);
 * signing in needs none.
 */

/** Signs in: a new session (any the browser held is destroyed). */
export function signIn(api: ApiClient, input: SignInInput): Promise<SessionRepresentation> {
  const path = contract.getSession.path;
  return unwrap('signIn', path, api.POST(path, { body: input }));
}

/** Signs out (a guest may too). */
export async function signOut(api: ApiClient): Promise<void> {
  const path = contract.getSession.path;
  await unwrap('signOut', path, api.DELETE(path, {}));
}

/** Continue Working: the session with its idle expiry moved on. */
export function keepSessionAlive(api: ApiClient): Promise<SessionRepresentation> {
  const path = contract.keepSessionAlive.path;
  return unwrap('keepSessionAlive', path, api.POST(path, {}));
}
