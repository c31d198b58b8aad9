-- Each user's saved mapping of an import's columns (server/platform/import/mapping.ts): per object, the CSV
-- header of each column and the field API name it goes to, or null for a column left out. The import uses it
-- when a request gives no mapping of its own. A dump holds it like every table (server/db/dump.ts lists the
-- schema's tables).
CREATE TABLE import_mapping (
  user_id         text COLLATE "C" NOT NULL,
  object_api_name text NOT NULL REFERENCES sobject (api_name) ON DELETE CASCADE,
  mapping         jsonb NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, object_api_name)
);
