-- The idempotency starter's tables on MariaDB 10.6 or later: what all its migrations in
-- classpath:db/idempotency/mariadb create, in one script, for teams that set
-- idempotency.jdbc.initialize-schema=never and apply the schema with Liquibase or their own
-- tooling. Compare it with the migrations of each new starter version.
-- Text compares byte for byte (utf8mb4_nopad_bin): keys that differ in case, accents or trailing
-- spaces are different keys. Times are UTC to the microsecond, written with UTC_TIMESTAMP(6).

-- Idempotency records: one row per (tenant, operation, key), claimed IN_PROGRESS under a lease
-- and fencing token, then COMPLETED with the response to replay until expires_at, or RELEASED by
-- a transient failure, keeping the key's attempts and last failure (a class name or a status,
-- never a message) until expires_at. The key's three columns take 3 x 1022 bytes, within InnoDB's
-- 3072 (DYNAMIC rows).
CREATE TABLE idempotency_record (
    tenant_id           VARCHAR(255)                                    NOT NULL,
    operation           VARCHAR(255)                                    NOT NULL,
    idempotency_key     VARCHAR(255)                                    NOT NULL,
    status              VARCHAR(16)                                     NOT NULL,
    request_fingerprint VARCHAR(64)                                     NOT NULL,
    fencing_token       CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    locked_until        DATETIME(6),
    created_at          DATETIME(6)                                     NOT NULL,
    completed_at        DATETIME(6),
    expires_at          DATETIME(6)                                     NOT NULL,
    response_status     INTEGER,
    response_headers    LONGTEXT,
    response_body       LONGBLOB,
    attempts            INTEGER                                         NOT NULL DEFAULT 1,
    last_failure        VARCHAR(255),
    last_failure_at     DATETIME(6),
    CONSTRAINT idempotency_record_pk PRIMARY KEY (tenant_id, operation, idempotency_key),
    CONSTRAINT idempotency_record_status_ck CHECK (status IN ('IN_PROGRESS', 'COMPLETED', 'RELEASED'))
) ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX idempotency_record_expires_at_idx ON idempotency_record (expires_at);

-- Records in progress by the end of their lease, for the health check and the stuck-record
-- purge (MariaDB has no partial indexes).
CREATE INDEX idempotency_record_in_progress_idx ON idempotency_record (status, locked_until);

-- Keys by their attempts, for the Actuator list of repeated failures.
CREATE INDEX idempotency_record_attempts_idx ON idempotency_record (attempts);

-- Records of operations marked archive: true, copied here in the transaction that deletes them.
CREATE TABLE idempotency_record_archive (
    archive_id          BIGINT                                          NOT NULL AUTO_INCREMENT,
    tenant_id           VARCHAR(255)                                    NOT NULL,
    operation           VARCHAR(255)                                    NOT NULL,
    idempotency_key     VARCHAR(255)                                    NOT NULL,
    status              VARCHAR(16)                                     NOT NULL,
    request_fingerprint VARCHAR(64)                                     NOT NULL,
    fencing_token       CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at          DATETIME(6)                                     NOT NULL,
    completed_at        DATETIME(6),
    expires_at          DATETIME(6)                                     NOT NULL,
    response_status     INTEGER,
    response_headers    LONGTEXT,
    response_body       LONGBLOB,
    archived_at         DATETIME(6)                                     NOT NULL,
    CONSTRAINT idempotency_record_archive_pk PRIMARY KEY (archive_id)
) ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX idempotency_record_archive_key_idx
    ON idempotency_record_archive (tenant_id, operation, idempotency_key);

-- The highest sequence number processed per scope of @IdempotentSequence operations: a call with a
-- lower number is refused, never run. Each accepted number pushes expires_at out by the operation's
-- TTL; the purge deletes scopes past it.
CREATE TABLE idempotency_sequence (
    tenant_id        VARCHAR(255) NOT NULL,
    scope            VARCHAR(255) NOT NULL,
    highest_sequence BIGINT       NOT NULL,
    updated_at       DATETIME(6)  NOT NULL,
    expires_at       DATETIME(6)  NOT NULL,
    CONSTRAINT idempotency_sequence_pk PRIMARY KEY (tenant_id, scope)
) ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX idempotency_sequence_expires_at_idx ON idempotency_sequence (expires_at);

-- References that business code attached to an idempotency key (IdempotencyContext.reference), such
-- as a payment gateway's transaction id, so that an operator can go from one to the other. Written
-- when attached, outside the operation's transaction; deleted with the key's record by the purge
-- (or when a new request replaces its expired record), copied first to
-- idempotency_reference_archive for archived operations. expires_at bounds a reference whose
-- record is gone, such as one an ATOMIC rollback left behind.
-- The five columns that make a reference unique are longer than an InnoDB key may be: its key is
-- their SHA-256 (reference_id), which the store writes with the reference.
CREATE TABLE idempotency_reference (
    tenant_id       VARCHAR(255) NOT NULL,
    operation       VARCHAR(255) NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    reference_name  VARCHAR(64)  NOT NULL,
    reference_value VARCHAR(255) NOT NULL,
    created_at      DATETIME(6)  NOT NULL,
    expires_at      DATETIME(6)  NOT NULL,
    reference_id    BINARY(32)   NOT NULL,
    CONSTRAINT idempotency_reference_pk PRIMARY KEY (reference_id)
) ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX idempotency_reference_key_idx ON idempotency_reference (tenant_id, operation, idempotency_key);

CREATE INDEX idempotency_reference_value_idx ON idempotency_reference (reference_name, reference_value);

CREATE INDEX idempotency_reference_expires_at_idx ON idempotency_reference (expires_at);

CREATE TABLE idempotency_reference_archive (
    archive_id      BIGINT       NOT NULL AUTO_INCREMENT,
    tenant_id       VARCHAR(255) NOT NULL,
    operation       VARCHAR(255) NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    reference_name  VARCHAR(64)  NOT NULL,
    reference_value VARCHAR(255) NOT NULL,
    created_at      DATETIME(6)  NOT NULL,
    archived_at     DATETIME(6)  NOT NULL,
    CONSTRAINT idempotency_reference_archive_pk PRIMARY KEY (archive_id)
) ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX idempotency_reference_archive_value_idx
    ON idempotency_reference_archive (reference_name, reference_value);
