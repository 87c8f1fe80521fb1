-- A transient failure gives its key up as RELEASED instead of deleting it, so that how many times
-- a key ran (attempts) and what its last attempt failed with stay visible until the record expires.
-- The failure is an exception class name or a status such as 'status 503', never a message.
ALTER TABLE idempotency_record ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE idempotency_record ADD COLUMN last_failure VARCHAR(255);
ALTER TABLE idempotency_record ADD COLUMN last_failure_at DATETIME(6);

ALTER TABLE idempotency_record DROP CONSTRAINT idempotency_record_status_ck;
ALTER TABLE idempotency_record ADD CONSTRAINT idempotency_record_status_ck
    CHECK (status IN ('IN_PROGRESS', 'COMPLETED', 'RELEASED'));

-- Keys by their attempts, for the Actuator list of repeated failures (MariaDB has no partial
-- indexes).
CREATE INDEX idempotency_record_attempts_idx ON idempotency_record (attempts);
