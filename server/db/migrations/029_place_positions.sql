-- The nearest search's index (server/storefront/nearest.ts): each place's position as a point on the unit
-- sphere (x, y, z), in a GiST index of the cube extension. Straight-line distance through the sphere orders
-- points as the distance along its surface does, so the index gives places nearest first (ORDER BY <->) and
-- the places within a distance (<@ a box around the point), across the 180th meridian and the poles alike.
-- In the public schema, as pg_trgm (migration 014), so that every schema of the database finds it.

CREATE EXTENSION IF NOT EXISTS cube WITH SCHEMA public;

ALTER TABLE place
  ADD COLUMN position public.cube GENERATED ALWAYS AS (public.cube(ARRAY[
    cos(radians(latitude)) * cos(radians(longitude)),
    cos(radians(latitude)) * sin(radians(longitude)),
    sin(radians(latitude))])) STORED;

CREATE INDEX place_position_idx ON place USING gist (position);

-- The latitude band that the search read before: no query reads it now.
DROP INDEX place_latitude_idx;
