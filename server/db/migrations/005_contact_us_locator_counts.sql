-- The contact locator answers each call with a chunk of matching contacts in Id order and the exact number
-- of all matches (totalRecords). Through the expression indexes of 002, the count read the table row of every
-- candidate (PostgreSQL takes no index-only scan on index expressions): 10 ms for one state at a million
-- contacts, half a second for a whole country or a brand.
--
-- 1. The filter values are promoted to stored generated columns (NULL on other objects), which indexes can
--    carry: the Ids of a chunk come from an index-only scan, then only the chunk's rows are read.
-- 2. The number of contacts per (country, state, set of brands) is kept in contact_us_locator_count by
--    statement-level triggers, in the same transaction as the change: a count sums a few of its rows (some
--    hundred thousand groups at a million contacts; a state has at most one per set of brands).
--
-- The trigger bodies start lines with their semicolons: the migration runner splits statements at a
-- semicolon that ends a line.

ALTER TABLE record
  ADD COLUMN contact_us_country text
    GENERATED ALWAYS AS (CASE WHEN object_api_name = 'APT_Contact_Us__c' THEN fields ->> 'APT_Country__c' END) STORED,
  ADD COLUMN contact_us_state text
    GENERATED ALWAYS AS (CASE WHEN object_api_name = 'APT_Contact_Us__c' THEN fields ->> 'APT_Primary_State__c' END) STORED,
  ADD COLUMN contact_us_brands text[]
    GENERATED ALWAYS AS (CASE WHEN object_api_name = 'APT_Contact_Us__c' THEN string_to_array(fields ->> 'APT_Brand__c', ';') END) STORED;

DROP INDEX contact_us_country_state_idx;

DROP INDEX contact_us_brands_idx;

-- Country, country and state, either with brands: the range of the country (and state), in Id order, the
-- brands checked on the index entry.
CREATE INDEX contact_us_locator_country_state_idx ON record (contact_us_country, contact_us_state, id) INCLUDE (contact_us_brands)
  WHERE object_api_name = 'APT_Contact_Us__c';

-- A state without its country (the API allows it; state names recur across countries).
CREATE INDEX contact_us_locator_state_idx ON record (contact_us_state, id) INCLUDE (contact_us_brands)
  WHERE object_api_name = 'APT_Contact_Us__c';

-- Brands alone: a brand that few contacts carry is found here rather than by walking the Ids.
CREATE INDEX contact_us_locator_brands_idx ON record USING gin (contact_us_brands)
  WHERE object_api_name = 'APT_Contact_Us__c';

CREATE TABLE contact_us_locator_count (
  country text,
  state   text,
  brands  text[],
  n       bigint NOT NULL,
  CONSTRAINT contact_us_locator_count_key UNIQUE NULLS NOT DISTINCT (country, state, brands)
);

CREATE INDEX contact_us_locator_count_state_idx ON contact_us_locator_count (state);

-- Each statement adds its net change per group, groups in key order (so that concurrent writers lock them in
-- the same order), and ON CONFLICT adds to the latest committed count.
CREATE FUNCTION contact_us_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO contact_us_locator_count AS total (country, state, brands, n)
    SELECT contact_us_country, contact_us_state, contact_us_brands, count(*) FROM new_rows
    WHERE object_api_name = 'APT_Contact_Us__c' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (country, state, brands) DO UPDATE SET n = total.n + EXCLUDED.n
    ; RETURN NULL
  ; END
$$;

CREATE FUNCTION contact_us_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO contact_us_locator_count AS total (country, state, brands, n)
    SELECT country, state, brands, sum(delta) FROM (
      SELECT contact_us_country AS country, contact_us_state AS state, contact_us_brands AS brands, 1 AS delta
      FROM new_rows WHERE object_api_name = 'APT_Contact_Us__c'
      UNION ALL
      SELECT contact_us_country, contact_us_state, contact_us_brands, -1 FROM old_rows WHERE object_api_name = 'APT_Contact_Us__c'
    ) AS change
    GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (country, state, brands) DO UPDATE SET n = total.n + EXCLUDED.n
    ; RETURN NULL
  ; END
$$;

CREATE FUNCTION contact_us_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO contact_us_locator_count AS total (country, state, brands, n)
    SELECT contact_us_country, contact_us_state, contact_us_brands, -count(*) FROM old_rows
    WHERE object_api_name = 'APT_Contact_Us__c' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (country, state, brands) DO UPDATE SET n = total.n + EXCLUDED.n
    ; RETURN NULL
  ; END
$$;

CREATE FUNCTION contact_us_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN DELETE FROM contact_us_locator_count
  ; RETURN NULL
  ; END
$$;

CREATE TRIGGER contact_us_count_inserted AFTER INSERT ON record
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_us_count_inserted();

CREATE TRIGGER contact_us_count_updated AFTER UPDATE ON record
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_us_count_updated();

CREATE TRIGGER contact_us_count_deleted AFTER DELETE ON record
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_us_count_deleted();

CREATE TRIGGER contact_us_count_truncated AFTER TRUNCATE ON record
  FOR EACH STATEMENT EXECUTE FUNCTION contact_us_count_truncated();

-- The contacts already there (the triggers, created first in this transaction, see every later change).
INSERT INTO contact_us_locator_count (country, state, brands, n)
SELECT contact_us_country, contact_us_state, contact_us_brands, count(*) FROM record
WHERE object_api_name = 'APT_Contact_Us__c' GROUP BY 1, 2, 3;
