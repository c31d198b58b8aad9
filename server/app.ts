/** Builds the application: the API areas, the contract and its docs, and the web app. */
import type { AppEnv } from './http/sessions/principal.ts';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { H, RouterRoute } from 'hono/types';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import type { AppOptions } from './app-options.ts';
import type { Database } from './db/connection.ts';
import { errorHandler, isPageVisit, notFoundHandler, validationHook } from './http/errors.ts';
import { EventLoopWatch } from './http/entry/event-loop-watch.ts';
import { gateOf, type Dispatch } from './http/entry/gate.ts';
import { inProcess, METHODS_WITH_BODY, requestLimits, trustProxyOf } from './http/limits/limits.ts';
import { docsHeaders } from './http/answers/security-headers.ts';
import { AnswerCache } from './http/answers/answer-cache.ts';
import { RememberingRouter } from './http/entry/remembering-router.ts';
import { replayStage } from './http/entry/replay.ts';
import { apiVersionStage } from './http/entry/api-version.ts';
import { Sessions } from './http/sessions/session.ts';
import { appRoutes } from './routes/apps.ts';
import { favoriteRoutes } from './routes/favorites.ts';
import { actionRoutes } from './routes/actions.ts';
import { contentRoutes } from './routes/content.ts';
import { duplicateRoutes } from './routes/duplicates.ts';
import { metadataRoutes } from './routes/metadata.ts';
import { recordRoutes } from './routes/records.ts';
import { fileRoutes } from './routes/files.ts';
import { listRoutes } from './routes/lists.ts';
import { recordUiRoutes } from './routes/record-ui.ts';
import { relatedListRoutes } from './routes/related-lists.ts';
import { notImplementedRoutes, operationIdsOf } from './routes/not-implemented.ts';
import { searchRoutes } from './routes/search.ts';
import { seoRoutes } from './routes/seo.ts';
import { sessionRoutes } from './routes/session.ts';
import { themeRoutes } from './routes/themes.ts';
import { BACK_OFFICE_PATH, INQUIRY_ROUTE, REPRESENTATIVE_PREFIX } from '../common/pages.ts';
import { siteFileRoutes } from './routes/site-files.ts';
import { listExportRoutes } from './routes/list-export.ts';
import { recordImportRoutes } from './routes/record-import.ts';
import { SIGN_IN_PATH } from '../common/sign-in.ts';
import { locatorReplay, storefrontRoutes } from './routes/storefront.ts';
import { locatorResultCache, publicPageChanges } from './cache/result-cache.ts';

const root = resolve(import.meta.dirname, '..');
const CONTRACT = resolve(root, 'generated/openapi.json');
const DOCS = resolve(root, 'dist/docs/index.html');
/** The docs page's addresses (scripts/docs.ts). */
const DOCS_ADDRESSES = resolve(root, 'dist/docs/addresses.json');
const WEB = resolve(root, 'dist/web');
const REDOC = resolve(root, 'dist/docs/redoc.standalone.js');

