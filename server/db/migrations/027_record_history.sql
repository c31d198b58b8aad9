-- Field history (issue #40): every create, update and delete of a record whose object tracks fields keeps
-- history rows, as the platform's field history does. They are records of the object's history object
-- (APT_Contact_Us__c's is APT_Contact_Us__History, server/platform/metadata/objects) in the record table, so
-- that the record API reads them like any record (getRecord, the Histories related list), read-only by the
-- history object's flags. A field is tracked when its definition says "trackHistory": true.
--
-- Triggers write them, in the statement that made the change, whatever wrote it (the record API, a batch, a
-- quick action, the seed, SQL): one row per tracked field whose value changed ("Field" its API name), one
-- row "created" per insert, one row "deleted" per delete; an update that changes no tracked field writes
-- none. Who and when: the changed row's LastModifiedById and LastModifiedDate; for a delete, which leaves no
-- row, the transaction's app.user_id and app.changed_at (deleteRow in server/platform/records/write.ts sets
-- them), else the statement's time and no user. Where a transaction set app.user_id, its updates name that
-- user too (the lookups a delete clears are the deleter's change). Ids come from a sequence, which takes no lock: the history of concurrent
-- writes of other records does not wait on one row (id_sequence holds a row lock until commit). A restore
-- moves the sequence past the ids it loaded (advance_record_history_sequence, server/db/restore.ts). The
-- ids of one transaction's rows grow with their order; the rows a transaction wrote are those whose
-- "TransactionId" is its pg_current_xact_id() (what an import reports).
--
-- The parent-and-date index the Histories related list reads is derived at start from its definition
-- (server/platform/related-lists/indexes.ts), like every related list's.
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE SEQUENCE record_history_sequence;

-- The platform's 18-character id of a key prefix and a sequence number (server/platform/core/ids.ts: makeId).
CREATE FUNCTION record_id_of(key_prefix text, sequence bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
  DECLARE digits text := ''; n bigint := sequence; body text; suffix text := ''; bits int; BEGIN FOR i IN 1..9 LOOP digits := substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (n % 62)::int + 1, 1) || digits; n := n / 62; END LOOP; body := key_prefix || '8d0' || digits; FOR chunk IN 0..2 LOOP bits := 0; FOR i IN 0..4 LOOP IF ascii(substr(body, chunk * 5 + i + 1, 1)) BETWEEN 65 AND 90 THEN bits := bits | (1 << i); END IF; END LOOP; suffix := suffix || substr('ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', bits + 1, 1); END LOOP; RETURN body || suffix; END
$$;

-- The sequence number of an id made by record_id_of: its nine base-62 digits.
CREATE FUNCTION record_sequence_of(id text) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
  DECLARE n bigint := 0; BEGIN FOR i IN 7..15 LOOP n := n * 62 + strpos('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', substr(id, i, 1)) - 1; END LOOP; RETURN n; END
$$;

-- The tracked fields of each object, with their history object and the platform's history DataType.
CREATE VIEW tracked_field AS
  SELECT f.object_api_name, f.api_name, f.position, regexp_replace(f.object_api_name, '__c$', '__History') AS history_object,
         CASE f.definition ->> 'dataType' WHEN 'String' THEN 'Text' WHEN 'Picklist' THEN 'DynamicEnum' WHEN 'MultiPicklist' THEN 'MultiEnum'
           WHEN 'Email' THEN 'EmailAddress' WHEN 'Reference' THEN 'EntityId' WHEN 'Date' THEN 'DateOnly' ELSE f.definition ->> 'dataType' END AS data_type
  FROM sobject_field f
  WHERE f.definition ->> 'trackHistory' = 'true';

CREATE FUNCTION history_fields(parent_id text, field text, old_value text, new_value text, data_type text) RETURNS jsonb
  LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('ParentId', parent_id, 'Field', field, 'OldValue', old_value, 'NewValue', new_value, 'DataType', data_type, 'IsDeleted', false, 'TransactionId', pg_current_xact_id()::text)
$$;

-- The history rows' own insert is the one met most: it is passed over on their ids before any lookup.
CREATE FUNCTION record_history_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN IF NOT EXISTS (SELECT FROM changed_rows n WHERE n.id NOT LIKE '017%' AND n.object_api_name IN (SELECT object_api_name FROM tracked_field)) THEN RETURN NULL; END IF; INSERT INTO record (id, object_api_name, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp) SELECT record_id_of('017', nextval('record_history_sequence')), h.history_object, history_fields(n.id, 'created', NULL, NULL, 'Text'), n.created_date, n.created_by_id, n.created_date, n.created_by_id, n.created_date FROM changed_rows n JOIN (SELECT DISTINCT object_api_name, history_object FROM tracked_field) h ON h.object_api_name = n.object_api_name ORDER BY n.id; RETURN NULL; END
$$;

CREATE FUNCTION record_history_updated() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE who text := nullif(current_setting('app.user_id', true), ''); BEGIN IF NOT EXISTS (SELECT FROM new_rows n WHERE n.object_api_name IN (SELECT object_api_name FROM tracked_field)) THEN RETURN NULL; END IF; INSERT INTO record (id, object_api_name, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp) SELECT record_id_of('017', nextval('record_history_sequence')), changes.history_object, history_fields(changes.id, changes.api_name, changes.old_value, changes.new_value, changes.data_type), changes.at, changes.who, changes.at, changes.who, changes.at FROM (SELECT f.history_object, n.id, f.api_name, f.data_type, o.fields ->> f.api_name AS old_value, n.fields ->> f.api_name AS new_value, n.last_modified_date AS at, coalesce(who, n.last_modified_by_id) AS who FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.object_api_name = n.object_api_name JOIN tracked_field f ON f.object_api_name = n.object_api_name WHERE (o.fields ->> f.api_name) IS DISTINCT FROM (n.fields ->> f.api_name) ORDER BY n.id, f.position) AS changes; RETURN NULL; END
$$;

CREATE FUNCTION record_history_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE who text := nullif(current_setting('app.user_id', true), ''); at timestamptz := coalesce(nullif(current_setting('app.changed_at', true), '')::timestamptz, statement_timestamp()); BEGIN IF NOT EXISTS (SELECT FROM changed_rows o WHERE o.object_api_name IN (SELECT object_api_name FROM tracked_field)) THEN RETURN NULL; END IF; INSERT INTO record (id, object_api_name, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp) SELECT record_id_of('017', nextval('record_history_sequence')), h.history_object, history_fields(o.id, 'deleted', NULL, NULL, 'Text'), at, who, at, who, at FROM changed_rows o JOIN (SELECT DISTINCT object_api_name, history_object FROM tracked_field) h ON h.object_api_name = o.object_api_name ORDER BY o.id; RETURN NULL; END
$$;

CREATE TRIGGER record_history_inserted AFTER INSERT ON record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION record_history_inserted();

CREATE TRIGGER record_history_updated AFTER UPDATE ON record
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_history_updated();

CREATE TRIGGER record_history_deleted AFTER DELETE ON record
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION record_history_deleted();

-- A restore loads the history rows as they were (its trigger list turns these off), then moves the sequence.
CREATE FUNCTION advance_record_history_sequence() RETURNS void LANGUAGE sql AS $$
  SELECT setval('record_history_sequence', max(record_sequence_of(id))) FROM record WHERE id LIKE '017%' HAVING max(record_sequence_of(id)) IS NOT NULL
$$;

-- History rows are not searched (no search configuration names their object): they get no search document,
-- which would be read from sobject_field for each one (migration 013; 0.08 ms a row on PGlite).
CREATE OR REPLACE FUNCTION record_search_document_write() RETURNS trigger
LANGUAGE plpgsql AS $$
  BEGIN IF NEW.id LIKE '017%' THEN RETURN NEW; END IF; NEW.search_document := record_search_document(NEW.object_api_name, NEW.fields); RETURN NEW; END
$$;

-- New history rows are never in a cache (nothing read them before they were), and each comes with its
-- parent's change, which is notified: they are left out of record_data_changed's ids, so that a batch's
-- history does not push a notification past 300 ids (then '*', every record answer evicted).
CREATE OR REPLACE FUNCTION notify_records_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE ids text; BEGIN SELECT CASE WHEN count(*) > 300 THEN '*' ELSE string_agg(id, ',') END INTO ids FROM changed_rows WHERE id NOT LIKE '017%'; IF ids IS NOT NULL THEN PERFORM pg_notify('record_data_changed', ids); PERFORM set_config('app.notified', 'on', true); END IF; RETURN NULL; END
$$;

DROP TRIGGER records_inserted ON record;

CREATE TRIGGER records_inserted AFTER INSERT ON record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_records_inserted();
