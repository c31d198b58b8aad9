/**
 * The pure parts of a record page's highlights, collapsible sections and related lists: the related list page's
 * address read and built, which related lists a page shows, counts as the platform writes them ("10+"), one
 * item of a batch answer, a related record by its list's columns, the compact layout's fields but the name, and
 * which sections the layout user state collapses.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import type { RecordRepresentation } from '../../web/src/lightning/fields.ts';
import {
  collapsedSectionsOf,
  compactLayoutOf,
  highlightsOf,
  MAX_HIGHLIGHTS,
} from '../../web/src/lightning/record/layout.ts';
import {
  batchItem,
  countText,
  RELATED_BATCH_MAX,
  relatedRecordOf,
  shownRelatedLists,
  titleColumnOf,
} from '../../web/src/lightning/related/related-lists.ts';
import { relatedListHref, routeOf } from '../../web/src/lightning/routes.ts';

type Layout = components['schemas']['RecordLayoutRepresentation'];
type Item = Layout['sections'][number]['layoutRows'][number]['layoutItems'][number];
type RecordUi = components['schemas']['RecordUiRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];
type Summaries = components['schemas']['RelatedListSummaryInfoCollectionRepresentation'];
type Column = components['schemas']['RelatedListColumnRepresentation'];

const ACCOUNT = '0018d0000000001AAA';
const MASTER = '012000000000000AAA';

function record(apiName: string, id: string, fields: Record<string, string | null>): RecordRepresentation {
  return {
    apiName,
    childRelationships: {},
    eTag: 'e',
    fields: Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [name, { displayValue: null, value }]),
    ) as RecordRepresentation['fields'],
    id,
    lastModifiedById: null,
    lastModifiedDate: null,
    recordTypeId: MASTER,
    recordTypeInfo: null,
    systemModstamp: null,
    weakEtag: 0,
  } as RecordRepresentation;
}

function item(label: string, apiName: string): Item {
  return {
    editableForNew: false,
    editableForUpdate: false,
    label,
    layoutComponents: [{ apiName, componentType: 'Field', label }],
    lookupIdApiName: null,
    required: false,
    sortable: false,
  } as Item;
}

function layout(
  layoutType: 'Full' | 'Compact',
  sections: { id: string | null; collapsible: boolean; items: Item[] }[],
): Layout {
  return {
    eTag: 'l',
    id: layoutType === 'Full' ? '00h8d0000000006AAA' : '0AH8d0000000003GAA',
    layoutType,
    mode: 'View',
    objectApiName: 'Account',
    recordTypeId: MASTER,
    saveOptions: [],
    sections: sections.map(({ id, collapsible, items }) => ({
      collapsible,
      columns: 2,
      heading: id,
      id,
      rows: 1,
      useHeading: true,
      layoutRows: [{ layoutItems: items }],
    })),
  } as unknown as Layout;
}

describe('the related list page’s address', () => {
  it('reads the record relationship page form, with its order and page', () => {
    expect(routeOf(`/lightning/r/Account/${ACCOUNT}/related/Contacts/view`, '')).toEqual({
      kind: 'related',
      objectApiName: 'Account',
      recordId: ACCOUNT,
      relatedListId: 'Contacts',
      sortBy: undefined,
      pageToken: undefined,
    });
    expect(routeOf(`/lightning/r/Account/${ACCOUNT}/related/Contacts/view/`, '?sortBy=-Title&pageToken=50')).toEqual({
      kind: 'related',
      objectApiName: 'Account',
      recordId: ACCOUNT,
      relatedListId: 'Contacts',
      sortBy: '-Title',
      pageToken: '50',
    });
  });

  it('reads no related list page from a malformed address', () => {
    for (const path of [
      `/lightning/r/Account/${ACCOUNT}/related/Contacts`,
      `/lightning/r/Account/${ACCOUNT}/related/Contacts/edit`,
      `/lightning/r/Account/${ACCOUNT}/related/1Contacts/view`,
      `/lightning/r/Account/${ACCOUNT}/related/Con%3Ctacts/view`,
      `/lightning/r/Account/not-an-id/related/Contacts/view`,
      `/lightning/r/Account/${ACCOUNT}/relate/Contacts/view`,
      `/lightning/o/Account/${ACCOUNT}/related/Contacts/view`,
      `/lightning/r/Account/${ACCOUNT}/related/Contacts/view/more`,
    ])
      expect(routeOf(path, ''), path).toEqual({ kind: 'unknown' });
  });

  it('builds the address the router reads back, leaving out the first page and the list’s own order', () => {
    expect(relatedListHref('Account', ACCOUNT, 'Contacts')).toBe(
      `/lightning/r/Account/${ACCOUNT}/related/Contacts/view`,
    );
    expect(relatedListHref('Account', ACCOUNT, 'Contacts', { pageToken: '0' })).toBe(
      `/lightning/r/Account/${ACCOUNT}/related/Contacts/view`,
    );
    const href = relatedListHref('Account', ACCOUNT, 'OpenCases', { sortBy: '-CaseNumber', pageToken: '100' });
    expect(href).toBe(`/lightning/r/Account/${ACCOUNT}/related/OpenCases/view?sortBy=-CaseNumber&pageToken=100`);
    const url = new URL(href, 'http://localhost');
    expect(routeOf(url.pathname, url.search)).toEqual({
      kind: 'related',
      objectApiName: 'Account',
      recordId: ACCOUNT,
      relatedListId: 'OpenCases',
      sortBy: '-CaseNumber',
      pageToken: '100',
    });
  });
});

describe('a record’s related lists', () => {
  const summary = (relatedListId: string, uiApiEnabledLayout: boolean) =>
    ({ relatedListId, label: relatedListId, uiApiEnabledLayout }) as Summaries['relatedLists'][number];

  it('shows the layout’s related lists, in order, not the other child relationships, at most a batch', () => {
    const summaries = {
      relatedLists: [summary('Contacts', true), summary('Notes', false), summary('Cases', true)],
    } as Summaries;
    expect(shownRelatedLists(summaries).map((list) => list.relatedListId)).toEqual(['Contacts', 'Cases']);
    const many = {
      relatedLists: Array.from({ length: 25 }, (_, index) => summary(`List${index}`, true)),
    } as Summaries;
    expect(shownRelatedLists(many)).toHaveLength(RELATED_BATCH_MAX);
  });

  it('writes a count as the platform does: with a + when there are more than were counted', () => {
    expect(countText({ count: 3, hasMore: false })).toBe('3');
    expect(countText({ count: 10, hasMore: true })).toBe('10+');
    expect(countText({ count: 0, hasMore: false })).toBe('0');
    expect(countText({ count: null, hasMore: false })).toBe('0');
  });

  it('takes one item of a batch answer: its result, or its own error', () => {
    const results = [
      { statusCode: 200, result: { count: 2, hasMore: false } },
      { statusCode: 404, result: [{ errorCode: 'NOT_FOUND', message: 'No related list Opportunities.' }] },
      { statusCode: 500, result: [] },
    ];
    expect(batchItem(results, 0)).toEqual({ ok: { count: 2, hasMore: false } });
    expect(batchItem(results, 1)).toEqual({ error: 'No related list Opportunities.' });
    expect(batchItem(results, 2)).toEqual({ error: 'The server answered 500.' });
    expect(batchItem(results, 3)).toBeUndefined();
    expect(batchItem(undefined, 0)).toBeUndefined();
  });

  const columns: Column[] = [
    { fieldApiName: 'Title', label: 'Title', lookupId: null, sortable: true },
    { fieldApiName: 'Name', label: 'Full Name', lookupId: 'Id', sortable: true },
    { fieldApiName: 'Account.Name', label: 'Account Name', lookupId: 'AccountId', sortable: true },
  ];

  it('names a related record by the column that links to it, and shows the others as label and text', () => {
    expect(titleColumnOf(columns)?.fieldApiName).toBe('Name');
    expect(titleColumnOf([columns[0]])?.fieldApiName).toBe('Title');
    expect(titleColumnOf([])).toBeUndefined();
    const contact = record('Contact', '0038d0000000001AAA', { Name: 'Service Desk', Title: null });
    contact.fields.Account = {
      displayValue: null,
      value: record('Account', ACCOUNT, { Name: 'Lakeshore Switchgear Group' }),
    };
    expect(relatedRecordOf(contact, columns)).toEqual({
      title: 'Service Desk',
      fields: [
        { label: 'Title', text: '' },
        { label: 'Account Name', text: 'Lakeshore Switchgear Group' },
      ],
    });
  });

  it('names a related record by its Name, else its id, when its title column is empty or unknown', () => {
    const unnamed = record('Case', '5008d0000000001AAA', { CaseNumber: null });
    expect(
      relatedRecordOf(unnamed, [{ fieldApiName: 'CaseNumber', label: 'Case', lookupId: 'Id', sortable: true }]),
    ).toEqual({ title: '5008d0000000001AAA', fields: [] });
    expect(relatedRecordOf(record('Contact', '0038d0000000001AAA', { Name: 'Field Support' }), []).title).toBe(
      'Field Support',
    );
  });
});

describe('a record’s highlights', () => {
  const account = record('Account', ACCOUNT, {
    Name: 'Lakeshore Switchgear Group',
    Type: 'Distributor',
    Phone: '216-555-0142',
    Website: null,
    OwnerId: '0058d0000000001AAA',
  });
  const objectInfo = { apiName: 'Account', nameFields: ['Name'], fields: {} } as unknown as ObjectInfo;
  const compact = layout('Compact', [
    {
      id: null,
      collapsible: false,
      items: [
        item('Account Name', 'Name'),
        item('Type', 'Type'),
        item('Phone', 'Phone'),
        item('Website', 'Website'),
        item('Owner', 'OwnerId'),
      ],
    },
  ]);

  it('shows the compact layout’s fields but the name, which is the page’s heading; a lookup by its name', () => {
    expect(highlightsOf(compact, account, new Map([['OwnerId', 'Store Administrator']]), objectInfo)).toEqual([
      { label: 'Type', text: 'Distributor' },
      { label: 'Phone', text: '216-555-0142' },
      { label: 'Website', text: '' },
      { label: 'Owner', text: 'Store Administrator' },
    ]);
  });

  it('leaves out the object’s own name field, and shows no more than the platform does', () => {
    const caseInfo = { apiName: 'Case', nameFields: ['CaseNumber'], fields: {} } as unknown as ObjectInfo;
    const many = layout('Compact', [
      {
        id: null,
        collapsible: false,
        items: [item('Case Number', 'CaseNumber'), ...Array.from({ length: 9 }, (_, n) => item(`F${n}`, `F${n}`))],
      },
    ]);
    const shown = highlightsOf(
      many,
      record('Case', '5008d0000000001AAA', { CaseNumber: '00001001' }),
      new Map(),
      caseInfo,
    );
    expect(shown.map((field) => field.label)).toEqual(['F0', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6']);
    expect(shown).toHaveLength(MAX_HIGHLIGHTS);
  });

  it('finds the compact layout of the record’s record type in the record UI, else of any', () => {
    const full = layout('Full', []);
    const recordUi = {
      layouts: { Account: { [MASTER]: { Full: { View: full }, Compact: { View: compact } } } },
    } as unknown as RecordUi;
    expect(compactLayoutOf(recordUi, account)).toBe(compact);
    const otherType = { ...account, recordTypeId: '0128d0000000001AAA' };
    expect(compactLayoutOf(recordUi, otherType)).toBe(compact);
    const fullOnly = { layouts: { Account: { [MASTER]: { Full: { View: full } } } } } as unknown as RecordUi;
    expect(compactLayoutOf(fullOnly, account)).toBeUndefined();
  });
});

describe('a record page’s collapsible sections', () => {
  const full = layout('Full', [
    { id: '01B8d000000000FEAQ', collapsible: false, items: [] },
    { id: '01B8d000000000GEAQ', collapsible: true, items: [] },
    { id: '01B8d000000000HEAQ', collapsible: true, items: [] },
    { id: null, collapsible: true, items: [] },
  ]);

  it('collapses the sections the layout user state says, expands the others, and leaves out fixed ones', () => {
    const userStates = {
      [full.id!]: {
        sectionUserStates: { '01B8d000000000GEAQ': { collapsed: true, id: '01B8d000000000GEAQ' } },
      },
    } as unknown as RecordUi['layoutUserStates'];
    expect(collapsedSectionsOf(full, userStates)).toEqual(
      new Map([
        ['01B8d000000000GEAQ', true],
        ['01B8d000000000HEAQ', false],
      ]),
    );
  });

  it('expands every collapsible section without a saved state', () => {
    expect(collapsedSectionsOf(full, undefined)).toEqual(
      new Map([
        ['01B8d000000000GEAQ', false],
        ['01B8d000000000HEAQ', false],
      ]),
    );
    expect(collapsedSectionsOf(full, {})).toEqual(collapsedSectionsOf(full, undefined));
  });
});
