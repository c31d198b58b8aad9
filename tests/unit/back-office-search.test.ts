/**
 * The back office's search and app shell, their pure parts: the search results' address read and built, the
 * terms the platform refuses, getSearchResults' answer grouped by object with labels, counts and marked
 * matches (never HTML), and an app's tabs (the user's own arrangement first, web pages, nothing else).
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { routeOf, searchHref } from '../../web/src/lightning/routes.ts';
import {
  markedParts,
  objectsWithMatches,
  searchGroups,
  termProblem,
} from '../../web/src/lightning/search/search-results.ts';
import { firstScreenOf, tabsOf } from '../../web/src/lightning/shell/apps.ts';

type SearchAnswer = components['schemas']['SearchResultsSummaryRepresentation'];
type Collection = components['schemas']['SearchResultCollectionRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];
type App = components['schemas']['AppRepresentation'];
type NavItem = App['navItems'][number];

function collection(objectApiName: string, fields: string[], records: Collection['records'], more = false): Collection {
  return {
    count: records.length,
    currentPageToken: '0',
    error: null,
    fields: fields.map((field) => `${objectApiName}.${field}`),
    nextPageToken: more ? String(records.length) : null,
    objectApiName,
    pageSize: 25,
    previousPageToken: null,
    records,
    sortBy: null,
  };
}

function found(
  id: string,
  apiName: string,
  values: Record<string, string | null>,
  highlighted?: Record<string, string>,
): Collection['records'][number] {
  const fields = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, { displayValue: null, value }]),
  );
  return {
    highlightInfo: highlighted ? { fields: highlighted, snippet: null } : null,
    record: {
      apiName,
      childRelationships: {},
      eTag: 'e',
      fields,
      id,
    } as unknown as Collection['records'][number]['record'],
    searchInfo: { isPromoted: false, isSpellCorrected: false },
  };
}

function answer(results: Collection[]): SearchAnswer {
  return { configurationName: null, keywordSearchResults: { results }, qnaResult: null, query: 'north' };
}

function objectInfo(apiName: string, labelPlural: string, labels: Record<string, string>): ObjectInfo {
  return {
    apiName,
    labelPlural,
    fields: Object.fromEntries(Object.entries(labels).map(([name, label]) => [name, { apiName: name, label }])),
  } as unknown as ObjectInfo;
}

describe('the search results’ address', () => {
  it('reads /lightning/search?searchTerm=… into a search route, untrimmed', () => {
    expect(routeOf('/lightning/search', '?searchTerm=North+gate')).toEqual({
      kind: 'search',
      searchTerm: 'North gate',
    });
    expect(routeOf('/lightning/search/', '?searchTerm=%20ab%20')).toEqual({ kind: 'search', searchTerm: ' ab ' });
    expect(routeOf('/lightning/search', '')).toEqual({ kind: 'search', searchTerm: '' });
    // Not a search page: a deeper path.
    expect(routeOf('/lightning/search/more', '?searchTerm=ab')).toEqual({ kind: 'unknown' });
  });

  it('builds the address that reads back to the same term, whatever it holds', () => {
    for (const term of ['electrical', 'North & South', 'a+b?c=d#e', 'Zürich 100%']) {
      const href = searchHref(term);
      const url = new URL(href, 'https://example.com');
      expect(url.pathname).toBe('/lightning/search');
      expect(routeOf(url.pathname, url.search)).toEqual({ kind: 'search', searchTerm: term });
    }
  });
});

describe('search terms', () => {
  it('refuses a term shorter than 2 characters once trimmed, or longer than 255', () => {
    expect(termProblem('')).toBe('Enter at least 2 characters to search.');
    expect(termProblem('  a  ')).toBe('Enter at least 2 characters to search.');
    expect(termProblem('ab')).toBeUndefined();
    expect(termProblem(' ab ')).toBeUndefined();
    expect(termProblem('x'.repeat(255))).toBeUndefined();
    expect(termProblem('x'.repeat(256))).toBe('Enter at most 255 characters to search.');
  });
});

describe('search results by object', () => {
  const contactUs = collection(
    'APT_Contact_Us__c',
    ['Name', 'APT_Company_Name__c', 'APT_City__c'],
    [
      found(
        'a1C8d0000000001EAA',
        'APT_Contact_Us__c',
        { Name: 'CU-000001', APT_Company_Name__c: 'Northgate Electrical', APT_City__c: 'Milwaukee' },
        { APT_Company_Name__c: '<mark>Northgate</mark> Electrical' },
      ),
    ],
    true,
  );
  const accounts = collection(
    'Account',
    ['Name', 'Phone'],
    [
      found(
        '0018d0000000001AAA',
        'Account',
        { Name: 'Northgate Holdings', Phone: null },
        { Name: '<mark>Northgate</mark> Holdings' },
      ),
      found('0018d0000000002AAA', 'Account', { Name: 'North Star', Phone: '555' }),
    ],
  );
  const none = collection('Contact', ['Name', 'Email'], []);

  it('keeps the objects with matches, in the answer’s order, with their count (+ when more match)', () => {
    const groups = searchGroups(answer([contactUs, none, accounts]));
    expect(groups.map((group) => [group.objectApiName, group.count])).toEqual([
      ['APT_Contact_Us__c', '1+'],
      ['Account', '2'],
    ]);
    expect(objectsWithMatches(answer([contactUs, none, accounts]))).toEqual(['APT_Contact_Us__c', 'Account']);
    expect(searchGroups(answer([none]))).toEqual([]);
  });

  it('labels the groups and columns from the objects’ metadata, else by API name', () => {
    const infos = new Map([
      ['Account', objectInfo('Account', 'Accounts', { Name: 'Account Name', Phone: 'Account Phone' })],
    ]);
    const [first, second] = searchGroups(answer([contactUs, accounts]), infos);
    expect(second.label).toBe('Accounts');
    expect(second.columns).toEqual([
      { fieldApiName: 'Name', label: 'Account Name' },
      { fieldApiName: 'Phone', label: 'Account Phone' },
    ]);
    expect(first.label).toBe('APT_Contact_Us__c');
    expect(first.columns.map((column) => column.label)).toEqual(['Name', 'APT_Company_Name__c', 'APT_City__c']);
  });

  it('gives each row its record id and each cell its value, the matched words marked', () => {
    const [first, second] = searchGroups(answer([contactUs, accounts]));
    expect(first.rows).toEqual([
      {
        recordId: 'a1C8d0000000001EAA',
        cells: [
          [{ text: 'CU-000001', marked: false }],
          [
            { text: 'Northgate', marked: true },
            { text: ' Electrical', marked: false },
          ],
          [{ text: 'Milwaukee', marked: false }],
        ],
      },
    ]);
    // An empty value is an empty cell.
    expect(second.rows[0].cells[1]).toEqual([]);
  });

  it('says which object could not be searched, with the others', () => {
    const failed = { ...none, error: { errorCode: 'INVALID_TYPE', message: 'Contact cannot be searched now.' } };
    const groups = searchGroups(answer([failed, accounts]));
    expect(groups[0]).toMatchObject({ objectApiName: 'Contact', error: 'Contact cannot be searched now.', rows: [] });
  });
});

describe('marked matches', () => {
  it('reads <mark> alone, and the escaped text as text', () => {
    expect(markedParts('a &#60;b&#62; <mark>Nor</mark>th &amp; <mark>x</mark>')).toEqual([
      { text: 'a <b> ', marked: false },
      { text: 'Nor', marked: true },
      { text: 'th & ', marked: false },
      { text: 'x', marked: true },
    ]);
    // Other markup is not obeyed: it stays text.
    expect(markedParts('<img src=x onerror=alert(1)>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
    ]);
    expect(markedParts('')).toEqual([]);
  });
});

describe('an app’s tabs', () => {
  const item = (developerName: string, label: string, pageReference: NavItem['pageReference']): NavItem =>
    ({ developerName, label, pageReference }) as NavItem;
  const object = (name: string, label: string) =>
    item(`standard-${name}`, label, {
      type: 'standard__objectPage',
      attributes: { objectApiName: name, actionName: 'home' },
      state: {},
    });
  const home = item('standard-home', 'Home', {
    type: 'standard__namedPage',
    attributes: { pageName: 'home' },
    state: {},
  });
  const web = (url: string) =>
    item('Page', 'Contact Us Page', { type: 'standard__webPage', attributes: { url }, state: {} });
  const app = (navItems: NavItem[], userNavItems: NavItem[] = []) => ({ navItems, userNavItems }) as unknown as App;

  it('are the app’s object pages and web pages, in its order; other items have no tab', () => {
    const tabs = tabsOf(app([home, object('Account', 'Accounts'), web('/'), object('Case', 'Cases')]));
    expect(tabs).toEqual([
      { key: 'standard-Account', label: 'Accounts', objectApiName: 'Account', href: '/lightning/o/Account/home' },
      { key: 'Page', label: 'Contact Us Page', href: '/' },
      { key: 'standard-Case', label: 'Cases', objectApiName: 'Case', href: '/lightning/o/Case/home' },
    ]);
  });

  it('follow the user’s own arrangement when it has one', () => {
    const tabs = tabsOf(
      app([object('Account', 'Accounts'), object('Contact', 'Contacts')], [home, object('Contact', 'Contacts')]),
    );
    expect(tabs.map((tab) => tab.label)).toEqual(['Contacts']);
  });

  it('link only to this site or to http(s) pages', () => {
    expect(tabsOf(app([web('javascript:alert(1)'), web('//evil.example/'), web('https://example.com/a')]))).toEqual([
      { key: 'Page', label: 'Contact Us Page', href: 'https://example.com/a' },
    ]);
  });

  it('open the app at its first object’s home, skipping pages outside the back office', () => {
    expect(firstScreenOf(app([home, web('/'), object('Account', 'Accounts')]))).toBe('/lightning/o/Account/home');
    expect(firstScreenOf(app([home, web('/')]))).toBeUndefined();
  });
});
