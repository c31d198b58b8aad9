/**
 * Record avatars: the picture associated with a record (a company logo, a photo), or, for a record without
 * one, its object's theme (colour and icon). Reads come in batches with a status per record; the association
 * call sets or removes a record's picture.
 */
import type { Database, Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';
import { notFound, NOT_FOUND_MESSAGE, PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import { canEditRecord, canSeeRecord } from './access.ts';
import { fetchRows } from './rows.ts';

const MAX_AVATAR_IDS = 200;
const AVATAR_ACTIONS = ['AssociateAvatar', 'DisassociateAvatar', 'RemoveLogo', 'ReportLogo'] as const;
type AvatarAction = (typeof AVATAR_ACTIONS)[number];

export interface AvatarRow {
  record_id: string;
  photo_url: string;
  provider: string | null;
  blue_master_id: string | null;
  external_id: string | null;
}

interface AvatarAssociationInput {
  actionType: string;
  blueMasterId?: string;
  externalId?: string;
  photoUrl?: string;
  profileName?: string;
}

type RecordAvatar =
  | {
      type: 'Photo';
      recordId: string;
      photoUrl: string;
      provider: string | null;
      backgroundColor: string | null;
      height: number | null;
      width: number | null;
      photoMetadata: { companyBluemasterId: string | null; responseId: string | null };
      eTag: string;
    }
  | { type: 'Theme'; recordId: string; backgroundColor: string | null; iconUrl: string | null; eTag: string };

type AvatarBatchResult =
  | { statusCode: 200; result: RecordAvatar }
  | { statusCode: 400 | 404; result: { errorCode: string; message: string }[] };

const withEtag = <T extends object>(body: T) => ({ ...body, eTag: etagOf(body) });

/** The avatar of a record: its associated picture if it has one, else its object's theme. */
export function avatarOf(
  recordId: string,
  object: Pick<DescribedObject, 'definition'>,
  association: AvatarRow | undefined,
): RecordAvatar {
  if (association) {
    return withEtag({
      backgroundColor: null,
      height: null,
      photoMetadata: { companyBluemasterId: association.blue_master_id, responseId: null },
      photoUrl: association.photo_url,
      provider: association.provider,
      recordId,
      type: 'Photo' as const,
      width: null,
    });
  }
  const theme = (object.definition as { themeInfo?: { color?: string | null; iconUrl?: string | null } | null })
    .themeInfo;
  return withEtag({
    backgroundColor: theme?.color ?? null,
    iconUrl: theme?.iconUrl ?? null,
    recordId,
    type: 'Theme' as const,
  });
}

const invalidConfig = (detail: string) =>
  new PlatformError(400, 'INVALID_INPUT', `Invalid config for updateRecordAvatar: ${detail}`);

/** Checks an association input: a known action, and for AssociateAvatar an https photoUrl. Pure. */
export function checkAssociationInput(input: AvatarAssociationInput): { action: AvatarAction; photoUrl?: URL } {
  if (!(AVATAR_ACTIONS as readonly string[]).includes(input.actionType))
    throw invalidConfig(`actionType must be one of ${AVATAR_ACTIONS.join(', ')}`);
  const action = input.actionType as AvatarAction;
  if (action !== 'AssociateAvatar') return { action };
  if (!input.photoUrl) throw invalidConfig('photoUrl is required to associate an avatar');
  let url: URL;
  try {
    url = new URL(input.photoUrl);
  } catch {
    throw invalidConfig(`photoUrl is not a URL: ${input.photoUrl}`);
  }
  if (url.protocol !== 'https:') throw invalidConfig('photoUrl must be an https URL');
  return { action, photoUrl: url };
}

/** The pictures associated with the records named, by record id (a record without one has no entry). */
export async function associations(q: Queryable, ids: string[]): Promise<Map<string, AvatarRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await q.query<AvatarRow>(
    'SELECT record_id, photo_url, provider, blue_master_id, external_id FROM record_avatar WHERE record_id = ANY($1::text[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.record_id, row]));
}

/** GET /record-avatars/batch/{recordIds}: one result per id, in order; bad ids 400, unseen records 404. */
export async function getRecordAvatars(db: Queryable, principal: Principal, recordIds: string) {
  const raw = recordIds.split(',');
  if (raw.length > MAX_AVATAR_IDS)
    throw new PlatformError(
      400,
      'ILLEGAL_QUERY_PARAMETER_VALUE',
      `Illegal value for parameter 'recordIds': at most ${MAX_AVATAR_IDS} ids`,
    );
  const ids = raw.map((id) => toId18(id.trim()));
  const valid = ids.filter((id): id is string => id !== null);
  const org = await describeOrg(db);
  const rows = await fetchRows(db, valid);
  const pictures = await associations(db, valid);
  const results: AvatarBatchResult[] = ids.map((id, index) => {
    if (!id)
      return {
        statusCode: 400,
        result: [{ errorCode: 'INVALID_ID_FIELD', message: `Record ID ${raw[index]} is not a valid record ID.` }],
      };
    const row = rows.get(id);
    const object = row ? org.objects.get(row.object_api_name) : undefined;
    if (!row || !object || !canSeeRecord(principal, object, row))
      return { statusCode: 404, result: [{ errorCode: 'NOT_FOUND', message: NOT_FOUND_MESSAGE }] };
    return { statusCode: 200, result: avatarOf(id, object, pictures.get(id)) };
  });
  return { hasErrors: results.some((result) => result.statusCode !== 200), results };
}

/**
 * POST /record-avatars/{recordId}/association: AssociateAvatar sets the record's picture; the other actions
 * remove it (the record falls back to its theme). Needs the right to edit the record.
 */
export async function updateRecordAvatar(
  db: Database,
  principal: Principal,
  recordId: string,
  input: AvatarAssociationInput,
): Promise<RecordAvatar> {
  const id = toId18(recordId);
  if (!id) throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${recordId} is not a valid record ID.`);
  const { action, photoUrl } = checkAssociationInput(input);
  const org = await describeOrg(db);
  const row = (await fetchRows(db, [id])).get(id);
  const object = row ? org.objects.get(row.object_api_name) : undefined;
  if (!row || !object || !canSeeRecord(principal, object, row)) throw notFound();
  if (!canEditRecord(principal, object, row))
    throw new PlatformError(
      403,
      'INSUFFICIENT_ACCESS_OR_READONLY',
      "You don't have permission to change this record's picture.",
    );
  if (action === 'AssociateAvatar' && photoUrl) {
    // A logo from a data provider (it names the company) is credited to the provider's host.
    const provider = input.blueMasterId || input.externalId ? photoUrl.host : null;
    await db.query(
      `INSERT INTO record_avatar (record_id, photo_url, provider, blue_master_id, external_id, profile_name, updated_by_id, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (record_id) DO UPDATE SET photo_url = EXCLUDED.photo_url, provider = EXCLUDED.provider, blue_master_id = EXCLUDED.blue_master_id,
         external_id = EXCLUDED.external_id, profile_name = EXCLUDED.profile_name, updated_by_id = EXCLUDED.updated_by_id, updated_at = now()`,
      [
        id,
        input.photoUrl,
        provider,
        input.blueMasterId ?? null,
        input.externalId ?? null,
        input.profileName ?? null,
        principal.userId,
      ],
    );
  } else {
    await db.query('DELETE FROM record_avatar WHERE record_id = $1', [id]);
  }
  return avatarOf(id, object, (await associations(db, [id])).get(id));
}
