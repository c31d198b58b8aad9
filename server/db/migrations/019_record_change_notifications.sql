-- Servers keep a signed-in user's answers of getRecord and getRecordUi in memory (server/http/kept-answers.ts),
-- each with the records it was read from (server/db/record-changes.ts). Every statement that changes records
-- tells all of them at commit which ones (NOTIFY record_data_changed with their ids, separated by commas), so
-- that none answers from a copy a change made stale, however many servers share the database. One
-- notification per statement that changed any; one that changed more than 300 records, or a TRUNCATE, says
-- '*': every record may have changed. A change of a user's layout states says 'layout-state:' and the
-- user's id. Like every function that notifies, these mark their transaction (app.notified, migration 018):
-- the write returns once this server has heard them.
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE FUNCTION notify_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE ids text; BEGIN SELECT CASE WHEN count(*) > 300 THEN '*' ELSE string_agg(id, ',') END INTO ids FROM changed_rows; IF ids IS NOT NULL THEN PERFORM pg_notify('record_data_changed', ids); PERFORM set_config('app.notified', 'on', true); END IF; RETURN NULL; END
$$;

CREATE FUNCTION notify_records_updated() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE ids text; BEGIN SELECT CASE WHEN count(*) > 300 THEN '*' ELSE string_agg(id, ',') END INTO ids FROM (SELECT id FROM old_rows UNION SELECT id FROM new_rows) AS changed; IF ids IS NOT NULL THEN PERFORM pg_notify('record_data_changed', ids); PERFORM set_config('app.notified', 'on', true); END IF; RETURN NULL; END
$$;

CREATE FUNCTION notify_all_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('record_data_changed', '*'); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE FUNCTION notify_layout_state_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('record_data_changed', 'layout-state:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE TRIGGER records_inserted AFTER INSERT ON record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_records_changed();

CREATE TRIGGER records_updated AFTER UPDATE ON record
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_records_updated();

CREATE TRIGGER records_deleted AFTER DELETE ON record
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_records_changed();

CREATE TRIGGER records_truncated AFTER TRUNCATE ON record
  FOR EACH STATEMENT EXECUTE FUNCTION notify_all_records_changed();

CREATE TRIGGER layout_states_changed AFTER INSERT OR UPDATE OR DELETE ON layout_user_state
  FOR EACH ROW EXECUTE FUNCTION notify_layout_state_changed();

CREATE TRIGGER layout_states_truncated AFTER TRUNCATE ON layout_user_state
  FOR EACH STATEMENT EXECUTE FUNCTION notify_all_records_changed();
