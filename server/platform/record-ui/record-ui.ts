/**
 * Record UI (GET /record-ui/{recordIds}): everything a page needs to draw some records in one answer — the
 * records with their layouts' fields, those layouts by object, record type, layout type and mode, the
 * caller's layout states, and the object info of every object involved.
 */
import { frozenUnderTest } from '../../cache/frozen.ts';
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { CACHES_ON } from '../../cache/switch.ts';
import { layoutStateKey } from '../../cache/record-changes.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { invalidId, notFound, PlatformError } from '../core/errors.ts';
import { etagOf, etagsOfTree, jsonOfTree, withEtagFirst } from '../core/etag.ts';
import { toId18 } from '../core/ids.ts';
import { getLayout, LAYOUT_MODES, LAYOUT_TYPES, type LayoutMode, type LayoutType } from '../layouts/layouts.ts';
import { getLayoutUserState } from '../layouts/user-state.ts';
import { objectInfoOf } from '../object-info/object-info.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { readRecords, type ErrorItem } from '../records/read.ts';
import type { RecordRepresentation } from '../records/representation.ts';

/** The most records one call may name (the contract's pattern allows the same). */
const MAX_RECORD_UI_IDS = 200;

/** Query parameters the platform's getRecordUi takes and this product does not (docs/product-spec.md §5). */
export const UNSUPPORTED_RECORD_UI_PARAMETERS = ['formFactor', 'childRelationships', 'pageSize', 'updateMru'] as const;

interface RecordUiQuery {
  layoutTypes: string;
  modes: string;
  optionalFields?: string[];
  /** Filled with the ids of the records read, and the caller's layoutStateKey. */
  reads?: Set<string>;
}

const illegalValue = (parameter: string, value: string) =>
  new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', `Illegal value for query parameter '${parameter}': ${value}`);

/** Splits a comma-separated list of names, each one of the allowed ones; duplicates are dropped, order kept. */
export function parseNameList<T extends string>(parameter: string, text: string, allowed: readonly T[]): T[] {
  const names = text.split(',').map((name) => name.trim());
  if (names.length === 0 || names.some((name) => !(allowed as readonly string[]).includes(name)))
    throw illegalValue(parameter, text);
  return [...new Set(names as T[])];
}

/** The 18-character ids of a comma-separated list of 15- or 18-character ids, duplicates dropped, order kept. */
export function parseRecordIds(text: string, max = MAX_RECORD_UI_IDS): string[] {
  const ids: string[] = [];
  for (const raw of text.split(',')) {
    const id = toId18(raw.trim());
    if (!id) throw invalidId('recordIds', raw);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0 || ids.length > max)
    throw illegalValue('recordIds', `between 1 and ${max} ids are allowed, not ${ids.length}`);
  return ids;
}

/** The record's object and the objects its reference fields point to, as far as the caller may read them. */
export function objectsInvolved(
  org: OrgDescribe,
  principal: Principal,
  roots: Iterable<DescribedObject>,
  fieldNames: (object: DescribedObject) => Iterable<string>,
): DescribedObject[] {
  const found = new Map<string, DescribedObject>();
  for (const object of roots) {
    found.set(object.apiName, object);
  }
  for (const object of [...found.values()]) {
    for (const name of fieldNames(object)) {
      for (const target of object.fieldsByName.get(name)?.referenceTo ?? []) {
        const related = org.objects.get(target);
        if (related && !found.has(related.apiName) && objectPermissions(principal, related.apiName).read)
          found.set(related.apiName, related);
      }
    }
  }
  return [...found.values()].sort((a, b) => a.apiName.localeCompare(b.apiName, 'en'));
}

/** The object infos of some objects, by API name, as the caller sees them. */
export function objectInfosOf(org: OrgDescribe, principal: Principal, objects: DescribedObject[]) {
  return Object.fromEntries(objects.map((object) => [object.apiName, objectInfoOf(object, org, principal)]));
}

