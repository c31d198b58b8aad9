/** Apps and navigation items (Metadata tag): the apps the caller may use, its selected app, one app (to open or select), the caller's own navigation items of an app, and pages of navigation items. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import {
  getApps,
  getNavItems,
  getSelectedApp,
  getUserNavItems,
  selectApp,
  updateUserNavItems,
} from '../platform/apps/apps.ts';

export function appRoutes(db: Database) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getApps, async (c) => withETag(c, await getApps(db, c.var.principal, c.req.valid('query'))));

  // Before /apps/{appId}, whose id pattern `selected` would fail.
  implement(app, routes.getSelectedApp, async (c) =>
    c.json(await getSelectedApp(db, c.var.principal, c.req.valid('query')), 200),
  );

  // Opening an app selects it, as PATCH does.
  implement(app, routes.getAppDetails, async (c) =>
    withETag(c, await selectApp(db, c.var.principal, c.req.valid('param').appId, c.req.valid('query'))),
  );

  implement(app, routes.selectApp, async (c) =>
    c.json(await selectApp(db, c.var.principal, c.req.valid('param').appId, c.req.valid('query')), 200),
  );

  implement(app, routes.getUserNavItems, async (c) =>
    withETag(c, await getUserNavItems(db, c.var.principal, c.req.valid('param').appId, c.req.valid('query'))),
  );

  implement(app, routes.updateUserNavItems, async (c) =>
    c.json(
      await updateUserNavItems(
        db,
        c.var.principal,
        c.req.valid('param').appId,
        c.req.valid('json'),
        c.req.valid('query'),
      ),
      200,
    ),
  );

  implement(app, routes.getNavItems, async (c) =>
    withETag(c, await getNavItems(db, c.var.principal, c.req.valid('query'))),
  );

  return app;
}
