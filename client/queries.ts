/**
 * The storefront's own compositions of the generated client: what the page needs beyond one operation's
 * query. Every operation's own query and mutation factories are generated (client/react.ts).
 */
import { infiniteQueryOptions, queryOptions, type InfiniteData } from '@tanstack/react-query';
import { getContacts, getDependentStatePicklistsValues, getNearestContacts } from '../generated/client';
import { getContactsQuery, getDependentStatePicklistsValuesQuery } from '../generated/queries';
import { ApiError, type OperationError } from './errors';
import { operationKey } from './query-keys';
import type { ApiClient } from './call';
import type { ContactsQuery, ContactsResult, CountryStatesMap } from './index';
import type { components } from '../generated/types';

type Schemas = components['schemas'];
export type SessionRepresentation = Schemas['SessionRepresentation'];
export type SignInInput = Schemas['SignInInputRepresentation'];
export type ManagedContentDocument = Schemas['ManagedContentDeliveryDocument'];
export type ManagedContentCollection = Schemas['ManagedContentDeliveryDocumentCollection'];
export type RecordSeoProperties = Schemas['RecordSeoPropertiesRepresentation'];

/**
 * The country-to-states map. The server answers it as a JSON *text* (a string), as the platform's method does;
 * this query parses it once per fetch, under the operation's key with `parsed` after it, so that the parsed map
 * and the text are never mistaken for each other in one cache.
 */
export function countryStatesQuery(api: ApiClient) {
  const queryKey = [...operationKey('getDependentStatePicklistsValues', {}), 'parsed'] as const;
  return queryOptions<
    CountryStatesMap,
    OperationError<'getDependentStatePicklistsValues'>,
    CountryStatesMap,
    typeof queryKey
  >({
    queryKey,
    queryFn: async ({ signal }) => parseCountryStatesMap(await getDependentStatePicklistsValues(api, {}, { signal })),
    staleTime: getDependentStatePicklistsValuesQuery(api).staleTime as number,
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

export type ContactsFilters = Omit<ContactsQuery, 'lastRecordId'>;
export type ContactsChunks = InfiniteData<ContactsResult, string | null>;

/**
 * All chunks of the matching contacts as one infinite query: each page is a getContacts call whose
 * lastRecordId (the page param) is the Id of the last contact loaded so far. Its key is
 * ['getContacts', filters]: the operation's, with the filters in place of the methodParams the chunks carry.
 */
export function getContactsChunksQuery(api: ApiClient, filters: ContactsFilters) {
  const params = { country: filters.country, state: filters.state, brands: filters.brands };
  return infiniteQueryOptions<
    ContactsResult,
    OperationError<'getContacts'>,
    ContactsChunks,
    ReturnType<typeof operationKey<'getContacts'>>,
    string | null
  >({
    queryKey: operationKey('getContacts', { query: params }),
    queryFn: ({ pageParam, signal }) =>
      getContacts(
        api,
        { query: { methodParams: contactsMethodParams({ ...params, lastRecordId: pageParam }) } },
        { signal },
      ),
    initialPageParam: null,
    getNextPageParam: (lastChunk, chunks) => {
      const loaded = chunks.reduce((count, chunk) => count + chunk.contacts.length, 0);
      const lastContact = lastChunk.contacts.at(-1);
      // An empty chunk ends the list even if totalRecords promised more, so that paging never loops.
      if (!lastContact || loaded >= lastChunk.totalRecords) return undefined;
      return lastContact.Id;
    },
    staleTime: getContactsQuery(api).staleTime as number,
  });
}

/** Where the nearest search is made from, and the brands it is narrowed to (getNearestContacts without the offset). */
export interface NearestFilters {
  latitude: number;
  longitude: number;
  brands: string[];
}
export type NearestContactsResult = Schemas['NearestContactsResult'];
export type NearestContact = Schemas['NearestContact'];
export type PlaceSuggestion = Schemas['PlaceSuggestion'];

/**
 * All chunks of the contacts nearest to a point as one infinite query, as getContactsChunksQuery is for the
 * filters: each page is a getNearestContacts call whose offset is the number of contacts loaded so far (the
 * page param, as text, so that the locator pages either query alike). Its key is ['getNearestContacts',
 * filters]. A nearest contact has every field of a card: the chunks are ContactsChunks.
 */
export function getNearestContactsChunksQuery(api: ApiClient, filters: NearestFilters) {
  const params = { latitude: filters.latitude, longitude: filters.longitude, brands: filters.brands };
  return infiniteQueryOptions<
    ContactsResult,
    OperationError<'getNearestContacts'>,
    ContactsChunks,
    ReturnType<typeof operationKey<'getContacts'>>,
    string | null
  >({
    // Typed as getContacts' key, so that the locator takes either query; its operationId says which it is.
    queryKey: operationKey('getNearestContacts', { query: params }) as unknown as ReturnType<
      typeof operationKey<'getContacts'>
    >,
    queryFn: ({ pageParam, signal }) =>
      getNearestContacts(
        api,
        {
          query: { methodParams: JSON.stringify({ ...params, offset: pageParam === null ? null : Number(pageParam) }) },
        },
        { signal },
      ),
    initialPageParam: null,
    getNextPageParam: (lastChunk, chunks) => {
      const loaded = chunks.reduce((count, chunk) => count + chunk.contacts.length, 0);
      if (lastChunk.contacts.length === 0 || loaded >= lastChunk.totalRecords) return undefined;
      return String(loaded);
    },
    // The operation's x-cache-ttl, as getContacts' (both 5 minutes).
    staleTime: getContactsQuery(api).staleTime as number,
  });
}
