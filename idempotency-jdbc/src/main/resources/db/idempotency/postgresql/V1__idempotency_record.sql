-- Idempotency records: one row per (tenant, operation, key), claimed IN_PROGRESS under a lease
-- and fencing token, then COMPLETED with the response to replay until expires_at.
CREATE TABLE idempotency_record (
    tenant_id           VARCHAR(255)             NOT NULL,
    operation           VARCHAR(255)             NOT NULL,
    idempotency_key     VARCHAR(255)             NOT NULL,
    status              VARCHAR(16)              NOT NULL,
    request_fingerprint VARCHAR(64)              NOT NULL,
    fencing_token       UUID                     NOT NULL,
    locked_until        TIMESTAMP WITH TIME ZONE,
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    completed_at        TIMESTAMP WITH TIME ZONE,
    expires_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    response_status     INTEGER,
    response_headers    TEXT,
    response_body       BYTEA,
    CONSTRAINT idempotency_record_pk PRIMARY KEY (tenant_id, operation, idempotency_key),
    CONSTRAINT idempotency_record_status_ck CHECK (status IN ('IN_PROGRESS', 'COMPLETED'))
);

CREATE INDEX idempotency_record_expires_at_idx ON idempotency_record (expires_at);

-- Records of operations marked archive: true, copied here in the transaction that deletes them.
CREATE TABLE idempotency_record_archive (
    archive_id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id           VARCHAR(255)             NOT NULL,
    operation           VARCHAR(255)             NOT NULL,
    idempotency_key     VARCHAR(255)             NOT NULL,
    status              VARCHAR(16)              NOT NULL,
    request_fingerprint VARCHAR(64)              NOT NULL,
    fencing_token       UUID                     NOT NULL,
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    completed_at        TIMESTAMP WITH TIME ZONE,
    expires_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    response_status     INTEGER,
    response_headers    TEXT,
    response_body       BYTEA,
    archived_at         TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX idempotency_record_archive_key_idx
    ON idempotency_record_archive (tenant_id, operation, idempotency_key);
