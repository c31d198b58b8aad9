-- The inquiries sent from the storefront (server/storefront/inquiry.ts), by the idempotency key their form
-- carries: the same key sent again answers the first result and never creates a second Case. The row is
-- inserted first, in the transaction that then creates the Case and fills in case_id and result, so that a
-- second request with the same key waits on the first one's insert (the primary key) and then reads the row it
-- committed; if the first one fails, its row goes with it and the key is free again. content_hash is the
-- SHA-256 of the inquiry's content: the same key with other content is refused.
CREATE TABLE inquiry (
  idempotency_key uuid PRIMARY KEY,
  content_hash    text COLLATE "C" NOT NULL,
  case_id         text COLLATE "C",
  result          jsonb,
  created_date    timestamptz NOT NULL
);
