-- Full-text search over records (server/platform/search, query/search-term.ts): each record keeps a search
-- document, the words of its object's text fields (the name fields weighted A, the others B), written by a
-- trigger on every insert and on every change of its fields, and rebuilt for an object's records whenever
-- its fields' metadata is (re)loaded. The 'simple' configuration: words are lower-cased, never stemmed or
-- dropped, so that a prefix of any word in a field finds it. A GIN index answers `@@`.
-- Lookups' type-ahead (name starts with what was typed) reads the lower-cased name in order from a b-tree.

CREATE FUNCTION record_search_document(object text, record_fields jsonb) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('simple', coalesce(string_agg(record_fields ->> f.api_name, ' ') FILTER (WHERE f.definition ->> 'nameField' = 'true'), '')), 'A')
      || setweight(to_tsvector('simple', coalesce(string_agg(record_fields ->> f.api_name, ' ') FILTER (WHERE f.definition ->> 'nameField' IS DISTINCT FROM 'true'), '')), 'B')
  FROM sobject_field f
  WHERE f.object_api_name = object
    AND f.api_name <> 'Id'
    AND f.definition ->> 'dataType' IN ('String', 'TextArea', 'LongTextArea', 'Phone', 'Email', 'Url', 'Picklist', 'ComboBox', 'MultiPicklist')
$$;

-- The prefix query of a search term: every word of the term, as the documents' words are made, must begin a
-- word of the document. Words are quoted, so that no character of the term is read as tsquery syntax; a term
-- without words gives null, which matches nothing.
CREATE FUNCTION record_search_query(term text) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT to_tsquery('simple', string_agg('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || ''':*', ' & '))
  FROM unnest(to_tsvector('simple', term)) AS t
$$;

ALTER TABLE record ADD COLUMN search_document tsvector;

CREATE FUNCTION record_search_document_write() RETURNS trigger
LANGUAGE plpgsql AS $$
  BEGIN NEW.search_document := record_search_document(NEW.object_api_name, NEW.fields); RETURN NEW; END
$$;

CREATE TRIGGER record_search_document_write BEFORE INSERT OR UPDATE OF fields, object_api_name ON record
FOR EACH ROW EXECUTE FUNCTION record_search_document_write();

-- Metadata loads replace an object's fields (delete, then insert): its records' documents follow.
CREATE FUNCTION record_search_document_reindex() RETURNS trigger
LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE record r SET search_document = record_search_document(r.object_api_name, r.fields)
    WHERE r.object_api_name IN (SELECT DISTINCT object_api_name FROM loaded_fields); RETURN NULL; END
$$;

CREATE TRIGGER record_search_document_reindex AFTER INSERT ON sobject_field
REFERENCING NEW TABLE AS loaded_fields
FOR EACH STATEMENT EXECUTE FUNCTION record_search_document_reindex();

UPDATE record SET search_document = record_search_document(object_api_name, fields);

CREATE INDEX record_search_document_idx ON record USING gin (search_document);
CREATE INDEX record_name_prefix_idx ON record (object_api_name, lower(fields ->> 'Name'), id);
