-- A representative's own page and its getContact answer are kept per record (server/cache/contact-changes.ts),
-- so the Contact Us notification now also names each changed row's id: each element of the array is
-- [side before, side after, id] (migration 023 gave the two sides alone). The bounds stay: past 100 rows, or a
-- payload over 7,900 bytes, it says '*'. An id adds some 21 bytes a row: 100 rows stay under the bound.
--
-- The function bodies keep their semicolons inside lines: the migration runner splits statements at a
-- semicolon that ends a line.

CREATE OR REPLACE FUNCTION notify_contact_us_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE changes json; row_count bigint; BEGIN SELECT json_agg(json_build_array(NULL, contact_us_side(object_api_name, contact_us_country, contact_us_state, contact_us_brands, fields), id)), count(*) INTO changes, row_count FROM changed_rows WHERE object_api_name = 'APT_Contact_Us__c'; PERFORM notify_contact_us_payload(changes, row_count); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_contact_us_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE changes json; row_count bigint; BEGIN SELECT json_agg(json_build_array(contact_us_side(object_api_name, contact_us_country, contact_us_state, contact_us_brands, fields), NULL, id)), count(*) INTO changes, row_count FROM changed_rows WHERE object_api_name = 'APT_Contact_Us__c'; PERFORM notify_contact_us_payload(changes, row_count); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION notify_contact_us_updated() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE changes json; row_count bigint; BEGIN SELECT json_agg(json_build_array(contact_us_side(o.object_api_name, o.contact_us_country, o.contact_us_state, o.contact_us_brands, o.fields), contact_us_side(n.object_api_name, n.contact_us_country, n.contact_us_state, n.contact_us_brands, n.fields), coalesce(n.id, o.id))), count(*) INTO changes, row_count FROM old_rows o FULL JOIN new_rows n ON n.id = o.id WHERE o.object_api_name = 'APT_Contact_Us__c' OR n.object_api_name = 'APT_Contact_Us__c'; PERFORM notify_contact_us_payload(changes, row_count); RETURN NULL; END
$$;
