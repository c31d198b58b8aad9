-- The index of an Account's Contacts in name order (012) is now derived, with every related list's, from the
-- related-list definitions at start (server/platform/related-lists/indexes.ts): the hand-written copy goes.
DROP INDEX IF EXISTS record_contact_account_name_idx;
