-- Servers keep the Contact Us page as guests see it, rendered once per address (web/ssr/page-cache.ts). Besides
-- the contacts and picklist values (contact_us_changed, migration 004), that page shows the site's content
-- (texts, the banner picture and its file), its search-engine settings, and what the object's metadata says
-- (labels, record types). Every statement that changes one of these tells all servers at commit
-- (NOTIFY site_changed), so that none of them serves a page that the change made stale. They change rarely:
-- one notification per statement, whatever it changed.

CREATE FUNCTION notify_site_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('site_changed', TG_TABLE_NAME); RETURN NULL; END
$$;

CREATE TRIGGER cms_site_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cms_site
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER cms_channel_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cms_channel
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER managed_content_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON managed_content
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER managed_content_channel_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON managed_content_channel
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER managed_content_media_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON managed_content_media
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER page_seo_setting_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON page_seo_setting
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER sobject_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sobject
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER sobject_field_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sobject_field
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();

CREATE TRIGGER record_type_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON record_type
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_changed();
