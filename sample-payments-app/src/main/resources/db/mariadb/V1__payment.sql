-- The sample's own tables on MariaDB, for its "mariadb" profile: db/migration written for MariaDB
-- (AUTO_INCREMENT, DATETIME(6), text compared byte for byte), one migration for each there.
-- Payments, unique per tenant and idempotency key so that a re-execution finds the first one.
CREATE TABLE payment (
    id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id         VARCHAR(255)             NOT NULL,
    idempotency_key   VARCHAR(255)             NOT NULL,
    customer_id       VARCHAR(255)             NOT NULL,
    amount            BIGINT                   NOT NULL,
    currency          VARCHAR(3)               NOT NULL,
    status            VARCHAR(16)              NOT NULL,
    gateway_charge_id VARCHAR(64),
    created_at        DATETIME(6)              NOT NULL,
    CONSTRAINT payment_tenant_key_uk UNIQUE (tenant_id, idempotency_key),
    CONSTRAINT payment_status_ck CHECK (status IN ('PENDING', 'SUCCEEDED', 'DECLINED'))
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX payment_tenant_customer_idx ON payment (tenant_id, customer_id);
