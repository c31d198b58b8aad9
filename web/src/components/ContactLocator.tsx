import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { distanceUnitFor, formatDistance } from '../../../common/distance';
import type { CountryStatesMap, PicklistValuesRepresentation } from '../../../client/index';
import { countryStatesQuery } from '../../../client/queries';
import { useApiClient } from '../api-client';
import { CONTACTS_PER_PAGE } from '../constants';
import { memoByObject } from '../lib/memo';
import { brandPicklistQuery, brandRecordTypeId, contactUsObjectInfoQuery } from '../locator-data';
import {
  canonicalSearch,
  locatorSearch,
  parseLocatorSearch,
  resolveLocatorFilters,
  unrecognisedFilterMessage,
  unrecognisedFilters,
  type LocatorFilters,
} from '../locator-params';
import { navigate, PageLink, replaceLocation, useLocation } from '../location';
import { useContactPages } from '../useContactPages';
import { Combobox, type ComboboxOption } from './combobox/Combobox';
import { ContactCard } from './ContactCard';
import { LocatorFallbackForm } from './LocatorFallbackForm';
import { Pager } from './Pager';
import { Spinner } from './Spinner';

const NO_OPTIONS: ComboboxOption[] = [];

/** The place box and its type-ahead, loaded apart from the page's first script. */
const PlaceBox = lazy(() => import('./PlaceBox'));

/** What a card says of its distance in the nearest search: in the unit, or that it is the state's. */
function distanceText(contact: object, unit: 'km' | 'mi'): string | undefined {
  const { distanceKm, placedBy } = contact as { distanceKm?: number | null; placedBy?: string | null };
  if (distanceKm === undefined) return undefined;
  if (distanceKm === null) return 'Distance unknown';
  const text = `${formatDistance(distanceKm, unit)} away`;
  return placedBy === 'state' ? `${text} (to the state)` : text;
}

// Each list's options, made once per answer: the comboboxes and the no-JS form get the same list render after
// render (on the server too, from the data kept for guests).
const brandOptionsOf = memoByObject((picklist: PicklistValuesRepresentation) =>
  picklist.values.map((entry): ComboboxOption => ({ value: entry.value, label: entry.label.toUpperCase() })),
);
const countryOptionsOf = memoByObject((countryStates: CountryStatesMap) =>
  Object.keys(countryStates).map((country): ComboboxOption => ({ value: country, label: country })),
);
const stateOptionsOf = memoByObject((states: readonly string[]) =>
  states.length ? states.map((state): ComboboxOption => ({ value: state, label: state.toUpperCase() })) : NO_OPTIONS,
);

/**
 * The contact locator (docs/product-spec.md §2, §4): brand, country and state/province filters over a
 * grid of contact cards with a pager. Filters and page live in the URL; a filter change goes back to
 * page 1, a new country clears the state.
 */
