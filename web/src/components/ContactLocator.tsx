import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import {
  getDependentStatePicklistsValuesQuery,
  getObjectInfoQuery,
  getPicklistValuesQuery,
} from '../../../client/queries';
import { useApiClient } from '../api-client';
import { BRAND_FIELD, CONTACT_US_OBJECT, CONTACTS_PER_PAGE, MASTER_RECORD_TYPE_ID } from '../constants';
import { useContactPages, type LocatorFilters } from '../useContactPages';
import { ContactCard } from './ContactCard';
import { FilterSelect, type SelectOption } from './FilterSelect';
import { Pager } from './Pager';
import { Spinner } from './Spinner';

interface LocatorState extends LocatorFilters {
  page: number;
}

type LocatorAction =
  | { type: 'brand'; value: string | null }
  | { type: 'country'; value: string | null }
  | { type: 'state'; value: string | null }
  | { type: 'page'; page: number };

const initialState: LocatorState = { brand: null, country: null, state: null, page: 1 };

/** Any filter change goes back to page 1; a new country also clears the state (product spec §4). */
function locatorReducer(state: LocatorState, action: LocatorAction): LocatorState {
  switch (action.type) {
    case 'brand':
      return { ...state, brand: action.value, page: 1 };
    case 'country':
      return { ...state, country: action.value, state: null, page: 1 };
    case 'state':
      return { ...state, state: action.value, page: 1 };
    case 'page':
      return { ...state, page: action.page };
  }
}

export function ContactLocator() {
  const api = useApiClient();
  const [filters, dispatch] = useReducer(locatorReducer, initialState);

  const countryStates = useQuery(getDependentStatePicklistsValuesQuery(api));
  const objectInfo = useQuery(getObjectInfoQuery(api, { objectApiName: CONTACT_US_OBJECT }));
  const recordTypeId = objectInfo.data ? (objectInfo.data.defaultRecordTypeId ?? MASTER_RECORD_TYPE_ID) : undefined;
  const brandPicklist = useQuery({
    ...getPicklistValuesQuery(api, {
      objectApiName: CONTACT_US_OBJECT,
      recordTypeId: recordTypeId ?? MASTER_RECORD_TYPE_ID,
      fieldApiName: BRAND_FIELD,
    }),
    enabled: recordTypeId !== undefined,
  });

  useEffect(() => {
    // Product spec §8: locator load errors are kept, not shown to the visitor.
    for (const error of [countryStates.error, objectInfo.error, brandPicklist.error]) {
      if (error) console.error('Error loading the contact locator', error);
    }
  }, [countryStates.error, objectInfo.error, brandPicklist.error]);

  const brandOptions = useMemo<SelectOption[]>(
    () =>
      (brandPicklist.data?.values ?? []).map((entry) => ({ value: entry.value, label: entry.label.toUpperCase() })),
    [brandPicklist.data],
  );
  const countryOptions = useMemo<SelectOption[]>(
    () => Object.keys(countryStates.data ?? {}).map((country) => ({ value: country, label: country })),
    [countryStates.data],
  );
  const stateOptions = useMemo<SelectOption[]>(() => {
    const states = filters.country ? (countryStates.data?.[filters.country] ?? []) : [];
    return states.map((state) => ({ value: state, label: state.toUpperCase() }));
  }, [countryStates.data, filters.country]);

  const pages = useContactPages(filters, filters.page);
  const summaryRef = useRef<HTMLParagraphElement>(null);

  const goToPage = (page: number) => {
    dispatch({ type: 'page', page });
    // Bring the new page into view and tell assistive technology where the reader is.
    summaryRef.current?.focus();
  };

  const first = (pages.currentPage - 1) * CONTACTS_PER_PAGE + 1;
  const last = first + pages.contacts.length - 1;

  return (
    <section className="locator" aria-labelledby="locator-heading">
      <h2 id="locator-heading" className="visually-hidden">
        Find a sales representative
      </h2>
      <div className="locator__filters">
        <FilterSelect
          label="Brand"
          placeholder="--Select Brand--"
          options={brandOptions}
          value={filters.brand}
          onChange={(value) => dispatch({ type: 'brand', value })}
        />
        <FilterSelect
          label="Country"
          placeholder="--Select Country--"
          options={countryOptions}
          value={filters.country}
          disabled={countryStates.isPending}
          onChange={(value) => dispatch({ type: 'country', value })}
        />
        <FilterSelect
          label="State/Province"
          placeholder="--Select State--"
          options={stateOptions}
          value={filters.state}
          disabled={stateOptions.length === 0}
          onChange={(value) => dispatch({ type: 'state', value })}
        />
      </div>

      {countryStates.isLoading && <Spinner />}

      <div className="locator__results" aria-busy={pages.isLoading}>
        {!pages.hasFilter ? (
          <p className="locator__empty">No Contacts to display</p>
        ) : pages.isLoading && pages.contacts.length === 0 ? (
          <Spinner label="Loading contacts" />
        ) : pages.totalRecords === 0 ? (
          <p className="locator__empty">No contacts match your selection.</p>
        ) : (
          <>
            <p ref={summaryRef} className="locator__summary" tabIndex={-1} aria-live="polite">
              Showing {first}–{last} of {pages.totalRecords} contacts
            </p>
            <div className="contact-grid">
              {pages.contacts.map((contact) => (
                <ContactCard key={contact.Id} contact={contact} />
              ))}
            </div>
            {pages.pageCount > 1 && (
              <Pager current={pages.currentPage} pageCount={pages.pageCount} onChange={goToPage} />
            )}
          </>
        )}
      </div>
    </section>
  );
}
