-- The history rows one transaction wrote, by its id (migration 027's "TransactionId"): an import counts those of
-- its batches (server/platform/import/commit.ts), which without an index read every history row of the org, a
-- million and more. History rows only (their ids have the history key prefix), as the import's query names them.
CREATE INDEX record_history_transaction ON record ((fields ->> 'TransactionId')) WHERE id LIKE '017%';
