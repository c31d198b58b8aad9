-- The locator's answers and the guests' pages are kept per filter (server/cache/contact-changes.ts): a
-- change to a Texas representative need not evict Ohio's answers, nor `/`, which shows no representative
-- but the default contact. So the Contact Us notification now says what changed: a JSON array with, for
-- each changed row, its side before and its side after, each [country, state, brands, default contact] or
-- null (inserted, deleted, or not a Contact Us record on that side). Past 100 rows, or a payload over 7,900
-- bytes (NOTIFY takes at most 8,000), it says '*': anything may have changed. TRUNCATE and picklist changes
-- keep their old payload (the operation's name), which a server reads as '*' too. Like every function that
-- notifies, these mark their transaction (app.notified, migration 018).
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE FUNCTION contact_us_side(row_object text, country text, state text, brands text[], fields jsonb) RETURNS json
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN row_object = 'APT_Contact_Us__c' THEN json_build_array(country, state, brands, (fields ->> 'APT_Default_Contact__c') = 'true') END
$$;

CREATE FUNCTION notify_contact_us_payload(changes json, row_count bigint) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE payload text; BEGIN IF row_count = 0 THEN RETURN; END IF; payload := changes::text; IF row_count > 100 OR octet_length(payload) > 7900 THEN payload := '*'; END IF; PERFORM pg_notify('contact_us_changed', payload); PERFORM set_config('app.notified', 'on', true); END
$$;

CREATE FUNCTION notify_contact_us_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE changes json; row_count bigint; BEGIN SELECT json_agg(json_build_array(NULL, contact_us_side(object_api_name, contact_us_country, contact_us_state, contact_us_brands, fields))), count(*) INTO changes, row_count FROM changed_rows WHERE object_api_name = 'APT_Contact_Us__c'; PERFORM notify_contact_us_payload(changes, row_count); RETURN NULL; END
$$;

CREATE FUNCTION notify_contact_us_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE changes json; row_count bigint; BEGIN SELECT json_agg(json_build_array(contact_us_side(object_api_name, contact_us_country, contact_us_state, contact_us_brands, fields), NULL)), count(*) INTO changes, row_count FROM changed_rows WHERE object_api_name = 'APT_Contact_Us__c'; PERFORM notify_contact_us_payload(changes, row_count); RETURN NULL; END
$$;

CREATE FUNCTION notify_contact_us_updated() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE changes json; row_count bigint; BEGIN SELECT json_agg(json_build_array(contact_us_side(o.object_api_name, o.contact_us_country, o.contact_us_state, o.contact_us_brands, o.fields), contact_us_side(n.object_api_name, n.contact_us_country, n.contact_us_state, n.contact_us_brands, n.fields))), count(*) INTO changes, row_count FROM old_rows o FULL JOIN new_rows n ON n.id = o.id WHERE o.object_api_name = 'APT_Contact_Us__c' OR n.object_api_name = 'APT_Contact_Us__c'; PERFORM notify_contact_us_payload(changes, row_count); RETURN NULL; END
$$;

DROP TRIGGER contact_us_inserted ON record;

DROP TRIGGER contact_us_updated ON record;

DROP TRIGGER contact_us_updated_away ON record;

DROP TRIGGER contact_us_deleted ON record;

CREATE TRIGGER contact_us_inserted AFTER INSERT ON record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_inserted();

-- One trigger sees both sides of an update: a representative moved from Texas to Ohio touches both.
CREATE TRIGGER contact_us_updated AFTER UPDATE ON record
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_updated();

CREATE TRIGGER contact_us_deleted AFTER DELETE ON record
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_contact_us_deleted();
