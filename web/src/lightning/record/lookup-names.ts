/**
 * The names of the records a record page's lookups point to (its owner, who created it): the record UI gives a
 * lookup's id only, so the page asks getRecord for the related records' name fields, as optional fields (one the
 * user may not read is left out, not refused). Until they come, or without them, the page shows the ids.
 */
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../client/index';
import { getRecordQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { displayText, fieldAt } from '../fields';
import { lookupNamePaths } from './layout';

type Layout = components['schemas']['RecordLayoutRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

/**
 * The related records' names by lookup field (OwnerId → Store Administrator), as far as they are known, for the
 * lookups of the layout and of a second one shown on the same page (the compact layout of the highlights).
 */
export function useLookupNames(
  recordId: string,
  layout: Layout | undefined,
  objectInfo: ObjectInfo | undefined,
  otherLayout?: Layout,
): Map<string, string> {
  const api = useApiClient();
  const paths = new Map<string, string>();
  for (const one of [layout, otherLayout])
    if (one) for (const entry of lookupNamePaths(one, objectInfo)) paths.set(...entry);
  const optionalFields = [...new Set(paths.values())].sort().join(',');
  const related = useQuery({
    ...getRecordQuery(api, { path: { recordId }, query: { optionalFields } }),
    enabled: optionalFields !== '',
  });
  const names = new Map<string, string>();
  if (!related.data) return names;
  for (const [lookupField, path] of paths) {
    // The path without the object's name: Owner.Name.
    const name = displayText(fieldAt(related.data, path.slice(path.indexOf('.') + 1)));
    if (name) names.set(lookupField, name);
  }
  return names;
}
