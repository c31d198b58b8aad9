-- Each user's own navigation items of an app (server/platform/apps), as the user last arranged them with
-- PUT /apps/{appId}/user-nav-items: a JSON array of {"name": developer name, "label": the user's own label
-- or absent}, in order. No row: the arrangement of the app's metadata file for the user, else the app's items.
CREATE TABLE app_user_nav_items (
  user_id    text COLLATE "C" NOT NULL,
  app_id     text COLLATE "C" NOT NULL,
  nav_items  jsonb NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, app_id)
);
