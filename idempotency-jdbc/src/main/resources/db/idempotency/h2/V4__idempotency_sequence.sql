-- The highest sequence number processed per scope of @IdempotentSequence operations: a call with a
-- lower number is refused, never run. Each accepted number pushes expires_at out by the operation's
-- TTL; the purge deletes scopes past it.
CREATE TABLE idempotency_sequence (
    tenant_id        VARCHAR(255)             NOT NULL,
    scope            VARCHAR(255)             NOT NULL,
    highest_sequence BIGINT                   NOT NULL,
    updated_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT idempotency_sequence_pk PRIMARY KEY (tenant_id, scope)
);

CREATE INDEX idempotency_sequence_expires_at_idx ON idempotency_sequence (expires_at);
