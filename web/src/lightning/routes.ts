/**
 * The back office's addresses, in the platform's URL forms for page references (docs/product-spec.md §3):
 * an object's home and list views (/lightning/o/{objectApiName}/home, /list?filterName=…, __Recent for the recently viewed records), a new record's form
 * (/lightning/o/{objectApiName}/new), the import of a CSV file of its records (/lightning/o/{objectApiName}/import), record pages (/lightning/r/{objectApiName}/{recordId}/view) and a record's
 * edit form (…/{recordId}/edit) and the form that clones it (…/{recordId}/clone), a record's related list (…/{recordId}/related/{relationshipApiName}/view, the
 * record relationship page, with its order and page as a list view's), and the search results
 * (/lightning/search?searchTerm=…: the platform's search page reference has no URL form of its own in the record
 * UI). Reading an address into a route, and building the address of a route, are pure, so that links and the
 * router agree.
 */
import { BACK_OFFICE_PATH } from '../../../common/pages';

/** The object a bare /lightning opens when no app names one. */
export const DEFAULT_OBJECT = 'APT_Contact_Us__c';

export type Route =
  | {
      kind: 'list';
      objectApiName: string;
      /** The list view's API name (filterName); undefined for the object's first list view. */
      filterName?: string;
      /** The list records' sortBy: a field, `-` before it for descending; undefined for the view's own order. */
      sortBy?: string;
      /** The page token of the page shown; undefined for the first page. */
      pageToken?: string;
    }
  | { kind: 'record'; objectApiName: string; recordId: string }
  | { kind: 'edit'; objectApiName: string; recordId: string }
  /** The form of a new record copied from the record recordId. */
  | { kind: 'clone'; objectApiName: string; recordId: string }
  | {
      kind: 'related';
      /** The parent record's object and id. */
      objectApiName: string;
      recordId: string;
      /** The related list's id (relationshipApiName in the address), such as Contacts. */
      relatedListId: string;
      /** The records' sortBy, as a list view's; undefined for the related list's own order. */
      sortBy?: string;
      /** The page token of the page shown; undefined for the first page. */
      pageToken?: string;
    }
  | {
      kind: 'new';
      objectApiName: string;
      /** The record type of the new record (recordTypeId in the address); undefined for the user's default. */
      recordTypeId?: string;
    }
  /** The import of a CSV file of the object's records. */
  | { kind: 'import'; objectApiName: string }
  | {
      kind: 'search';
      /** The search term as the address holds it, untrimmed; '' when the address has none. */
      searchTerm: string;
    }
  | { kind: 'start' }
  | { kind: 'unknown' };

/** The address of the search results, without a term. */
export const SEARCH_PATH = `${BACK_OFFICE_PATH}/search`;

