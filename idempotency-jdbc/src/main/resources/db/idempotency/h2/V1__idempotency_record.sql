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
    response_headers    CHARACTER VARYING,
    response_body       VARBINARY,
    CONSTRAINT idempotency_record_pk PRIMARY KEY (tenant_id, operation, idempotency_key),
    -- Not "status IN (...)": H2 2.4.240 evaluates an IN list with the session that created the
    -- constraint, and fails every insert once that connection is closed (h2database#4291).
    CONSTRAINT idempotency_record_status_ck CHECK (CASE WHEN status = 'IN_PROGRESS' THEN TRUE
        WHEN status = 'COMPLETED' THEN TRUE ELSE FALSE END)
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
    response_headers    CHARACTER VARYING,
    response_body       VARBINARY,
    archived_at         TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX idempotency_record_archive_key_idx
    ON idempotency_record_archive (tenant_id, operation, idempotency_key);
