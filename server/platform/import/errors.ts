/**
 * The import's refusals of a file or of its options, before anything is written: like PlatformError (core/errors.ts),
 * a status and an errorCode, which the routes answer in the platform's error shape. 413 for a file too large, 415
 * for one that is not CSV, 400 for the rest.
 */
type ImportErrorCode =
  | 'EMPTY_FILE'
  | 'NOT_CSV'
  | 'NO_MAPPABLE_COLUMN'
  | 'TOO_MANY_COLUMNS'
  | 'TOO_MANY_ROWS'
  | 'FILE_TOO_LARGE'
  | 'INVALID_MAPPING'
  | 'INVALID_MATCH_KEY';

const STATUS: Record<ImportErrorCode, 400 | 413 | 415> = {
  EMPTY_FILE: 400,
  NOT_CSV: 415,
  NO_MAPPABLE_COLUMN: 400,
  TOO_MANY_COLUMNS: 400,
  TOO_MANY_ROWS: 400,
  FILE_TOO_LARGE: 413,
  INVALID_MAPPING: 400,
  INVALID_MATCH_KEY: 400,
};

export class ImportError extends Error {
  readonly status: 400 | 413 | 415;
  constructor(
    readonly errorCode: ImportErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[errorCode];
  }
}
