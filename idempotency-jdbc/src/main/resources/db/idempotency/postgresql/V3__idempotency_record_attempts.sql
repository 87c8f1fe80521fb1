-- A transient failure gives its key up as RELEASED instead of deleting it, so that how many times
-- a key ran (attempts) and what its last attempt failed with stay visible until the record expires.
-- The failure is an exception class name or a status such as 'status 503', never a message.
ALTER TABLE idempotency_record ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE idempotency_record ADD COLUMN last_failure VARCHAR(255);
ALTER TABLE idempotency_record ADD COLUMN last_failure_at TIMESTAMP WITH TIME ZONE;

ALTER TABLE idempotency_record DROP CONSTRAINT idempotency_record_status_ck;
ALTER TABLE idempotency_record ADD CONSTRAINT idempotency_record_status_ck
    CHECK (status IN ('IN_PROGRESS', 'COMPLETED', 'RELEASED'));

-- Keys that ran more than once, most attempts first, for the Actuator list of repeated failures.
-- Partial: keys that ran once, the vast majority, are not in it.
CREATE INDEX idempotency_record_attempts_idx ON idempotency_record (attempts DESC)
    WHERE attempts > 1;
