-- List views: the org's own, loaded from server/platform/metadata/list-views/*.json (owner_id null), and those
-- users create through the API (owner_id their creator). API names are unique per object without regard to
-- case. The most-recently-used list (__Recent) is a list view without an id.

CREATE TABLE list_view (
  object_api_name    text NOT NULL REFERENCES sobject (api_name) ON DELETE CASCADE,
  api_name           text NOT NULL,
  id                 text COLLATE "C" UNIQUE,
  owner_id           text COLLATE "C",
  definition         jsonb NOT NULL,
  created_date       timestamptz NOT NULL DEFAULT now(),
  last_modified_date timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (object_api_name, api_name)
);

CREATE UNIQUE INDEX list_view_name_idx ON list_view (object_api_name, lower(api_name));

-- The hash of each object's list-view file (and of the object it names) when it was last loaded.
CREATE TABLE list_view_source (
  object_api_name text PRIMARY KEY,
  hash            text NOT NULL
);

-- The indexes of the record table that the org's list views need, derived from their definitions
-- (server/platform/lists/indexes.ts) and kept in step with them at every load.
CREATE TABLE list_view_index (
  name            text PRIMARY KEY,
  object_api_name text NOT NULL,
  definition      text NOT NULL
);

-- Each user's own column widths, wrapping and sort order of a list view (by API name, as the platform keys them).
CREATE TABLE list_preference (
  user_id            text COLLATE "C" NOT NULL,
  object_api_name    text NOT NULL,
  list_view_api_name text NOT NULL,
  column_widths      jsonb NOT NULL DEFAULT '{}',
  column_wrap        jsonb NOT NULL DEFAULT '{}',
  ordered_by         jsonb NOT NULL DEFAULT '[]',
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, object_api_name, list_view_api_name)
);

-- When each user last opened each list view (recentListsOnly).
CREATE TABLE list_view_usage (
  user_id      text COLLATE "C" NOT NULL,
  list_view_id text COLLATE "C" NOT NULL REFERENCES list_view (id) ON DELETE CASCADE,
  used_at      timestamptz NOT NULL,
  PRIMARY KEY (user_id, list_view_id)
);

-- Each user's most recently used records (viewed with updateMru, or written): the MRU list, newest first.
CREATE TABLE mru_record (
  user_id         text COLLATE "C" NOT NULL,
  record_id       text COLLATE "C" NOT NULL REFERENCES record (id) ON DELETE CASCADE,
  object_api_name text NOT NULL,
  used_at         timestamptz NOT NULL,
  PRIMARY KEY (user_id, record_id)
);

CREATE INDEX mru_record_recent_idx ON mru_record (user_id, object_api_name, used_at DESC);

-- Deleting a record removes it from every MRU list through the foreign key: found by record.
CREATE INDEX mru_record_record_idx ON mru_record (record_id);
