-- Duplicate rules (server/platform/metadata/duplicate-rules): trigram similarity for fuzzy matching, in the
-- public schema so that every schema of the database finds it; and the indexes of the exact matches the
-- rules start from (the expressions are those server/platform/duplicates/match.ts compares).

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX contact_us_email_match_idx ON record (lower(fields ->> 'APT_Email__c'))
  WHERE object_api_name = 'APT_Contact_Us__c';

CREATE INDEX contact_us_phone_match_idx ON record (regexp_replace(fields ->> 'APT_Phone__c', '[^0-9]', '', 'g'))
  WHERE object_api_name = 'APT_Contact_Us__c';

CREATE INDEX contact_email_match_idx ON record (lower(fields ->> 'Email'))
  WHERE object_api_name = 'Contact';

-- Each user's selected app (server/platform/apps): the app the user last opened.
CREATE TABLE app_selection (
  user_id     text COLLATE "C" PRIMARY KEY,
  app_id      text COLLATE "C" NOT NULL,
  selected_at timestamptz NOT NULL
);
