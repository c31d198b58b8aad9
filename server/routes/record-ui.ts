/** Record UI, record defaults and templates, and record avatars. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import type { AnswerCache } from '../http/answers/answer-cache.ts';
import { implement, type ValidationHook } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { getRecordAvatars, updateRecordAvatar } from '../platform/records/avatars.ts';
import { PlatformError } from '../platform/core/errors.ts';
import {
  getRecordCloneDefaults,
  getRecordCreateDefaults,
  getRecordTemplateClone,
  getRecordTemplateCreate,
} from '../platform/record-ui/defaults.ts';
import { getRecordUi, UNSUPPORTED_RECORD_UI_PARAMETERS } from '../platform/record-ui/record-ui.ts';
import { splitFieldList } from '../platform/records/field-paths.ts';

/**
 * A body that does not fit the contract is an invalid config of the operation, in the platform's words:
 * 'Invalid config for' and the operation's name.
 */
export const invalidConfigHook =
  (operationId: string): ValidationHook =>
  (result, c) => {
    if (result.success || result.target !== 'json') return validationHook(result, c);
    const issue = result.error.issues[0];
    const path = issue?.path.join('.') || 'body';
    const expected = issue && 'expected' in issue ? issue.expected : undefined;
    const detail =
      issue?.code === 'invalid_type' && expected === 'object'
        ? `${path} must be an object`
        : `${path}: ${issue?.message ?? 'invalid'}`;
    throw new PlatformError(400, 'INVALID_INPUT', `Invalid config for ${operationId}: ${detail}`);
  };

export function recordUiRoutes(db: Database, kept: AnswerCache) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getRecordUi, async (c) => {
    // The platform's getRecordUi takes these; this product does not, and says so rather than ignore them.
    const unsupported = UNSUPPORTED_RECORD_UI_PARAMETERS.find((name) => c.req.query(name) !== undefined);
    if (unsupported)
      throw new PlatformError(
        400,
        'ILLEGAL_QUERY_PARAMETER_VALUE',
        `The query parameter '${unsupported}' is not supported by getRecordUi`,
      );
    const { layoutTypes, modes, optionalFields } = c.req.valid('query');
    const recordUi = await kept.representRecords(c, 'getRecordUi', (reads) =>
      getRecordUi(db, c.var.principal, c.req.valid('param').recordIds, {
        layoutTypes,
        modes,
        optionalFields: splitFieldList(optionalFields),
        reads,
      }),
    );
    return withETag(c, recordUi);
  });

  implement(app, routes.getRecordCreateDefaults, async (c) => {
    const { optionalFields, recordTypeId, formFactor } = c.req.valid('query');
    const defaults = await getRecordCreateDefaults(db, c.var.principal, c.req.valid('param').objectApiName, {
      optionalFields: splitFieldList(optionalFields),
      recordTypeId,
      formFactor,
    });
    return c.json(defaults, 200);
  });

  implement(app, routes.getRecordCloneDefaults, async (c) => {
    const { optionalFields, recordTypeId, formFactor } = c.req.valid('query');
    const defaults = await getRecordCloneDefaults(db, c.var.principal, c.req.valid('param').recordId, {
      optionalFields: splitFieldList(optionalFields),
      recordTypeId,
      formFactor,
    });
    return c.json(defaults, 200);
  });

  implement(app, routes.getRecordTemplateCreate, async (c) => {
    const { optionalFields, recordTypeId } = c.req.valid('query');
    const template = await getRecordTemplateCreate(db, c.var.principal, c.req.valid('param').objectApiName, {
      optionalFields: splitFieldList(optionalFields),
      recordTypeId,
    });
    return c.json(template, 200);
  });

  implement(app, routes.getRecordTemplateClone, async (c) => {
    const { optionalFields, recordTypeId } = c.req.valid('query');
    const template = await getRecordTemplateClone(db, c.var.principal, c.req.valid('param').recordId, {
      optionalFields: splitFieldList(optionalFields),
      recordTypeId,
    });
    return c.json(template, 200);
  });

  implement(app, routes.getRecordAvatars, async (c) =>
    c.json(await getRecordAvatars(db, c.var.principal, c.req.valid('param').recordIds), 200),
  );

  implement(
    app,
    routes.updateRecordAvatar,
    async (c) =>
      c.json(await updateRecordAvatar(db, c.var.principal, c.req.valid('param').recordId, c.req.valid('json')), 200),
    { hook: invalidConfigHook('updateRecordAvatar') },
  );

  return app;
}
