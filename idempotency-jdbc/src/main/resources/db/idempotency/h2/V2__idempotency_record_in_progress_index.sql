-- Records in progress by the end of their lease, so that the health check and the purge find
-- those stuck past their lease without scanning the table (H2 has no partial indexes).
CREATE INDEX idempotency_record_in_progress_idx ON idempotency_record (status, locked_until);
