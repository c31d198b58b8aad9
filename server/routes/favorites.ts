/** Favorites: the caller's own favorites, one at a time, all at once (batch), and their use. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import {
  createFavorite,
  deleteFavorite,
  getFavorite,
  getFavorites,
  updateFavorite,
  updateFavoritesBatch,
  updateFavoriteUsage,
} from '../platform/favorites.ts';

export function favoriteRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const now = () => new Date(options.clock?.now() ?? Date.now());

  implement(app, routes.getFavorites, async (c) => c.json(await getFavorites(db, c.var.principal), 200));

  implement(app, routes.createFavorite, async (c) =>
    c.json(await createFavorite(db, c.var.principal, c.req.valid('json'), now()), 201),
  );

  // Before /favorites/{favoriteId}, whose id pattern `batch` would fail (PUT is the batch's method only).
  implement(app, routes.updateFavoritesBatch, async (c) =>
    c.json(await updateFavoritesBatch(db, c.var.principal, c.req.valid('json')), 200),
  );

  implement(app, routes.getFavorite, async (c) =>
    c.json(await getFavorite(db, c.var.principal, c.req.valid('param').favoriteId), 200),
  );

  implement(app, routes.updateFavorite, async (c) =>
    c.json(await updateFavorite(db, c.var.principal, c.req.valid('param').favoriteId, c.req.valid('json')), 200),
  );

  implement(app, routes.deleteFavorite, async (c) => {
    await deleteFavorite(db, c.var.principal, c.req.valid('param').favoriteId);
    return c.body(null, 204);
  });

  implement(app, routes.updateFavoriteUsage, async (c) =>
    c.json(await updateFavoriteUsage(db, c.var.principal, c.req.valid('param').favoriteId, now()), 200),
  );

  return app;
}
