/**
 * Who sees a list view and may change it, how shares are listed, how q matches labels, how API names are
 * made from labels, and how request fields are qualified: the pure rules of lists.
 */
import { describe, expect, it } from 'vitest';
import {
  canSeeListView,
  listSharesRepresentation,
  listViewRights,
  managesListViews,
  shareTarget,
} from '../../server/platform/lists/access.ts';
import type { ListView } from '../../server/platform/lists/definitions.ts';
import { pathLabel } from '../../server/platform/lists/info.ts';
import { qualified } from '../../server/platform/lists/records.ts';
import { labelMatches } from '../../server/platform/lists/summaries.ts';
import { apiNameFromLabel } from '../../server/platform/lists/write.ts';
import {
  ADMIN_USER_ID,
  GUEST,
  profileNamed,
  STANDARD_USER_ID,
  type Principal,
} from '../../server/platform/core/principal.ts';
import { ACCOUNT, CONTACT, ORG } from '../support/query-org.ts';

const admin: Principal = { userId: ADMIN_USER_ID, isGuest: false, profile: profileNamed('System Administrator') };
const standard: Principal = { userId: STANDARD_USER_ID, isGuest: false, profile: profileNamed('Standard User') };
const other: Principal = { userId: '0058d0000000009AAA', isGuest: false, profile: profileNamed('Standard User') };

const view = (
  ownerId: string | null,
  visibility: ListView['definition']['visibility'],
  listShares: string[] = [],
  apiName = 'Some',
): ListView => ({
  id: apiName === '__Recent' ? null : '00B8d0000000009EAA',
  objectApiName: 'Account',
  apiName,
  ownerId,
  definition: {
    label: 'Some',
    displayColumns: [],
    filteredByInfo: [],
    filterLogicString: null,
    orderedByInfo: [],
    scope: 'everything',
    visibility,
    listShares,
  },
});

describe('list view visibility and rights', () => {
  it('shows Public views to every reader, Private ones to their creator, Shared ones to members and managers', () => {
    expect(canSeeListView(standard, ACCOUNT, view(null, 'Public'))).toBe(true);
    expect(canSeeListView(standard, ACCOUNT, view(other.userId, 'Private'))).toBe(false);
    expect(canSeeListView(admin, ACCOUNT, view(other.userId, 'Private'))).toBe(false);
    expect(canSeeListView(other, ACCOUNT, view(other.userId, 'Private'))).toBe(true);
    expect(canSeeListView(standard, ACCOUNT, view(admin.userId, 'Shared', ['Regular.ContactUsReviewers']))).toBe(true);
    expect(canSeeListView(other, ACCOUNT, view(admin.userId, 'Shared', ['Regular.ContactUsReviewers']))).toBe(false);
    expect(canSeeListView(admin, ACCOUNT, view(other.userId, 'Shared', ['Role.SalesRepresentative']))).toBe(true);
    expect(canSeeListView(GUEST, ACCOUNT, view(null, 'Public'))).toBe(false);
  });

  it("lets the creator change its own views and the manager everyone's; nobody changes the MRU list", () => {
    expect(listViewRights(standard, ACCOUNT, view(null, 'Public'))).toEqual({
      cloneable: true,
      createable: true,
      deletable: false,
      updateable: false,
      visibilityEditable: false,
    });
    expect(listViewRights(standard, ACCOUNT, view(standard.userId, 'Private'))).toEqual({
      cloneable: true,
      createable: true,
      deletable: true,
      updateable: true,
      visibilityEditable: false,
    });
    expect(listViewRights(admin, ACCOUNT, view(null, 'Public'))).toEqual({
      cloneable: true,
      createable: true,
      deletable: true,
      updateable: true,
      visibilityEditable: true,
    });
    expect(listViewRights(admin, ACCOUNT, view(null, 'Private', [], '__Recent'))).toEqual({
      cloneable: false,
      createable: true,
      deletable: false,
      updateable: false,
      visibilityEditable: false,
    });
    expect(managesListViews(standard, ACCOUNT)).toBe(false);
    expect(managesListViews(admin, ACCOUNT)).toBe(true);
  });

  it('lists shares by kind, with their labels, and knows roles and groups by name in any case', () => {
    expect(shareTarget('role.SALESMANAGER')?.label).toBe('Sales Manager');
    expect(shareTarget('Role.Nobody')).toBeUndefined();
    expect(
      listSharesRepresentation(['Role.SalesManager', 'Regular.ContactUsReviewers', 'Role.SalesRepresentative']),
    ).toEqual([
      {
        shareType: 'Role',
        shares: [
          { label: 'Sales Manager', shareApiName: 'SalesManager' },
          { label: 'Sales Representative', shareApiName: 'SalesRepresentative' },
        ],
      },
      { shareType: 'Regular', shares: [{ label: 'Contact Us Reviewers', shareApiName: 'ContactUsReviewers' }] },
    ]);
  });
});

describe('names and labels', () => {
  it('matches q anywhere in a label, in any case, * standing for any run of characters', () => {
    expect(labelMatches('All Contact Us', 'contact')).toBe(true);
    expect(labelMatches('All Contact Us', 'all*us')).toBe(true);
    expect(labelMatches('All Contact Us', 'us*all')).toBe(false);
    expect(labelMatches('Costs (2024)', '(2024)')).toBe(true);
    expect(labelMatches('Anything', undefined)).toBe(true);
  });

  it('makes an API name from a label', () => {
    expect(apiNameFromLabel('My 2nd view: Ohio & more')).toBe('My_2nd_view_Ohio_more');
    expect(apiNameFromLabel('2024 leads')).toBe('X2024_leads');
    expect(apiNameFromLabel('Café')).toBe('Cafe');
    expect(apiNameFromLabel('x'.repeat(100))).toHaveLength(80);
  });

  it("qualifies a request's fields with the object, whether given qualified or not", () => {
    expect(qualified('Contact', 'Name')).toBe('Contact.Name');
    expect(qualified('Contact', 'contact.Account.Name')).toBe('Contact.Account.Name');
    expect(qualified('Contact', 'Account.Name')).toBe('Contact.Account.Name');
  });

  it("labels a parent's field after its relationship", () => {
    expect(pathLabel(ORG, CONTACT, 'Account.Owner.Email')).toBe('Owner Email');
    expect(pathLabel(ORG, ACCOUNT, 'Name')).toBe('Name');
    expect(pathLabel(ORG, ACCOUNT, 'Nope')).toBe('Nope');
  });
});
