/**
 * The extensions every PGlite database of the product is opened with (each installed by CREATE EXTENSION in a
 * migration): pg_trgm, the trigram similarity of fuzzy duplicate matching (migration 014); cube, the nearest
 * search's index of places (migration 029). A data directory that has them installed must be opened with them.
 */
import { cube } from '@electric-sql/pglite/contrib/cube';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const PGLITE_EXTENSIONS = { cube, pg_trgm };
