-- Managed content (CMS) of the site: the site and its delivery channel, the published content items, the
-- media files of image items, and the search-engine settings of the site's pages.

CREATE TABLE cms_site (
  id            text COLLATE "C" PRIMARY KEY,          -- 0DM... the site, as content delivery addresses it
  community_id  text COLLATE "C" NOT NULL UNIQUE,      -- 0DB... the same site as a community (SEO)
  name          text NOT NULL
);

CREATE TABLE cms_channel (
  id            text COLLATE "C" PRIMARY KEY,          -- 0ap...
  site_id       text COLLATE "C" UNIQUE REFERENCES cms_site (id),  -- the site the channel serves, if any
  name          text NOT NULL,
  channel_type  text NOT NULL
);

CREATE TABLE managed_content (
  id                text COLLATE "C" PRIMARY KEY,      -- the managed content id, 20Y...
  content_key       text COLLATE "C" NOT NULL UNIQUE,  -- MC... 28 characters
  content_type      text NOT NULL,                     -- fully qualified name, e.g. sfdc_cms__image
  content_type_name text NOT NULL,
  title             text NOT NULL,
  url_name          text NOT NULL,
  language          text NOT NULL,
  content_body      jsonb NOT NULL,
  published_date    timestamptz NOT NULL
);

CREATE INDEX managed_content_type_idx ON managed_content (content_type, id);

-- Which items are published to which channel.
CREATE TABLE managed_content_channel (
  channel_id          text COLLATE "C" NOT NULL REFERENCES cms_channel (id),
  managed_content_id  text COLLATE "C" NOT NULL REFERENCES managed_content (id) ON DELETE CASCADE,
  PRIMARY KEY (channel_id, managed_content_id)
);

-- The file of an image item: its bytes as uploaded, with what serving and resizing need to know without
-- reading them (size, dimensions, a checksum for ETags). version changes whenever the bytes do.
CREATE TABLE managed_content_media (
  content_key  text COLLATE "C" PRIMARY KEY REFERENCES managed_content (content_key) ON DELETE CASCADE,
  file_name    text NOT NULL UNIQUE,
  mime_type    text NOT NULL,
  width        integer NOT NULL,
  height       integer NOT NULL,
  byte_size    integer NOT NULL,
  checksum     text NOT NULL,
  version      text NOT NULL,
  data         bytea NOT NULL
);

-- Search-engine settings of a site page, by the page's view name. object_api_name: the object whose
-- records the page shows (its route parameter recordId), if any.
CREATE TABLE page_seo_setting (
  community_id      text COLLATE "C" NOT NULL REFERENCES cms_site (community_id),
  page_name         text NOT NULL,
  page_label        text NOT NULL,
  object_api_name   text,
  title             text NOT NULL,
  description       text,
  custom_head_tags  text,
  canonical_url     text,
  href_lang_urls    jsonb NOT NULL DEFAULT '[]',
  is_seo_indexed    boolean NOT NULL DEFAULT true,
  PRIMARY KEY (community_id, page_name)
);
