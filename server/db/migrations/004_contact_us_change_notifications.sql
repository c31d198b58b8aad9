-- Servers cache the contact locator's answers (server/storefront/result-cache.ts). Every statement that
-- changes Contact Us records, or the picklist values its answers are checked against, tells all of them at
-- commit (NOTIFY contact_us_changed, which each server LISTENs to), so that no server answers from a cache
-- that a change made stale, however many servers share the database. One notification per statement, not
-- per row: a bulk load of thousands of contacts costs one.
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE FUNCTION notify_contact_us_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN IF EXISTS (SELECT FROM changed_rows WHERE object_api_name = 'APT_Contact_Us__c') THEN PERFORM pg_notify('contact_us_changed', TG_OP); END IF; RETURN NULL; END
$$;

CREATE FUNCTION notify_contact_us_changed_unconditionally() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('contact_us_changed', TG_OP); RETURN NULL; END
$$;

CREATE TRIGGER contact_us_inserted AFTER INSERT ON record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_changed();

-- An update is seen in its new rows and, for one that moves a record off the object, in its old rows.
CREATE TRIGGER contact_us_updated AFTER UPDATE ON record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_changed();

CREATE TRIGGER contact_us_updated_away AFTER UPDATE ON record
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_changed();

CREATE TRIGGER contact_us_deleted AFTER DELETE ON record
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_changed();

CREATE TRIGGER contact_us_truncated AFTER TRUNCATE ON record
  FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_changed_unconditionally();

-- Picklist values change only when the org metadata is loaded: rare enough to notify on any change.
CREATE TRIGGER contact_us_picklists_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON picklist_value
  FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_changed_unconditionally();
