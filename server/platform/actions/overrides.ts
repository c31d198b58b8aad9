/**
 * An object's action overrides (where a standard action leads when overridden) and the formulas that activate
 * actions (docs/product-spec.md §7 Actions).
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { loadActions, OVERRIDABLE_ACTIONS } from './definitions.ts';
import { readableObjectOf } from './lists.ts';

/** GET /actions/overrides/{objectApiName}: where a standard action leads when overridden (url null when it is not). */
export async function getActionOverrides(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: { type?: string; defaultTemplateOnly?: boolean },
): Promise<Schemas['ActionOverrideRepresentation']> {
  const org = await describeOrg(db);
  const object = readableObjectOf(org, principal, objectApiName);
  const type = OVERRIDABLE_ACTIONS.find((name) => name.toLowerCase() === (query.type ?? 'View').toLowerCase());
  if (!type) {
    throw new PlatformError(
      400,
      'ILLEGAL_QUERY_PARAMETER_VALUE',
      `Illegal value for query parameter 'type': ${query.type}; expected one of ${OVERRIDABLE_ACTIONS.join(', ')}`,
    );
  }
  const overrides = loadActions().objects.get(object.apiName)?.overrides ?? {};
  const url = query.defaultTemplateOnly ? null : (overrides[type] ?? null);
  return { eTag: etagOf({ object: object.apiName, type, url }), url };
}

/** GET /actions/formula-activation/{actionFeature}: per readable object, the formulas of the feature. An unknown feature: 404. */
export async function getFormulaActivation(
  db: Queryable,
  principal: Principal,
  actionFeature: string,
  query: { objectApiNames?: string[] },
): Promise<Schemas['FormulaActivationRepresentation']> {
  const org = await describeOrg(db);
  const files = [...loadActions().objects.values()];
  const feature = files
    .flatMap((file) => Object.keys(file.formulaActivation ?? {}))
    .find((name) => name.toLowerCase() === actionFeature.toLowerCase());
  if (!feature) throw notFound();
  const wanted = query.objectApiNames?.map((name) => name.toLowerCase());
  const formulaActivation: Record<string, Record<string, string>> = {};
  for (const file of files) {
    const formulas = file.formulaActivation?.[feature];
    const object = org.objects.get(file.objectApiName);
    if (!formulas || !object || !objectPermissions(principal, object.apiName).read) continue;
    if (wanted && !wanted.includes(object.apiName.toLowerCase())) continue;
    formulaActivation[object.apiName] = { ...formulas };
  }
  return { actionFeature: feature, eTag: etagOf({ feature, formulaActivation }), formulaActivation };
}