export async function getRecordUi(
  db: Queryable,
  principal: Principal,
  recordIds: string,
  query: RecordUiQuery,
): Promise<Schemas['RecordUiRepresentation']> {
  const ids = parseRecordIds(recordIds);
  const layoutTypes = parseNameList<LayoutType>('layoutTypes', query.layoutTypes, LAYOUT_TYPES);
  const modes = parseNameList<LayoutMode>('modes', query.modes, LAYOUT_MODES);
  const org = await describeOrg(db);
  const results = await readRecords(db, principal, ids, {
    layoutTypes,
    modes,
    optionalFields: query.optionalFields ?? [],
    reads: query.reads,
  });
  query.reads?.add(layoutStateKey(principal.userId));
  const records: Record<string, RecordRepresentation> = {};
  for (const result of results) {
    if (result.statusCode !== 200) {
      // One record that cannot be shown fails the whole call, with that record's error.
      const [error] = result.result as ErrorItem[];
      if (result.statusCode === 404) throw notFound();
      throw new PlatformError(result.statusCode as PlatformError['status'], error.errorCode, error.message);
    }
    const record = result.result as RecordRepresentation;
    records[record.id] = record;
  }

  const layouts: Schemas['RecordUiRepresentation']['layouts'] = {};
  const layoutUserStates: Schemas['RecordUiRepresentation']['layoutUserStates'] = {};
  const seen = new Set<string>();
  for (const record of Object.values(records)) {
    const recordTypeId = record.recordTypeId ?? undefined;
    const key = `${record.apiName}/${recordTypeId ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const layoutType of layoutTypes) {
      for (const mode of modes) {
        const layout = await getLayout(db, principal, record.apiName, { layoutType, mode, recordTypeId });
        const byType = ((layouts[record.apiName] ??= {})[layout.recordTypeId] ??= {});
        (byType[layoutType] ??= {})[mode] = layout;
        if (layout.id && !(layout.id in layoutUserStates)) {
          layoutUserStates[layout.id] = await getLayoutUserState(db, principal, record.apiName, {
            layoutType,
            mode,
            recordTypeId,
          });
        }
      }
    }
  }

  const roots = Object.values(records).map((record) => org.objects.get(record.apiName)!);
  const fieldsOf = (object: DescribedObject) =>
    Object.values(records)
      .filter((record) => record.apiName === object.apiName)
      .flatMap((record) => Object.keys(record.fields));
  const objectInfos = objectInfosOf(org, principal, objectsInvolved(org, principal, roots, fieldsOf));
  // Its eTag hashes the parts' own eTags (each the hash of all of that part) and the layout user states, not
  // the tens of kilobytes of text: it changes exactly when the text does.
  const eTag = etagOf({
    layoutUserStates,
    layouts: etagsOfTree(layouts, 4),
    objectInfos: etagsOfTree(objectInfos, 1),
    records: etagsOfTree(records, 1),
  });
  const known = CACHES_ON ? recentRecordUis.get(eTag) : undefined;
  if (known) {
    recentRecordUis.delete(eTag);
    recentRecordUis.set(eTag, known);
    return known;
  }
  // The layouts and object infos are kept in memory, each serialized once: only the rest is serialized here.
  const text =
    `{"layoutUserStates":${JSON.stringify(layoutUserStates)},"layouts":${jsonOfTree(layouts, 4)},` +
    `"objectInfos":${jsonOfTree(objectInfos, 1)},"records":${JSON.stringify(records)}}`;
  const ui = withEtagFirst({ layoutUserStates, layouts, objectInfos, records }, text, eTag);
  if (CACHES_ON) recentRecordUis.set(eTag, frozenUnderTest(ui));
  if (recentRecordUis.size > MAX_RECENT_RECORD_UIS) recentRecordUis.delete(recentRecordUis.keys().next().value!);
  return ui;
}

/**
 * Record UIs answered lately, by eTag, the least recently answered first. One answered again with the same eTag
 * (the same records, layouts, states and object infos) is the same representation: it is answered as it was,
 * its JSON made once and, kept, its Brotli too (withETag), rather than tens of kilobytes made and sent afresh.
 */
const recentRecordUis = new Map<string, Schemas['RecordUiRepresentation']>();
const MAX_RECENT_RECORD_UIS = 128;
