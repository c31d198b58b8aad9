/** The custom object behind the page, and its multi-select brand picklist. */
export const CONTACT_US_OBJECT = 'APT_Contact_Us__c';
export const BRAND_FIELD = 'APT_Brand__c';

export { MASTER_RECORD_TYPE_ID } from '../../common/platform.ts';

/** Contact cards per page: four full rows of the 3-column grid (docs/product-spec.md §9). */
export const CONTACTS_PER_PAGE = 12;

/** The id of the <script type="application/json"> that carries the server's dehydrated queries. */
export const QUERY_STATE_ELEMENT_ID = 'query-state';
