/**
 * Every call of docs/product-spec.md §7 ("The calls it makes") as method + path, one row per method: the
 * checklist the contract is held to by tests/contract/spec-calls.test.ts. Path parameter names are those
 * of §7; where the contract legitimately differs, the row has the contract's form and a comment saying why.
 *
 * `extras` lists the operations the contract has beyond §7, each with its reason. An operation of the
 * contract in neither table fails the test: a new operation is either a §7 call or a deliberate extra.
 */

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface SpecCall {
  method: Method;
  path: string;
  /** The heading of docs/product-spec.md §7 the call is listed under. */
  section: string;
}

export interface ExtraCall {
  method: Method;
  path: string;
  /** Why the contract has it although docs/product-spec.md §7 does not list it. */
  reason: string;
}

const UI_API = '/services/data/v65.0/ui-api';
const CONNECT = '/services/data/v65.0/connect';
const APEX = '/lwr/apex/v65.0';

type Row = [Method, string];
const rows = (section: string, prefix: string, list: Row[]): SpecCall[] =>
  list.map(([method, path]) => ({ method, path: `${prefix}${path}`, section }));

export const specCalls: SpecCall[] = [
  // Server-method transport: GET with methodParams in the query, and the POST form with them in the body.
  ...rows('Server-method transport', APEX, [
    ['get', '/{apexClass}/{apexMethod}'],
    ['post', '/{apexClass}/{apexMethod}'],
  ]),

  ...rows('Content delivery', CONNECT, [
    ['get', '/sites/{siteId}/cms/delivery/contents/{contentKeyOrId}'],
    ['get', '/cms/delivery/channels/{channelId}/contents/{contentKeyOrId}'],
    ['get', '/sites/{siteId}/cms/delivery/contents'],
    ['get', '/cms/delivery/channels/{channelId}/contents'],
  ]),

  // Media and image paths: docs/product-spec.md §7 gives no exact form ("/cms/ or /img/ under a site prefix,
  // with a sites path prefix for site-builder content; an optional image-resizing path with width and
  // height"). These are the contract's (`# Content` in openapi/openapi.yaml): the site prefix /sfsites/c,
  // and the resizing prefix /cdn-cgi/image/{options} (width, height, format=auto ...) in front of either.
  ...rows('Content delivery (media)', '', [
    ['get', '/sfsites/c/cms/delivery/media/{contentKey}'],
    ['get', '/sfsites/c/img/{fileName}'],
    ['get', '/cdn-cgi/image/{options}/sfsites/c/cms/delivery/media/{contentKey}'],
    ['get', '/cdn-cgi/image/{options}/sfsites/c/img/{fileName}'],
  ]),

  // docs/product-spec.md §7 writes the SEO path with {apiVersion}, not v65.0.
  ...rows('SEO', '', [
    ['get', '/services/data/{apiVersion}/connect/communities/{communityId}/seo/properties/{recordId}'],
  ]),

  ...rows('Records', UI_API, [
    ['get', '/records/{recordId}'],
    ['get', '/records/batch/{recordIds}'],
    ['post', '/records'],
    ['patch', '/records/{recordId}'],
    ['delete', '/records/{recordId}'],
    ['post', '/records/batch'],
    ['post', '/records/content-documents/{contentDocumentId}/content-versions'],
    ['post', '/records/content-documents/content-versions'],
    ['get', '/record-ui/{recordIds}'],
  ]),

  ...rows('Lists', UI_API, [
    ['post', '/list-records/{objectApiName}/{listViewApiName}'],
    ['get', '/list-records/{listViewId}'],
    // Also GET /list-ui/{listViewId} of docs/product-spec.md §7: OpenAPI forbids two paths that differ only
    // in a parameter's name, so the contract has one operation whose {objectApiName} is an object name or a
    // list view id (00B...).
    ['get', '/list-ui/{objectApiName}'],
    ['get', '/list-ui/{objectApiName}/{listViewApiName}'],
    ['get', '/mru-list-ui/{objectApiName}'],
    ['get', '/mru-list-records/{objectApiName}'],
    ['get', '/list-info/batch'],
    ['get', '/list-info/{objectApiName}'],
    ['post', '/list-info/{objectApiName}'],
    ['get', '/list-info/{objectApiName}/{listViewApiName}'],
    ['patch', '/list-info/{objectApiName}/{listViewApiName}'],
    ['delete', '/list-info/{objectApiName}/{listViewApiName}'],
    ['get', '/list-preferences/{objectApiName}/{listViewApiName}'],
    ['patch', '/list-preferences/{objectApiName}/{listViewApiName}'],
    ['get', '/list-object-info/{objectApiName}'],
  ]),

  ...rows('Metadata', UI_API, [
    ['get', '/object-info'],
    ['get', '/object-info/{objectApiName}'],
    ['get', '/object-info/batch/{objectApiNames}'],
    ['get', '/object-info/{objectApiName}/picklist-values/{recordTypeId}'],
    ['get', '/object-info/{objectApiName}/picklist-values/{recordTypeId}/{fieldApiName}'],
    ['get', '/layout/{objectApiName}'],
    ['get', '/layout/{objectApiName}/user-state'],
    ['patch', '/layout/{objectApiName}/user-state'],
    ['get', '/path/layout/{objectApiName}'],
    ['get', '/apps'],
    ['get', '/apps/{appId}'],
    ['get', '/nav-items'],
    ['get', '/duplicates/{objectApiName}'],
    ['post', '/predupe'],
    ['get', '/record-avatars/batch/{recordIds}'],
    ['post', '/record-avatars/{recordId}/association'],
    ['get', '/record-defaults/create/{objectApiName}'],
    ['get', '/record-defaults/template/clone/{recordId}'],
    ['get', '/record-defaults/template/create/{objectApiName}'],
  ]),

  ...rows('Actions', UI_API, [
    ['get', '/actions/global'],
    ['get', '/actions/layout/{actionApiName}'],
    ['get', '/actions/lookup/{objectApiNames}'],
    ['get', '/actions/object/{objectApiName}/record-create'],
    ['get', '/actions/overrides/{objectApiName}'],
    ['get', '/actions/formula-activation/{actionFeature}'],
    ['get', '/actions/quick-action-info/{actionApiName}'],
    ['get', '/actions/record-defaults/{actionApiName}'],
    ['get', '/actions/record/{recordIds}'],
    ['get', '/actions/record/{recordIds}/record-edit'],
    ['post', '/actions/record/{recordIds}/related-list/batch'],
    ['post', '/actions/record/{recordIds}/related-list/{relatedListId}'],
    ['get', '/actions/record/{recordIds}/related-list-record/{relatedListRecordIds}'],
    ['patch', '/actions/perform-quick-action/{actionApiName}'],
    ['post', '/actions/perform-quick-action/{actionApiName}'],
  ]),

  ...rows('Related lists', UI_API, [
    ['get', '/related-list-count/batch/{parentRecordId}/{relatedListNames}'],
    ['get', '/related-list-count/{parentRecordId}/{relatedListId}'],
    ['get', '/related-list-info/batch/{parentObjectApiName}/{relatedListNames}'],
    ['get', '/related-list-info/{parentObjectApiName}'],
    ['get', '/related-list-info/{parentObjectApiName}/{relatedListId}'],
    ['patch', '/related-list-info/{parentObjectApiName}/{relatedListId}'],
    ['get', '/related-list-preferences/batch/{preferencesIds}'],
    ['get', '/related-list-preferences/{preferencesId}'],
    ['patch', '/related-list-preferences/{preferencesId}'],
    ['post', '/related-list-records/{parentRecordId}/{relatedListId}'],
    ['post', '/related-list-records/batch/{parentRecordId}'],
  ]),

  ...rows('Search and lookups', UI_API, [
    ['get', '/search-info/{objectApiName}/filters'],
    ['get', '/search-info/{objectApiName}/filters/{filterApiName}/options'],
    ['get', '/search-info/{objectApiName}/lookup/{fieldApiName}'],
    ['post', '/search/results'],
    ['post', '/search/results/keyword'],
    ['post', '/lookups/{objectApiName}/{fieldApiName}'],
  ]),
];

