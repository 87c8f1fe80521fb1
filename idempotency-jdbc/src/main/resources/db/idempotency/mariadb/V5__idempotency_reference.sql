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
