-- A write made in a transaction returns only once this server's listeners have had the notifications it
-- caused (server/db/connection.ts: a round trip on the listening connection, the barrier). Most writes
-- cause none (an Account, a list view's record), and need no barrier: every function that notifies now
-- also marks its transaction (app.notified, for that transaction only), which the server reads with its
-- COMMIT, in the same round trip, and waits for the barrier only when it is set.
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE OR REPLACE FUNCTION notify_contact_us_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN IF EXISTS (SELECT FROM changed_rows WHERE object_api_name = 'APT_Contact_Us__c') THEN PERFORM pg_notify('contact_us_changed', TG_OP); PERFORM set_config('app.notified', 'on', true); END IF; RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_contact_us_changed_unconditionally() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('contact_us_changed', TG_OP); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_org_metadata_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('org_metadata_changed', TG_TABLE_NAME); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_user_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('user_session_changed', OLD.id_hash); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('user_session_changed', 'user:' || OLD.id); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_user_sessions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('user_session_changed', '*'); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_site_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('site_changed', TG_TABLE_NAME); PERFORM set_config('app.notified', 'on', true); RETURN NULL; END
$$;
