/**
 * Operations of the contract that no area implements yet answer 501 NOT_IMPLEMENTED in the record API's
 * error shape, so that the server serves the whole contract and says honestly what it does not do.
 */
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { routes } from '../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { requireUser, requiresUser } from '../http/operation.ts';

export function notImplementedRoutes(implemented: ReadonlySet<string>) {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  for (const route of Object.values(routes) as RouteConfig[]) {
    if (implemented.has(route.operationId!)) continue;
    // A guest learns that it must sign in before it learns that the operation is missing.
    const guarded = requiresUser(route) ? { ...route, middleware: [requireUser] } : route;
    app.openapi(guarded, (c) =>
      c.json([{ errorCode: 'NOT_IMPLEMENTED', message: `This operation is not implemented yet: ${route.operationId}` }], 501 as never),
    );
  }
  return app;
}

/** The operationIds an app serves, from its OpenAPI registry. */
export function operationIdsOf(app: OpenAPIHono): Set<string> {
  const ids = new Set<string>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type === 'route' && definition.route.operationId) ids.add(definition.route.operationId);
  }
  return ids;
}
