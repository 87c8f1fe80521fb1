-- JpaApplication's own spring.sql.init data, which reads one of the starter's tables.
INSERT INTO memo_audit (note) SELECT 'idempotency records at start: ' || COUNT(*) FROM idempotency_record;
