-- Records in progress by the end of their lease, so that the health check and the purge find
-- those stuck past their lease without scanning the table. Partial: completed records, the vast
-- majority, are not in it.
CREATE INDEX idempotency_record_in_progress_idx ON idempotency_record (locked_until)
    WHERE status = 'IN_PROGRESS';
