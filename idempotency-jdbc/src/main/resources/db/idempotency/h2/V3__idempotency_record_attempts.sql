-- A transient failure gives its key up as RELEASED instead of deleting it, so that how many times
-- a key ran (attempts) and what its last attempt failed with stay visible until the record expires.
-- The failure is an exception class name or a status such as 'status 503', never a message.
ALTER TABLE idempotency_record ADD COLUMN attempts INTEGER DEFAULT 1 NOT NULL;
ALTER TABLE idempotency_record ADD COLUMN last_failure VARCHAR(255);
ALTER TABLE idempotency_record ADD COLUMN last_failure_at TIMESTAMP WITH TIME ZONE;

ALTER TABLE idempotency_record DROP CONSTRAINT idempotency_record_status_ck;
-- Not "status IN (...)": see V1 (h2database#4291).
ALTER TABLE idempotency_record ADD CONSTRAINT idempotency_record_status_ck CHECK (CASE
    WHEN status = 'IN_PROGRESS' THEN TRUE WHEN status = 'COMPLETED' THEN TRUE
    WHEN status = 'RELEASED' THEN TRUE ELSE FALSE END);

-- Keys by their attempts, for the Actuator list of repeated failures (H2 has no partial indexes).
CREATE INDEX idempotency_record_attempts_idx ON idempotency_record (attempts);
