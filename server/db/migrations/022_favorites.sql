-- Each user's favorites (server/platform/favorites.ts): the records, list views, object homes and tabs a user
-- keeps at hand, in the user's own order. sort_order runs from 1 to the number of the user's favorites, without
-- gaps; every change of it is made under the user's advisory lock, so it is not a unique key (a reorder moves
-- several at once). A target is a user's favorite once at most.
CREATE TABLE favorite (
  id               text COLLATE "C" PRIMARY KEY,
  user_id          text COLLATE "C" NOT NULL,
  name             text NOT NULL,
  target           text COLLATE "C" NOT NULL,
  target_type      text COLLATE "C" NOT NULL,
  object_type      text COLLATE "C" NOT NULL,
  sort_order       integer NOT NULL,
  access_count     integer NOT NULL DEFAULT 0,
  last_access_date timestamptz NOT NULL,
  created_date     timestamptz NOT NULL,
  UNIQUE (user_id, target_type, target)
);

CREATE INDEX favorite_user_order_idx ON favorite (user_id, sort_order);
