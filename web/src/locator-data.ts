/**
 * The queries behind the locator, in one place: the component uses them, and the server prefetches
 * exactly the same ones before it renders the page.
 */
import type { ApiClient, ObjectInfoRepresentation } from '../../client/index';
import { getContactsChunksQuery } from '../../client/queries';
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

export function contactsQuery(api: ApiClient, filters: LocatorFilters) {
  return getContactsChunksQuery(api, {
    country: filters.country,
    state: filters.state,
    brands: filters.brand ? [filters.brand] : [],
  });
}
