-- Records written through the record API carry their creator, last modifier and (on objects with an owner)
-- their owner. The demo Contact Us records were seeded without them: they are the administrator's.

UPDATE record
SET created_by_id = COALESCE(created_by_id, '0058d0000000001AAA'),
    last_modified_by_id = COALESCE(last_modified_by_id, '0058d0000000001AAA'),
    fields = CASE WHEN fields ? 'OwnerId' THEN fields ELSE fields || '{"OwnerId": "0058d0000000001AAA"}'::jsonb END
WHERE object_api_name = 'APT_Contact_Us__c'
  AND (created_by_id IS NULL OR last_modified_by_id IS NULL OR NOT fields ? 'OwnerId');

-- An account's contacts (the Contacts child relationship) are found by their AccountId.
CREATE INDEX record_contact_account_idx ON record ((fields ->> 'AccountId'), id) WHERE object_api_name = 'Contact';