export function createApp(db: Database, options: AppOptions = {}) {
  // Hono's own choice of router, which remembers its matches.
  const router = new RememberingRouter<[H, RouterRoute]>(
    new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] }),
  );
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, router });
  const locatorCache = locatorResultCache(db);
  // The security headers, and the caller (Principal) of every request from its session cookie with the CSRF
  // and Origin checks, come before routing: see the gate below.
  const sessions = new Sessions(db, options);
  // On PostgreSQL the rate limits are counted in the database, shared by every server process on it.
  const limits = requestLimits(options, db);
  // The limits where they apply: on every path for every request that may carry a body, and on the reads the
  // public limit counts. A read of any other route has nothing to check, so it passes no middleware for them
  // (a route without middleware of its own is then called directly by the router).
  app.on(METHODS_WITH_BODY, '*', limits);
  if (limits.limitedReads.length) app.on('GET', [...limits.limitedReads], limits);
  const docsSecurityPolicy = docsHeaders(DOCS);
  app.use('/docs', docsSecurityPolicy);
  app.use('/docs/*', docsSecurityPolicy);
  const answerCache = new AnswerCache(db, sessions, options.answerCache);
  app.route('/', sessionRoutes(db, sessions));
  app.route('/', storefrontRoutes(db, locatorCache, options.clock));
  app.route('/', metadataRoutes(db, answerCache));
  app.route('/', duplicateRoutes(db));
  app.route('/', appRoutes(db));
  app.route('/', themeRoutes(db));
  app.route('/', favoriteRoutes(db, options));
  app.route('/', contentRoutes(db));
  app.route('/', seoRoutes(db));
  app.route('/', recordRoutes(db, answerCache, options));
  app.route('/', recordUiRoutes(db, answerCache));
  app.route('/', fileRoutes(db, options));
  app.route('/', listRoutes(db, options));
  app.route('/', actionRoutes(db, options));
  app.route('/', relatedListRoutes(db, options));
  app.route('/', searchRoutes(db, options));
  app.route('/', siteFileRoutes(db, { sitemapMaxUrls: options.sitemapMaxUrls }));
  // Before the back office's pages, whose addresses they share.
  app.route('/', listExportRoutes(db, options));
  app.route('/', recordImportRoutes(db, options));
  // Last: whatever the areas above do not implement answers 501.
  const implementedOperations = operationIdsOf(app);
  app.route('/', notImplementedRoutes(implementedOperations));

  const contract = readFileSync(CONTRACT, 'utf8');
  app.get('/openapi.json', (c) => c.body(contract, 200, { 'Content-Type': 'application/json; charset=UTF-8' }));
  const docsPage = (c: Context) =>
    existsSync(DOCS) ? c.html(readFileSync(DOCS, 'utf8')) : c.text('The docs are not built: run npm run docs.', 404);
  // A browser going to an address the site does not have: the page not found, in the site's frame, status 404.
  const notFound = (c: Context) => (page && isPageVisit(c) ? page(c) : notFoundHandler(c));
  app.get('/docs', docsPage);
  app.get(
    '/docs/redoc.standalone.js',
    serveStatic({ path: REDOC, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=86400') }),
  );
  // Redoc's own addresses (/docs/storefront, /docs/storefront/getdefaultcontacts ...): the same page, which
  // shows the part the address names; any other address under /docs is not found.
  app.get('/docs/*', (c) => {
    const addresses = existsSync(DOCS_ADDRESSES)
      ? (JSON.parse(readFileSync(DOCS_ADDRESSES, 'utf8')) as string[])
      : undefined;
    return !addresses || addresses.includes(c.req.path) ? docsPage(c) : notFound(c);
  });

  // The web app's hashed assets may be kept for a year; its HTML must be revalidated.
  app.use(
    '/assets/*',
    serveStatic({
      root: WEB,
      precompressed: true,
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  for (const icon of ['favicon.svg', 'favicon.ico'])
    app.get(
      `/${icon}`,
      serveStatic({
        path: resolve(WEB, icon),
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=86400'),
      }),
    );
  // The page, rendered on the server with its data; its API calls go to the app itself, not the network,
  // and without the visitor's connection (env), so that each call's headers are its own, not the browser's.
  // Each page answer is gzipped by the page handler itself (a guest's page once, for every guest).
  const page = options.pages?.({
    webRoot: WEB,
    fetchApi: (request) => app.fetch(inProcess(request)),
    changes: publicPageChanges(db),
  });
  if (page) {
    app.get('/', page);
    app.get(SIGN_IN_PATH, page);
    // A representative's page; an address that is not one (a malformed Id) is the page not found.
    app.get(`${REPRESENTATIVE_PREFIX}:recordId`, page);
    // A representative's inquiry form, and its post without JavaScript (web/ssr/index.ts).
    app.get(INQUIRY_ROUTE, page);
    app.post(INQUIRY_ROUTE, page);
    // The back office, for signed-in users (web/ssr/back-office.ts): one document for every address under it.
    app.get(BACK_OFFICE_PATH, page);
    app.get(`${BACK_OFFICE_PATH}/*`, page);
  }

  app.notFound(notFound);
  app.onError(errorHandler);
  // One way in: a GET a cache can answer is replayed before routing (the locator's answers for guests, a
  // signed-in user's metadata and record answers); every other request passes the gate, then the router. Every
  // request is watched for stalls of the event loop while it is under way.
  const replay = replayStage([locatorReplay(locatorCache), answerCache], limits);
  const gate = gateOf(options, sessions, app.fetch as Dispatch);
  const watch = new EventLoopWatch(options.eventLoop);
  // Older API versions are handed on as the current one, and their answers said at the version asked.
  const versions = apiVersionStage(
    (request, env, executionCtx) => replay(request, env) ?? gate(request, env, executionCtx),
    trustProxyOf(options),
  );
  app.fetch = watch.wrap(versions);
  /**
   * The operationIds the areas implement (every other operation of the contract answers 501); the locator's
   * result cache; the metadata replayed before routing; the cache of guests' pages, when the pages keep one.
   */
  return Object.assign(app, {
    implementedOperations: implementedOperations as ReadonlySet<string>,
    locatorCache,
    answerCache,
    pageCache: page?.cache,
  });
}
