-- Places for the locator's nearest search (getNearestContacts) and its city type-ahead (getPlaceSuggestions):
-- the cities and states of the country data package with their coordinates, loaded at start by
-- server/storefront/places.ts when the package's version differs from place_source's.
--
-- A representative is placed by its country, state and city as written: the city (lower-cased) among the
-- places of its state, or the state's own place (city_key '') when its city is blank. The city is promoted
-- to a stored generated column, like the filters of migration 005, so that the index below carries it and the
-- representatives of a place are found from the index alone (with their brands, for the brand filter).

CREATE TABLE place (
  country      text NOT NULL,
  country_code text NOT NULL,
  state        text NOT NULL,
  -- The city as the package writes it; '' for the state's own place.
  city         text NOT NULL,
  -- lower(city): what a representative's city is matched with, and what a type-ahead prefix is.
  city_key     text NOT NULL,
  latitude     double precision NOT NULL,
  longitude    double precision NOT NULL
);

-- A representative's place, by its country, state and city (one place each: the loader drops duplicates); also
-- what finds the representatives that no place matches.
CREATE UNIQUE INDEX place_key_idx ON place (country, state, city_key);

-- The places within a latitude band (the bounding box of a nearest search).
CREATE INDEX place_latitude_idx ON place (latitude, longitude) INCLUDE (country, state, city_key);

-- The type-ahead: a prefix of the city's name, in a country or in any.
CREATE INDEX place_city_prefix_idx ON place (city_key text_pattern_ops) WHERE city_key <> '';

CREATE INDEX place_country_city_prefix_idx ON place (country, city_key text_pattern_ops) WHERE city_key <> '';

-- Which version of the country data the place table holds.
CREATE TABLE place_source (
  version text NOT NULL
);

ALTER TABLE record
  ADD COLUMN contact_us_city text
    GENERATED ALWAYS AS (CASE WHEN object_api_name = 'APT_Contact_Us__c' THEN lower(coalesce(btrim(fields ->> 'APT_City__c'), '')) END) STORED;

CREATE INDEX contact_us_place_idx ON record (contact_us_country, contact_us_state, contact_us_city, id) INCLUDE (contact_us_brands)
  WHERE object_api_name = 'APT_Contact_Us__c';
