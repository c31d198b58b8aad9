-- Related lists: each user's own column widths, wrapping and sort order of a related list of a parent object
-- (server/platform/related-lists/store.ts), and the index that reads an account's contacts in the Contacts
-- related list's default order (by name, ties by Id) from the index, however many the account has.

CREATE TABLE related_list_preference (
  user_id                text COLLATE "C" NOT NULL,
  parent_object_api_name text NOT NULL,
  related_list_id        text NOT NULL,
  column_widths          jsonb NOT NULL DEFAULT '{}',
  column_wrap            jsonb NOT NULL DEFAULT '{}',
  ordered_by             jsonb NOT NULL DEFAULT '[]',
  updated_at             timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, parent_object_api_name, related_list_id)
);

CREATE INDEX record_contact_account_name_idx ON record ((fields ->> 'AccountId'), lower(fields ->> 'Name') NULLS FIRST, id)
  WHERE object_api_name = 'Contact';
