/**
 * Type-level tests of implement(): `npm run typecheck` compiles this file, and fails where a handler that
 * answers what the contract does not declare compiles, or a `@ts-expect-error` below stops being an error.
 * Nothing here runs.
 */
import type { AppEnv } from '../../server/http/sessions/principal.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import { routes } from '../../generated/routes.ts';
import type { Schemas } from '../../generated/types.ts';
import { implement } from '../../server/http/operations/operation.ts';

declare const record: Schemas['RecordRepresentation'];
declare const session: Schemas['SessionRepresentation'];
const app = new OpenAPIHono<AppEnv>();

// getRecord declares 200 with a RecordRepresentation, a 304 without a body, and error lists.
implement(app, routes.getRecord, (c) => c.json(record, 200));
implement(app, routes.getRecord, (c) => c.json([{ errorCode: 'NOT_FOUND', message: 'gone' }], 404));
implement(app, routes.getRecord, (c) => c.body(null, 304));
// @ts-expect-error a body the contract does not declare for 200
implement(app, routes.getRecord, (c) => c.json({ bogus: 1 }, 200));
// @ts-expect-error a status the contract does not declare
implement(app, routes.getRecord, (c) => c.json(record, 201));
// @ts-expect-error another operation's body
implement(app, routes.getRecord, (c) => c.json(session, 200));
// @ts-expect-error a Response the compiler cannot check
implement(app, routes.getRecord, () => new Response('{}'));
// @ts-expect-error no body where the contract declares one
implement(app, routes.getRecord, (c) => c.body(null, 200));

// deleteRecord declares 204 without a body.
implement(app, routes.deleteRecord, (c) => c.body(null, 204));
// @ts-expect-error a body on an operation that answers 204
implement(app, routes.deleteRecord, (c) => c.json({ deleted: true }, 200));
