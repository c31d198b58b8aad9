/** The whole site: the API (server/) with the pages the web app renders on the server (web/ssr/). */
import type { AppOptions } from '../server/app-options.ts';
import { createApp } from '../server/app.ts';
import type { Database } from '../server/db/connection.ts';
import { pageHandler } from '../web/ssr/index.ts';

export function createSite(db: Database, options: AppOptions = {}) {
  return createApp(db, { pages: pageHandler, ...options });
}
