-- The idempotency starter's tables on H2: what all its migrations in classpath:db/idempotency/h2
-- create, in one script, for teams that set idempotency.jdbc.initialize-schema=never and apply
-- the schema with their own tooling.

-- Idempotency records: one row per (tenant, operation, key), claimed IN_PROGRESS under a lease
-- and fencing token, then COMPLETED with the response to replay until expires_at, or RELEASED by
-- a transient failure, keeping the key's attempts and last failure (a class name or a status,
-- never a message) until expires_at.
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
    attempts            INTEGER                  DEFAULT 1 NOT NULL,
    last_failure        VARCHAR(255),
    last_failure_at     TIMESTAMP WITH TIME ZONE,
    CONSTRAINT idempotency_record_pk PRIMARY KEY (tenant_id, operation, idempotency_key),
    -- Not "status IN (...)": H2 2.4.240 evaluates an IN list with the session that created the
    -- constraint, and fails every insert once that connection is closed (h2database#4291).
    CONSTRAINT idempotency_record_status_ck CHECK (CASE
        WHEN status = 'IN_PROGRESS' THEN TRUE WHEN status = 'COMPLETED' THEN TRUE
        WHEN status = 'RELEASED' THEN TRUE ELSE FALSE END)
);

CREATE INDEX idempotency_record_expires_at_idx ON idempotency_record (expires_at);

-- Records in progress by the end of their lease, for the health check and the stuck-record
-- purge (H2 has no partial indexes).
CREATE INDEX idempotency_record_in_progress_idx ON idempotency_record (status, locked_until);

-- Keys by their attempts, for the Actuator list of repeated failures.
CREATE INDEX idempotency_record_attempts_idx ON idempotency_record (attempts);

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
