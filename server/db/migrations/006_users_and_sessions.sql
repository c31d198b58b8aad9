-- Sign-in credentials of users (the User records themselves live in `record`) and their sessions.
-- A session is stored by the SHA-256 of its id, so that a copy of the table cannot be replayed as cookies.

CREATE TABLE user_credential (
  user_id       text COLLATE "C" PRIMARY KEY REFERENCES record (id) ON DELETE CASCADE,
  -- Lower-cased: usernames compare without regard to case.
  username      text COLLATE "C" NOT NULL UNIQUE,
  -- scrypt$N$r$p$salt$hash, salt and hash in base64url.
  password_hash text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_session (
  id_hash             text COLLATE "C" PRIMARY KEY,
  user_id             text COLLATE "C" NOT NULL REFERENCES record (id) ON DELETE CASCADE,
  created_at          timestamptz NOT NULL,
  -- Never later than absolute_expires_at, so that it alone decides whether a session is over.
  idle_expires_at     timestamptz NOT NULL,
  absolute_expires_at timestamptz NOT NULL
);

CREATE INDEX user_session_user_idx ON user_session (user_id);
CREATE INDEX user_session_expiry_idx ON user_session (idle_expires_at);

-- Secrets the server generates once and every instance shares (the CSRF token key).
CREATE TABLE server_secret (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