/** An API name or id as an address segment holds it: letters, digits and underscores only. */
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const ID = /^[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?$/;
/** The list view name of the user's recently viewed records (the platform's MRU list). */
export const RECENT_LIST_VIEW = '__Recent';

function decoded(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route of an address under /lightning; `search` is '?…' or ''. */
export function routeOf(pathname: string, search: string): Route {
  const path = pathname.replace(/\/+$/, '');
  if (path === BACK_OFFICE_PATH) return { kind: 'start' };
  if (path === SEARCH_PATH) return { kind: 'search', searchTerm: new URLSearchParams(search).get('searchTerm') ?? '' };
  if (!path.startsWith(`${BACK_OFFICE_PATH}/`)) return { kind: 'unknown' };
  const segments = path
    .slice(BACK_OFFICE_PATH.length + 1)
    .split('/')
    .map(decoded);
  const [type, objectApiName, third, fourth, fifth, sixth] = segments;
  if (!objectApiName || !NAME.test(objectApiName)) return { kind: 'unknown' };
  if (type === 'o' && segments.length === 3 && (third === 'list' || third === 'home')) {
    const query = new URLSearchParams(search);
    const filterName = query.get('filterName') ?? undefined;
    return {
      kind: 'list',
      objectApiName,
      filterName: filterName && (NAME.test(filterName) || filterName === RECENT_LIST_VIEW) ? filterName : undefined,
      sortBy: query.get('sortBy') || undefined,
      pageToken: query.get('pageToken') || undefined,
    };
  }
  if (type === 'o' && segments.length === 3 && third === 'new') {
    const recordTypeId = new URLSearchParams(search).get('recordTypeId') ?? undefined;
    return {
      kind: 'new',
      objectApiName,
      recordTypeId: recordTypeId && ID.test(recordTypeId) ? recordTypeId : undefined,
    };
  }
  if (type === 'o' && segments.length === 3 && third === 'import') return { kind: 'import', objectApiName };
  if (type === 'r' && segments.length === 4 && third && ID.test(third) && fourth === 'view')
    return { kind: 'record', objectApiName, recordId: third };
  if (type === 'r' && segments.length === 4 && third && ID.test(third) && fourth === 'edit')
    return { kind: 'edit', objectApiName, recordId: third };
  if (type === 'r' && segments.length === 4 && third && ID.test(third) && fourth === 'clone')
    return { kind: 'clone', objectApiName, recordId: third };
  if (
    type === 'r' &&
    segments.length === 6 &&
    third &&
    ID.test(third) &&
    fourth === 'related' &&
    fifth &&
    NAME.test(fifth) &&
    sixth === 'view'
  ) {
    const query = new URLSearchParams(search);
    return {
      kind: 'related',
      objectApiName,
      recordId: third,
      relatedListId: fifth,
      sortBy: query.get('sortBy') || undefined,
      pageToken: query.get('pageToken') || undefined,
    };
  }
  return { kind: 'unknown' };
}

/** The address of an object's home: its list views. */
export function objectHomeHref(objectApiName: string): string {
  return `${BACK_OFFICE_PATH}/o/${encodeURIComponent(objectApiName)}/home`;
}

/** The address of a list view, with its order and page when they are not the view's own first page. */
export function listHref(
  objectApiName: string,
  filterName: string,
  { sortBy, pageToken }: { sortBy?: string; pageToken?: string } = {},
): string {
  const query = new URLSearchParams({ filterName });
  if (sortBy) query.set('sortBy', sortBy);
  if (pageToken && pageToken !== '0') query.set('pageToken', pageToken);
  return `${BACK_OFFICE_PATH}/o/${encodeURIComponent(objectApiName)}/list?${query}`;
}

/**
 * The address of a list view's CSV export (a download the server answers, not a screen): the list's address
 * with `/export.csv` after `list`, in the order shown.
 */
export function listExportHref(
  objectApiName: string,
  filterName: string,
  { sortBy }: { sortBy?: string } = {},
): string {
  const query = new URLSearchParams({ filterName });
  if (sortBy) query.set('sortBy', sortBy);
  return `${BACK_OFFICE_PATH}/o/${encodeURIComponent(objectApiName)}/list/export.csv?${query}`;
}

/** The address of the screen that imports a CSV file of an object's records. */
export function importHref(objectApiName: string): string {
  return `${BACK_OFFICE_PATH}/o/${encodeURIComponent(objectApiName)}/import`;
}

/** The address of a record's page. */
export function recordHref(objectApiName: string, recordId: string): string {
  return `${BACK_OFFICE_PATH}/r/${encodeURIComponent(objectApiName)}/${encodeURIComponent(recordId)}/view`;
}

/** The address of a record's edit form. */
export function editHref(objectApiName: string, recordId: string): string {
  return `${BACK_OFFICE_PATH}/r/${encodeURIComponent(objectApiName)}/${encodeURIComponent(recordId)}/edit`;
}

/** The address of the form that creates a copy of a record. */
export function cloneHref(objectApiName: string, recordId: string): string {
  return `${BACK_OFFICE_PATH}/r/${encodeURIComponent(objectApiName)}/${encodeURIComponent(recordId)}/clone`;
}

/** The address of the form that creates a record of an object. */
export function newRecordHref(objectApiName: string): string {
  return `${BACK_OFFICE_PATH}/o/${encodeURIComponent(objectApiName)}/new`;
}

/** The address of a record's related list (its View All page), with its order and page when they are not its own first page. */
export function relatedListHref(
  objectApiName: string,
  recordId: string,
  relatedListId: string,
  { sortBy, pageToken }: { sortBy?: string; pageToken?: string } = {},
): string {
  const query = new URLSearchParams();
  if (sortBy) query.set('sortBy', sortBy);
  if (pageToken && pageToken !== '0') query.set('pageToken', pageToken);
  const path = [objectApiName, recordId, 'related', relatedListId].map(encodeURIComponent).join('/');
  const text = query.toString();
  return `${BACK_OFFICE_PATH}/r/${path}/view${text ? `?${text}` : ''}`;
}

/** The address of the search results for a term. */
export function searchHref(searchTerm: string): string {
  return `${SEARCH_PATH}?${new URLSearchParams({ searchTerm })}`;
}
