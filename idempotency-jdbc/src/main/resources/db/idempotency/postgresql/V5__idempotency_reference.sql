-- References that business code attached to an idempotency key (IdempotencyContext.reference), such
-- as a payment gateway's transaction id, so that an operator can go from one to the other. Written
-- when attached, outside the operation's transaction; deleted with the key's record by the purge
-- (or when a new request replaces its expired record), copied first to
-- idempotency_reference_archive for archived operations. expires_at bounds a reference whose
-- record is gone, such as one an ATOMIC rollback left behind.
CREATE TABLE idempotency_reference (
    tenant_id       VARCHAR(255)             NOT NULL,
    operation       VARCHAR(255)             NOT NULL,
    idempotency_key VARCHAR(255)             NOT NULL,
    reference_name  VARCHAR(64)              NOT NULL,
    reference_value VARCHAR(255)             NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT idempotency_reference_pk
        PRIMARY KEY (tenant_id, operation, idempotency_key, reference_name, reference_value)
);

CREATE INDEX idempotency_reference_value_idx ON idempotency_reference (reference_name, reference_value);

CREATE INDEX idempotency_reference_expires_at_idx ON idempotency_reference (expires_at);

CREATE TABLE idempotency_reference_archive (
    archive_id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id       VARCHAR(255)             NOT NULL,
    operation       VARCHAR(255)             NOT NULL,
    idempotency_key VARCHAR(255)             NOT NULL,
    reference_name  VARCHAR(64)              NOT NULL,
    reference_value VARCHAR(255)             NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    archived_at     TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX idempotency_reference_archive_value_idx
    ON idempotency_reference_archive (reference_name, reference_value);
