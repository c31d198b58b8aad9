-- Servers keep the org metadata (describe.ts, layouts.ts ...) and signed-in sessions (http/session.ts) in
-- memory rather than read them at every request. Every change to what they were read from tells all of
-- them at commit, so that no server answers from a stale copy, however many servers share the database.
--
-- org_metadata_changed: the metadata tables, which change when a server starts with new metadata files
-- (loadOrgMetadata), while other servers may be running. One notification per statement.
--
-- user_session_changed: the id hash of a session updated or deleted (signed out, replaced at sign-in,
-- expired, its idle expiry moved on), 'user:' and the id of a User record updated or deleted (deactivated,
-- given another profile or name), or '*' when sessions were truncated.
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE FUNCTION notify_org_metadata_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('org_metadata_changed', TG_TABLE_NAME); RETURN NULL; END
$$;

CREATE TRIGGER org_metadata_sobject_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sobject
  FOR EACH STATEMENT EXECUTE FUNCTION notify_org_metadata_changed();

CREATE TRIGGER org_metadata_field_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sobject_field
  FOR EACH STATEMENT EXECUTE FUNCTION notify_org_metadata_changed();

CREATE TRIGGER org_metadata_record_type_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON record_type
  FOR EACH STATEMENT EXECUTE FUNCTION notify_org_metadata_changed();

CREATE TRIGGER org_metadata_picklist_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON picklist_value
  FOR EACH STATEMENT EXECUTE FUNCTION notify_org_metadata_changed();

CREATE TRIGGER org_metadata_layout_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON layout
  FOR EACH STATEMENT EXECUTE FUNCTION notify_org_metadata_changed();

CREATE FUNCTION notify_user_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('user_session_changed', OLD.id_hash); RETURN NULL; END
$$;

CREATE FUNCTION notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('user_session_changed', 'user:' || OLD.id); RETURN NULL; END
$$;

CREATE FUNCTION notify_user_sessions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('user_session_changed', '*'); RETURN NULL; END
$$;

CREATE TRIGGER user_session_changed AFTER UPDATE OR DELETE ON user_session
  FOR EACH ROW EXECUTE FUNCTION notify_user_session_changed();

CREATE TRIGGER user_session_truncated AFTER TRUNCATE ON user_session
  FOR EACH STATEMENT EXECUTE FUNCTION notify_user_sessions_truncated();

-- Only User records: the condition is checked before the function is called, so other writes cost nothing.
CREATE TRIGGER user_record_changed AFTER UPDATE OR DELETE ON record
  FOR EACH ROW WHEN (OLD.object_api_name = 'User') EXECUTE FUNCTION notify_user_changed();
