-- The bytes of each uploaded file version. The ContentVersion record (in record) carries the version's
-- metadata; its body lives here so that reading records never loads file contents.
CREATE TABLE content_version_data (
  version_id  text COLLATE "C" PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
  content     bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The picture associated with a record as its avatar (a company logo, an uploaded photo). A record without
-- one shows its object's theme.
CREATE TABLE record_avatar (
  record_id       text COLLATE "C" PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
  photo_url       text NOT NULL,
  provider        text,
  blue_master_id  text,
  external_id     text,
  profile_name    text,
  updated_by_id   text NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
