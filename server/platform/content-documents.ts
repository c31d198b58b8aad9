/**
 * Files: a ContentDocument with its versions (ContentVersion) and its links (ContentDocumentLink). An upload
 * creates a document with its first version and the owner's link, or adds a version to a document; the
 * bytes are stored in content_version_data, the records carry the metadata.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../app-options.ts';
import type { Database, Queryable } from '../db/connection.ts';
import { describeOrg, type OrgDescribe } from './core/describe.ts';
import { notFound, PlatformError } from './core/errors.ts';
import { makeId, toId18 } from './core/ids.ts';
import { objectPermissions, type Principal } from './core/principal.ts';
import { canSeeRecord, owns } from './records/access.ts';
import { readRecord } from './records/read.ts';
import { fetchRows } from './records/rows.ts';
import type { RecordRepresentation, RecordRow } from './records/representation.ts';

/** The largest file, once decoded (the contract's limit on fileData.content). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

type UploadOperation = 'createContentDocumentAndVersion' | 'createContentVersion';

interface ContentVersionInput {
  fileData: unknown;
  title?: string;
  description?: string;
}

interface CheckedUpload {
  name: string;
  mimeType: string;
  bytes: Buffer;
  title: string;
  description: string | null;
  extension: string | null;
  fileType: string;
}

// One character class and a length check rather than a grouped pattern: a repeated group overflows the
// regular expression engine's stack on a 10 MB file.
const BASE64_CHARACTERS = /^[A-Za-z0-9+/]*={0,2}$/;
const isStandardBase64 = (text: string) => text.length % 4 === 0 && BASE64_CHARACTERS.test(text);

const FILE_TYPES: Record<string, string> = {
  pdf: 'PDF',
  png: 'PNG',
  jpg: 'JPG',
  jpeg: 'JPG',
  gif: 'GIF',
  svg: 'SVG',
  webp: 'WEBP',
  txt: 'TEXT',
  csv: 'CSV',
  json: 'JSON',
  xml: 'XML',
  html: 'HTML',
  htm: 'HTML',
  zip: 'ZIP',
  doc: 'WORD',
  docx: 'WORD_X',
  xls: 'EXCEL',
  xlsx: 'EXCEL_X',
  ppt: 'POWER_POINT',
  pptx: 'POWER_POINT_X',
  mp4: 'MP4',
};

/** The extension of a file name, lower-cased, without the dot; null when it has none. */
export function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
}

/** The platform's FileType of an extension (PDF, PNG, WORD_X ...); UNKNOWN for the rest. */
export function fileTypeOf(extension: string | null): string {
  return (extension && FILE_TYPES[extension]) || 'UNKNOWN';
}

const invalidConfig = (operation: UploadOperation, detail: string) =>
  new PlatformError(400, 'INVALID_INPUT', `Invalid config for ${operation}: ${detail}`);

/**
 * Checks an upload and decodes its content. Pure: as on the platform, a message is 'Invalid config for'
 * and the operation that was misused.
 */
