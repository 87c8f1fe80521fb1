-- Idempotency records: one row per (tenant, operation, key), claimed IN_PROGRESS under a lease
-- and fencing token, then COMPLETED with the response to replay until expires_at.
-- Text compares byte for byte (utf8mb4_nopad_bin): keys that differ in case, accents or trailing
-- spaces are different keys. Times are UTC to the microsecond, written with UTC_TIMESTAMP(6).
-- The key's three columns take 3 x 1022 bytes, within InnoDB's 3072 (DYNAMIC rows).
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
    CONSTRAINT idempotency_record_pk PRIMARY KEY (tenant_id, operation, idempotency_key),
    CONSTRAINT idempotency_record_status_ck CHECK (status IN ('IN_PROGRESS', 'COMPLETED'))
) ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX idempotency_record_expires_at_idx ON idempotency_record (expires_at);

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