export const extras: ExtraCall[] = [
  {
    method: 'get',
    path: `${UI_API}/apps/selected`,
    reason:
      "Platform reference §1.2 (Misc, apps): the caller's selected app, beside the list of apps and one app by id.",
  },
  {
    method: 'patch',
    path: `${UI_API}/apps/{appId}`,
    reason:
      "Platform reference §1.2 (Misc, apps): selects an app as the caller's last selected app, without a body, and answers the app.",
  },
  {
    method: 'get',
    path: `${UI_API}/apps/{appId}/user-nav-items`,
    reason: "Platform reference §1.2 (Misc, apps): the caller's own navigation items of an app, in the caller's order.",
  },
  {
    method: 'put',
    path: `${UI_API}/apps/{appId}/user-nav-items`,
    reason:
      "Platform reference §1.2 (Misc, apps): arranges the caller's own navigation items of an app (NavItemsInputRepresentation) and answers them.",
  },
  {
    method: 'get',
    path: `${UI_API}/actions/list-view/{listViewIds}`,
    reason:
      'Platform reference §1.2 (Actions): the actions of list views, keyed by list view id, an ActionRepresentation like the other action lists.',
  },
  {
    method: 'get',
    path: `${UI_API}/actions/mru-list/{objectApiNames}`,
    reason:
      "Platform reference §1.2 (Actions): the actions of objects' lists of recently viewed records, an ActionRepresentation like the other action lists.",
  },
  {
    method: 'get',
    path: `${UI_API}/actions/list-view-chart/{objectApiNames}`,
    reason:
      "Platform reference §1.2 (Actions): the actions of the charts of objects' list views, an ActionRepresentation like the other action lists.",
  },
  {
    method: 'get',
    path: `${UI_API}/actions/list-view-record/{recordIds}`,
    reason:
      'Platform reference §1.2 (Actions): the actions of records as rows of a list view, an ActionRepresentation like the other action lists.',
  },
  {
    method: 'get',
    path: `${UI_API}/actions/photo/{recordIds}`,
    reason:
      "Platform reference §1.2 (Actions): the actions of records' photos, an ActionRepresentation like the other action lists.",
  },
  {
    method: 'get',
    path: `${UI_API}/actions/flexipage/{flexipageNames}`,
    reason:
      'Platform reference §1.2 (Actions): the actions placed on Lightning pages, an ActionRepresentation like the other action lists.',
  },
  {
    method: 'get',
    path: `${UI_API}/lookups/{objectApiName}/{fieldApiName}`,
    reason:
      "Platform reference (lookups): the GET form of the suggestions of a lookup field, with the POST form's query parameters, which the platform's client of earlier releases calls.",
  },
  {
    method: 'get',
    path: `${UI_API}/lookups/{objectApiName}/{fieldApiName}/{targetApiName}`,
    reason:
      "Platform reference (lookups): the GET form with the target object in the path, a record collection, which the platform's own client calls.",
  },
  {
    method: 'get',
    path: `${UI_API}/list-records/{objectApiName}/{listViewApiName}`,
    reason:
      'Platform reference §5.1 (list view records): the GET form of list records, which the platform serves on the same path as the POST.',
  },
  {
    method: 'get',
    path: `${UI_API}/actions/record/{recordIds}/related-list/{relatedListId}`,
    reason:
      'Platform reference §1.2 (Actions): the GET form of related-list actions, which the platform serves on the same path as the POST.',
  },
  {
    method: 'get',
    path: `${UI_API}/related-list-records/{parentRecordId}/{relatedListId}`,
    reason:
      'Platform reference §1.2 (Related lists): the GET form of related-list records, which the platform still serves on the same path as the POST; the page URLs of an answer take it.',
  },
  {
    method: 'get',
    path: `${UI_API}/mru-list-info/{objectApiName}`,
    reason:
      'Platform reference §1.2 (MRU list info): the metadata of the most-recently-used list, beside mru-list-ui and mru-list-records.',
  },
  {
    method: 'get',
    path: `${UI_API}/record-defaults/clone/{recordId}`,
    reason:
      "Platform reference §1.2 (record defaults): the clone defaults the platform serves beside the clone template, so that the platform's clients work unchanged.",
  },
  {
    method: 'get',
    path: `${UI_API}/records/{recordId}/child-relationships/{relationshipName}`,
    reason:
      'Platform reference §1.2 (Get Child Records): the child-relationship pages of getRecord link to it for their other pages.',
  },
  {
    method: 'get',
    path: `${UI_API}/themes/active`,
    reason:
      "Platform reference §1.2 (Misc): the org's active theme (ThemeRepresentation), with each object's theme from its object info.",
  },
  ...(
    [
      ['get', '/favorites', "all of the caller's favorites, in its order."],
      ['post', '/favorites', 'a new favorite of a record, list view, object home or tab.'],
      ['put', '/favorites/batch', "all of the caller's favorites at once: their order, names, and those it keeps."],
      ['get', '/favorites/{favoriteId}', 'one favorite.'],
      ['patch', '/favorites/{favoriteId}', "a favorite's new name or place."],
      ['delete', '/favorites/{favoriteId}', 'a favorite deleted.'],
      ['patch', '/favorites/{favoriteId}/usage', "a favorite's use counted."],
    ] as const
  ).map(([method, path, why]) => ({
    method,
    path: `${UI_API}${path}`,
    reason: `Platform reference §1.2 (Misc, favorites, kept per user): ${why}`,
  })),
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getDefaultContacts`,
    reason: '§7 product server method: a concrete operation on the transport, so that its result has its own schema.',
  },
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getDependentStatePicklistsValues`,
    reason: '§7 product server method: a concrete operation on the transport, so that its result has its own schema.',
  },
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getContacts`,
    reason:
      '§7 product server method: a concrete operation on the transport, so that its arguments and result have their own schemas.',
  },
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getContact`,
    reason: 'Issue 39, reaching a representative: one representative for its own page (/reps/{recordId}).',
  },
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getNearestContacts`,
    reason: "Issue 39, reaching a representative: the locator's nearest search, by distance from a place.",
  },
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getPlaceSuggestions`,
    reason: "Issue 39, reaching a representative: the place box's city type-ahead.",
  },
  {
    method: 'get',
    path: `${APEX}/APT_ContactUsController/getInquiryForm`,
    reason: "Issue 39, reaching a representative: an inquiry form's idempotency key and signed token.",
  },
  {
    method: 'post',
    path: `${APEX}/APT_ContactUsController/submitInquiry`,
    reason: 'Issue 39, reaching a representative: an inquiry to a representative, saved as a Case.',
  },
  ...(
    [
      [
        'get',
        '/services/auth/session',
        'the session validator polls the current session (isGuest, user id, idle and absolute expiry).',
      ],
      [
        'post',
        '/services/auth/session',
        'signing in: the users and profiles of the issue need a session to be started.',
      ],
      ['delete', '/services/auth/session', 'Log Out of the session validator destroys the session on the server.'],
      [
        'post',
        '/services/auth/session/keep-alive',
        'Continue Working of the session validator moves the idle expiry on.',
      ],
      ['get', `${UI_API}/session/csrf`, "state-changing calls with a session cookie need the session's CSRF token."],
    ] as const
  ).map(([method, path, why]) => ({ method, path, reason: `Session: ${why}` })),
];
