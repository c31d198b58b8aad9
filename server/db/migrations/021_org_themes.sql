-- The org's themes (server/platform/themes.ts): colours, density and pictures, as settings; the one active
-- answers GET /themes/active. The first is written at start from metadata/theme.json when there is none.
CREATE TABLE org_theme (
  developer_name text COLLATE "C" PRIMARY KEY,
  active         boolean NOT NULL DEFAULT false,
  settings       jsonb NOT NULL
);

CREATE UNIQUE INDEX org_theme_one_active_idx ON org_theme (active) WHERE active;
