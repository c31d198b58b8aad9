/**
 * The queries behind the locator, in one place: the component uses them, and the server prefetches
 * exactly the same ones before it renders the page.
 */
import type { ApiClient, ObjectInfoRepresentation } from '../../client/index';
import { getContactsChunksQuery, getNearestContactsChunksQuery } from '../../client/queries';
import { getObjectInfoQuery, getPicklistValuesQuery } from '../../client/react';
import { BRAND_FIELD, CONTACT_US_OBJECT, MASTER_RECORD_TYPE_ID } from './constants';
import type { LocatorFilters } from './locator-params';

export function contactUsObjectInfoQuery(api: ApiClient) {
  return getObjectInfoQuery(api, { path: { objectApiName: CONTACT_US_OBJECT } });
}

/** The record type whose brand picklist applies: the object's default, else the master record type. */
export function brandRecordTypeId(objectInfo: ObjectInfoRepresentation | undefined): string | undefined {
  return objectInfo ? (objectInfo.defaultRecordTypeId ?? MASTER_RECORD_TYPE_ID) : undefined;
}

export function brandPicklistQuery(api: ApiClient, recordTypeId: string | undefined) {
  return getPicklistValuesQuery(api, {
    path: {
      objectApiName: CONTACT_US_OBJECT,
      recordTypeId: recordTypeId ?? MASTER_RECORD_TYPE_ID,
      fieldApiName: BRAND_FIELD,
    },
  });
}

/** The locator's contacts: those nearest to the point with the brand when the address names one, else the filters'. */
export function contactsQuery(api: ApiClient, filters: LocatorFilters) {
  // Either is an infinite query of ContactsChunks under a key the operationId heads: typed as one.
  if (filters.near)
    return getNearestContactsChunksQuery(api, {
      latitude: filters.near.latitude,
      longitude: filters.near.longitude,
      brands: filters.brand ? [filters.brand] : [],
    }) as unknown as ReturnType<typeof getContactsChunksQuery>;
  return getContactsChunksQuery(api, {
    country: filters.country,
    state: filters.state,
    brands: filters.brand ? [filters.brand] : [],
  });
}
