-- Org metadata (objects, fields, record types, picklist values) and records of every object.
-- Ids compare byte-wise (COLLATE "C") so that ordering by id is the order in which ids were issued.

CREATE TABLE sobject (
  api_name    text PRIMARY KEY,
  key_prefix  text COLLATE "C" NOT NULL UNIQUE,
  definition  jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sobject_field (
  object_api_name text NOT NULL REFERENCES sobject (api_name) ON DELETE CASCADE,
  api_name        text NOT NULL,
  position        integer NOT NULL,
  definition      jsonb NOT NULL,
  PRIMARY KEY (object_api_name, api_name)
);

CREATE TABLE record_type (
  object_api_name text NOT NULL REFERENCES sobject (api_name) ON DELETE CASCADE,
  id              text COLLATE "C" NOT NULL,
  name            text NOT NULL,
  developer_name  text NOT NULL,
  is_master       boolean NOT NULL DEFAULT false,
  is_default      boolean NOT NULL DEFAULT false,
  available       boolean NOT NULL DEFAULT true,
  PRIMARY KEY (object_api_name, id)
);

CREATE TABLE picklist_value (
  object_api_name text NOT NULL,
  field_api_name  text NOT NULL,
  record_type_id  text COLLATE "C" NOT NULL,
  position        integer NOT NULL,
  value           text NOT NULL,
  label           text NOT NULL,
  valid_for       text[] NOT NULL DEFAULT '{}',
  is_default      boolean NOT NULL DEFAULT false,
  attributes      jsonb,
  PRIMARY KEY (object_api_name, field_api_name, record_type_id, value),
  FOREIGN KEY (object_api_name, field_api_name) REFERENCES sobject_field (object_api_name, api_name) ON DELETE CASCADE
);

CREATE INDEX picklist_value_order_idx ON picklist_value (object_api_name, field_api_name, record_type_id, position);

CREATE TABLE id_sequence (
  key_prefix text COLLATE "C" PRIMARY KEY,
  last_value bigint NOT NULL
);

CREATE TABLE record (
  id                  text COLLATE "C" PRIMARY KEY,
  object_api_name     text NOT NULL REFERENCES sobject (api_name),
  record_type_id      text COLLATE "C",
  fields              jsonb NOT NULL,
  created_date        timestamptz NOT NULL,
  created_by_id       text COLLATE "C",
  last_modified_date  timestamptz NOT NULL,
  last_modified_by_id text COLLATE "C",
  system_modstamp     timestamptz NOT NULL
);

CREATE INDEX record_object_idx ON record (object_api_name, id);
