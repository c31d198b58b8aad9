-- Layouts as data (server/platform/metadata/layouts/*.json) and each user's layout state.
-- A layout is assigned to record types by developer name, so that reloading the record types keeps it.

CREATE TABLE layout (
  id              text COLLATE "C" PRIMARY KEY,
  object_api_name text NOT NULL REFERENCES sobject (api_name) ON DELETE CASCADE,
  name            text NOT NULL,
  layout_type     text NOT NULL,
  record_types    text[] NOT NULL DEFAULT '{}',
  definition      jsonb NOT NULL,
  UNIQUE (object_api_name, name)
);

CREATE TABLE layout_source (
  object_api_name text PRIMARY KEY,
  hash            text NOT NULL
);

CREATE TABLE layout_user_state (
  user_id         text COLLATE "C" NOT NULL,
  object_api_name text NOT NULL,
  record_type_id  text COLLATE "C" NOT NULL,
  layout_type     text NOT NULL,
  mode            text NOT NULL,
  section_id      text COLLATE "C" NOT NULL,
  collapsed       boolean NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, object_api_name, record_type_id, layout_type, mode, section_id)
);