export function ContactLocator() {
  const api = useApiClient();
  const location = useLocation();
  const params = useMemo(() => parseLocatorSearch(location.search), [location.search]);

  const countryStates = useQuery(countryStatesQuery(api));
  const objectInfo = useQuery(contactUsObjectInfoQuery(api));
  const recordTypeId = brandRecordTypeId(objectInfo.data);
  const brandPicklist = useQuery({ ...brandPicklistQuery(api, recordTypeId), enabled: recordTypeId !== undefined });

  useEffect(() => {
    // Locator load errors are kept, not shown to the visitor.
    for (const error of [countryStates.error, objectInfo.error, brandPicklist.error]) {
      if (error) console.error('Error loading the contact locator', error);
    }
  }, [countryStates.error, objectInfo.error, brandPicklist.error]);

  const brandOptions = brandPicklist.data ? brandOptionsOf(brandPicklist.data) : NO_OPTIONS;
  const countryOptions = countryStates.data ? countryOptionsOf(countryStates.data) : NO_OPTIONS;
  const choices = useMemo(
    () => ({ brands: brandPicklist.data?.values.map((entry) => entry.value), countryStates: countryStates.data }),
    [brandPicklist.data, countryStates.data],
  );
  const filters = useMemo(() => resolveLocatorFilters(params, choices), [params, choices]);
  // A filter of the address that names nothing in the lists is left out, and the page says so.
  const unrecognised = useMemo(() => unrecognisedFilters(params, filters, choices), [params, filters, choices]);
  const states = filters.country ? countryStates.data?.[filters.country] : undefined;
  const stateOptions = states ? stateOptionsOf(states) : NO_OPTIONS;

  const pages = useContactPages(filters, params.page);

  // The address says what the page shows: a page past the end becomes the last page, a filter spelled
  // otherwise the lists' spelling (the server redirects so already; this covers Back and Forward).
  // The first HTML carries the chosen country's states only, and the browser then fetches the whole map: an
  // address naming another country's state waits for it before it is corrected.
  const settled =
    choices.brands !== undefined &&
    choices.countryStates !== undefined &&
    !countryStates.isFetching &&
    pages.totalKnown;
  useEffect(() => {
    if (!settled) return;
    const search = canonicalSearch(location.search, filters, pages.currentPage);
    if (search !== null) replaceLocation(location.pathname + search);
  }, [settled, location.pathname, location.search, filters, pages.currentPage]);

  const hrefFor = (next: LocatorFilters, page = 1) => `${location.pathname}${locatorSearch({ ...next, page })}`;
  // Any filter change goes back to page 1; a new country clears the state, which belonged to the old one.
  const choose = (change: Partial<LocatorFilters>) => navigate(hrefFor({ ...filters, ...change }));

  const [placeBoxReady, setPlaceBoxReady] = useState(false);
  useEffect(() => setPlaceBoxReady(true), []);

  const filtersRef = useRef<HTMLDivElement>(null);
  // After a pager click, take the reader to the top of the new page of results.
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const focusResults = useRef(false);
  // Runs when a new page of results has rendered.
  useEffect(() => {
    if (!focusResults.current || !summaryRef.current) return;
    focusResults.current = false;
    summaryRef.current.focus();
  }, [pages.currentPage, pages.contacts]);

  // Distances in the chosen country's unit, else in that of the nearest contact's country (the place's, mostly).
  const unit = distanceUnitFor(filters.country ?? pages.contacts[0]?.APT_UI_Country__c);
  const first = (pages.currentPage - 1) * CONTACTS_PER_PAGE + 1;
  const last = first + pages.contacts.length - 1;

  return (
    <section className="locator" aria-labelledby="locator-heading">
      <h2 id="locator-heading" className="locator__heading">
        Find a sales representative
      </h2>
      <div ref={filtersRef} className="locator__filters js-only" role="search" aria-label="Filter contacts">
        <Combobox
          label="Brand"
          placeholder="--Select Brand--"
          options={brandOptions}
          value={filters.brand}
          onChange={(brand) => choose({ brand })}
        />
        <Combobox
          label="Country"
          placeholder="--Select Country--"
          options={countryOptions}
          value={filters.country}
          disabled={countryStates.isPending}
          onChange={(country) => choose({ country, state: null })}
        />
        <Combobox
          label="State/Province"
          placeholder="--Select State--"
          options={stateOptions}
          value={filters.state}
          disabled={stateOptions.length === 0}
          onChange={(state) => choose({ state })}
        />
      </div>
      <div className="locator__place js-only">
        {/* Mounted after hydration: the server renders no lazy component (it cannot wait for one). */}
        {placeBoxReady && (
          <Suspense fallback={null}>
            <PlaceBox
              place={filters.near?.place ?? null}
              country={filters.country}
              onChoose={(chosen) =>
                navigate(
                  hrefFor({
                    ...filters,
                    near: { latitude: chosen.latitude, longitude: chosen.longitude, place: chosen.place },
                  }),
                )
              }
            />
          </Suspense>
        )}
      </div>
      <LocatorFallbackForm
        action={location.pathname}
        fields={[
          {
            name: 'brand',
            label: 'Brand',
            placeholder: '--Select Brand--',
            options: brandOptions,
            value: filters.brand,
          },
          {
            name: 'country',
            label: 'Country',
            placeholder: '--Select Country--',
            options: countryOptions,
            value: filters.country,
          },
          {
            name: 'state',
            label: 'State/Province',
            placeholder: '--Select State--',
            options: stateOptions,
            value: filters.state,
          },
        ]}
      />

      <div className="locator__results" aria-busy={pages.isLoading || countryStates.isPending}>
        {unrecognised.length > 0 && (
          <div className="locator__notice" role="note">
            {unrecognised.map((filter) => (
              <p key={filter.name}>{unrecognisedFilterMessage(filter, pages.hasFilter)}</p>
            ))}
          </div>
        )}
        {countryStates.isPending ? (
          // A spinner until the country and state data has arrived: the filters need it.
          <Spinner alternativeText="Loading countries and states" />
        ) : !pages.hasFilter ? (
          <p className="locator__empty">No Contacts to display</p>
        ) : (
          <>
            <div className="locator__toolbar">
              <p ref={summaryRef} className="locator__summary" tabIndex={-1} aria-live="polite">
                {pages.contacts.length > 0 &&
                  `Showing ${first}–${last} of ${pages.totalRecords} contacts${filters.near ? `, nearest to ${filters.near.place ?? 'the place chosen'}` : ''}`}
              </p>
              <PageLink
                href={location.pathname}
                className="locator__clear"
                // The link goes with the filters it clears: focus goes to the first filter, not to the page.
                onNavigate={() => filtersRef.current?.querySelector<HTMLElement>('[role="combobox"]')?.focus()}
              >
                Clear filters
              </PageLink>
            </div>
            {pages.isLoading && pages.contacts.length === 0 ? (
              <Spinner alternativeText="Loading contacts" />
            ) : pages.totalRecords === 0 ? (
              <p className="locator__empty locator__no-match" role="status">
                No contacts match your selection. Try another brand, country or state.
              </p>
            ) : (
              <>
                <div className="contact-grid">
                  {pages.contacts.map((contact) => (
                    <ContactCard
                      key={contact.Id}
                      contact={contact}
                      distance={filters.near ? distanceText(contact, unit) : undefined}
                    />
                  ))}
                </div>
                {pages.totalRecords > CONTACTS_PER_PAGE && (
                  <Pager
                    current={pages.currentPage}
                    pageCount={pages.pageCount}
                    hrefFor={(page) => hrefFor(filters, page)}
                    onNavigate={() => {
                      focusResults.current = true;
                    }}
                  />
                )}
              </>
            )}
          </>
        )}
      </div>
    </section>
  );
}
