/**
 * Operations of the contract that no area implements yet answer 501 NOT_IMPLEMENTED in the record API's
 * error shape, so that the server serves the whole contract and says honestly what it does not do.
 */
import type { AppEnv } from '../http/sessions/principal.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { honoPath, middlewareOf } from '../http/operations/operation.ts';

export function notImplementedRoutes(implemented: ReadonlySet<string>) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  for (const operationId of Object.keys(operationTable) as OperationId[]) {
    if (implemented.has(operationId)) continue;
    const { method, path } = operationTable[operationId];
    // Listed in the app's OpenAPI document like every operation; the contract declares 501 on exactly the
    // operations not implemented (tests/unit/declared-statuses.test.ts holds it to that).
    app.openAPIRegistry.registerPath(routes[operationId]);
    // A guest learns that it must sign in before it learns that the operation is missing.
    app.on([method.toUpperCase()], [honoPath(path)], ...middlewareOf(operationId, true), (c) =>
      c.json([{ errorCode: 'NOT_IMPLEMENTED', message: `This operation is not implemented yet: ${operationId}` }], 501),
    );
  }
  return app;
}

/** The operationIds an app serves, from its OpenAPI registry. */
export function operationIdsOf(app: OpenAPIHono<AppEnv>): Set<string> {
  const ids = new Set<string>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type === 'route' && definition.route.operationId) ids.add(definition.route.operationId);
  }
  return ids;
}