export function checkUpload(operation: UploadOperation, input: ContentVersionInput): CheckedUpload {
  const file = input.fileData;
  if (!file || typeof file !== 'object' || Array.isArray(file))
    throw invalidConfig(operation, 'fileData must be an object');
  const { name, type, content } = file as Record<string, unknown>;
  if (typeof name !== 'string' || name.length === 0 || name.length > 255 || /[/\\]/.test(name))
    throw invalidConfig(operation, 'fileData.name must be a file name');
  if (typeof type !== 'string' || !/^[a-zA-Z0-9!#$&^_.+-]+\/[a-zA-Z0-9!#$&^_.+-]+$/.test(type))
    throw invalidConfig(operation, 'fileData.type must be a MIME type');
  if (typeof content !== 'string')
    throw invalidConfig(operation, 'fileData.content must be base64 (standard alphabet, with padding)');
  if (content.length === 0) throw invalidConfig(operation, 'the file is empty');
  // Checked before anything else is done with the content, so that an oversized upload costs little.
  if (
    Math.floor(content.length / 4) * 3 - (content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0) >
    MAX_FILE_BYTES
  ) {
    throw invalidConfig(operation, `the file is larger than ${MAX_FILE_BYTES} bytes`);
  }
  if (!isStandardBase64(content))
    throw invalidConfig(operation, 'fileData.content must be base64 (standard alphabet, with padding)');
  if (
    input.title !== undefined &&
    (typeof input.title !== 'string' || input.title.trim().length === 0 || input.title.length > 255)
  )
    throw invalidConfig(operation, 'title must be 1 to 255 characters');
  if (input.description !== undefined && (typeof input.description !== 'string' || input.description.length > 1000))
    throw invalidConfig(operation, 'description must be at most 1000 characters');
  const extension = extensionOf(name);
  return {
    name,
    mimeType: type,
    bytes: Buffer.from(content, 'base64'),
    title: input.title ?? (extension ? name.slice(0, name.length - extension.length - 1) : name),
    description: input.description ?? null,
    extension,
    fileType: fileTypeOf(extension),
  };
}

async function nextId(q: Queryable, keyPrefix: string): Promise<string> {
  const { rows } = await q.query<{ last_value: string | number }>(
    `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, 1)
     ON CONFLICT (key_prefix) DO UPDATE SET last_value = id_sequence.last_value + 1 RETURNING last_value`,
    [keyPrefix],
  );
  return makeId(keyPrefix, Number(rows[0].last_value));
}

async function insertRow(
  q: Queryable,
  id: string,
  objectApiName: string,
  fields: Record<string, unknown>,
  principal: Principal,
  now: string,
): Promise<void> {
  await q.query(
    `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
     VALUES ($1, $2, NULL, $3::jsonb, $4, $5, $4, $5, $4)`,
    [id, objectApiName, JSON.stringify(fields), now, principal.userId],
  );
}

const keyPrefix = (org: OrgDescribe, apiName: string) => org.objects.get(apiName)!.definition.keyPrefix;

function checkCanUpload(principal: Principal) {
  if (!objectPermissions(principal, 'ContentVersion').create)
    throw new PlatformError(403, 'INSUFFICIENT_ACCESS', "You don't have permission to upload files.");
}

/** Inserts a version of a document and stores its bytes. */
async function insertVersion(
  q: Queryable,
  principal: Principal,
  versionId: string,
  documentId: string,
  upload: CheckedUpload,
  versionNumber: number,
  now: string,
): Promise<void> {
  await insertRow(
    q,
    versionId,
    'ContentVersion',
    {
      ContentDocumentId: documentId,
      Title: upload.title,
      Description: upload.description,
      PathOnClient: upload.name,
      ContentSize: upload.bytes.length,
      FileExtension: upload.extension,
      FileType: upload.fileType,
      Checksum: createHash('md5').update(upload.bytes).digest('hex'),
      VersionNumber: String(versionNumber),
      IsLatest: true,
      ReasonForChange: null,
      FirstPublishLocationId: null,
      OwnerId: principal.userId,
    },
    principal,
    now,
  );
  await q.query('INSERT INTO content_version_data (version_id, content) VALUES ($1, $2)', [versionId, upload.bytes]);
}

const VERSION_FIELDS = [
  'ContentDocumentId',
  'Title',
  'Description',
  'PathOnClient',
  'ContentSize',
  'FileExtension',
  'FileType',
  'Checksum',
  'VersionNumber',
  'IsLatest',
  'ReasonForChange',
  'OwnerId',
  'CreatedDate',
  'CreatedById',
];
const DOCUMENT_FIELDS = [
  'Title',
  'Description',
  'FileType',
  'FileExtension',
  'ContentSize',
  'LatestPublishedVersionId',
  'PublishStatus',
  'OwnerId',
  'CreatedDate',
  'CreatedById',
];
const LINK_FIELDS = ['ContentDocumentId', 'LinkedEntityId', 'ShareType', 'Visibility'];
const paths = (object: string, names: string[]) => names.map((name) => `${object}.${name}`);

/** The composite answer: the document, the links the caller may see, and the version. */
async function composite(db: Database, principal: Principal, documentId: string, versionId: string) {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM record WHERE object_api_name = 'ContentDocumentLink' AND fields ->> 'ContentDocumentId' = $1 ORDER BY id`,
    [documentId],
  );
  const links: RecordRepresentation[] = [];
  for (const { id } of rows) {
    try {
      links.push(await readRecord(db, principal, id, { optionalFields: paths('ContentDocumentLink', LINK_FIELDS) }));
    } catch (error) {
      if (!(error instanceof PlatformError && error.status === 404)) throw error;
    }
  }
  return {
    contentDocument: await readRecord(db, principal, documentId, {
      optionalFields: paths('ContentDocument', DOCUMENT_FIELDS),
    }),
    contentDocumentLinks: links,
    contentVersion: await readRecord(db, principal, versionId, {
      optionalFields: paths('ContentVersion', VERSION_FIELDS),
    }),
  };
}

const nowOf = (clock?: Clock) => new Date(clock?.now() ?? Date.now()).toISOString();

/** POST /records/content-documents/content-versions: a new file owned by the caller, its first version and the owner's link. */
export async function createContentDocumentAndVersion(
  db: Database,
  principal: Principal,
  input: ContentVersionInput,
  options: { clock?: Clock } = {},
) {
  const upload = checkUpload('createContentDocumentAndVersion', input);
  checkCanUpload(principal);
  const org = await describeOrg(db);
  const now = nowOf(options.clock);
  const { documentId, versionId } = await db.transaction(async (tx) => {
    const documentId = await nextId(tx, keyPrefix(org, 'ContentDocument'));
    const versionId = await nextId(tx, keyPrefix(org, 'ContentVersion'));
    const linkId = await nextId(tx, keyPrefix(org, 'ContentDocumentLink'));
    await insertRow(
      tx,
      documentId,
      'ContentDocument',
      documentFields(upload, versionId, principal.userId),
      principal,
      now,
    );
    await insertRow(
      tx,
      linkId,
      'ContentDocumentLink',
      { ContentDocumentId: documentId, LinkedEntityId: principal.userId, ShareType: 'I', Visibility: 'AllUsers' },
      principal,
      now,
    );
    await insertVersion(tx, principal, versionId, documentId, upload, 1, now);
    return { documentId, versionId };
  });
  return composite(db, principal, documentId, versionId);
}

function documentFields(upload: CheckedUpload, versionId: string, ownerId: string) {
  return {
    Title: upload.title,
    Description: upload.description,
    FileType: upload.fileType,
    FileExtension: upload.extension,
    ContentSize: upload.bytes.length,
    LatestPublishedVersionId: versionId,
    PublishStatus: 'P',
    OwnerId: ownerId,
  };
}

/** What a new version changes on its document: a version without a description leaves the document's. */
function revisedDocumentFields(upload: CheckedUpload, versionId: string, ownerId: string) {
  const { Description, ...fields } = documentFields(upload, versionId, ownerId);
  return Description === null ? fields : { ...fields, Description };
}

/** Whether the caller may add versions: the document's owner, a collaborator (a C link to them), or modifyAll. */
async function canRevise(q: Queryable, principal: Principal, row: RecordRow): Promise<boolean> {
  if (owns(principal, row) || objectPermissions(principal, 'ContentDocument').modifyAll) return true;
  const { rows } = await q.query(
    `SELECT 1 FROM record WHERE object_api_name = 'ContentDocumentLink' AND fields ->> 'ContentDocumentId' = $1 AND fields ->> 'LinkedEntityId' = $2 AND fields ->> 'ShareType' = 'C'`,
    [row.id, principal.userId],
  );
  return rows.length > 0;
}

/** POST /records/content-documents/{contentDocumentId}/content-versions: a new latest version of a file. */
export async function createContentVersion(
  db: Database,
  principal: Principal,
  contentDocumentId: string,
  input: ContentVersionInput,
  options: { clock?: Clock } = {},
) {
  const id = toId18(contentDocumentId);
  if (!id?.startsWith('069'))
    throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${contentDocumentId} is not a valid record ID.`);
  const upload = checkUpload('createContentVersion', input);
  const org = await describeOrg(db);
  const documentObject = org.objects.get('ContentDocument')!;
  const existing = (await fetchRows(db, [id])).get(id);
  if (existing?.object_api_name !== 'ContentDocument' || !canSeeRecord(principal, documentObject, existing))
    throw notFound();
  checkCanUpload(principal);
  if (!(await canRevise(db, principal, existing)))
    throw new PlatformError(
      403,
      'INSUFFICIENT_ACCESS_OR_READONLY',
      "You don't have permission to add a version to this file.",
    );
  const now = nowOf(options.clock);
  const versionId = await db.transaction(async (tx) => {
    // Locks the document: two uploads at once must not get the same version number.
    const { rows } = await tx.query<RecordRow>('SELECT id, fields FROM record WHERE id = $1 FOR UPDATE', [id]);
    if (rows.length === 0) throw notFound();
    const versions = await tx.query<{ n: number | null }>(
      `SELECT max((fields ->> 'VersionNumber')::int) AS n FROM record WHERE object_api_name = 'ContentVersion' AND fields ->> 'ContentDocumentId' = $1`,
      [id],
    );
    await tx.query(
      `UPDATE record SET fields = fields || '{"IsLatest": false}'::jsonb, system_modstamp = GREATEST($2::timestamptz, system_modstamp + interval '1 millisecond')
       WHERE object_api_name = 'ContentVersion' AND fields ->> 'ContentDocumentId' = $1 AND (fields ->> 'IsLatest')::boolean`,
      [id, now],
    );
    const versionId = await nextId(tx, keyPrefix(org, 'ContentVersion'));
    await insertVersion(tx, principal, versionId, id, upload, Number(versions.rows[0]?.n ?? 0) + 1, now);
    await tx.query(
      `UPDATE record SET fields = fields || $2::jsonb, last_modified_date = $3, last_modified_by_id = $4,
         system_modstamp = GREATEST($3::timestamptz, system_modstamp + interval '1 millisecond')
       WHERE id = $1`,
      [
        id,
        JSON.stringify(revisedDocumentFields(upload, versionId, String(rows[0].fields.OwnerId ?? principal.userId))),
        now,
        principal.userId,
      ],
    );
    return versionId;
  });
  return composite(db, principal, id, versionId);
}

/** The stored bytes of a version, or null when it has none. */
export async function contentVersionData(q: Queryable, versionId: string): Promise<Buffer | null> {
  const { rows } = await q.query<{ content: Uint8Array }>(
    'SELECT content FROM content_version_data WHERE version_id = $1',
    [versionId],
  );
  return rows[0] ? Buffer.from(rows[0].content) : null;
}
