-- Rate-limit counts shared by every server process on one database: per limiter and client, the window under
-- way (it starts with the client's first request, as in memory; milliseconds since the epoch) and the
-- requests counted in it, counted with an UPSERT that starts a new window once the last one has ended.
CREATE TABLE rate_limit_window (
  limiter text NOT NULL,
  client_key text NOT NULL,
  window_start bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (limiter, client_key)
);
