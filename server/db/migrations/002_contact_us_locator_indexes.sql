-- Indexes of the contact locator's filters on the Contact Us object: country and state (with id, the
-- order of the result), brands (a multi-select picklist, values separated by ';') and the default contact.

CREATE INDEX contact_us_country_state_idx ON record ((fields ->> 'APT_Country__c'), (fields ->> 'APT_Primary_State__c'), id)
  WHERE object_api_name = 'APT_Contact_Us__c';

CREATE INDEX contact_us_brands_idx ON record USING gin ((string_to_array(fields ->> 'APT_Brand__c', ';')))
  WHERE object_api_name = 'APT_Contact_Us__c';

CREATE INDEX contact_us_default_idx ON record (id)
  WHERE object_api_name = 'APT_Contact_Us__c' AND (fields ->> 'APT_Default_Contact__c') = 'true';
