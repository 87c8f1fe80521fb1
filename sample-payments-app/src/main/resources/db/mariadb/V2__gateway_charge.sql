-- The fake payment gateway's own ledger: one charge per forwarded idempotency key, however
-- often it is asked.
CREATE TABLE gateway_charge (
    id              VARCHAR(64)              NOT NULL PRIMARY KEY,
    idempotency_key VARCHAR(600)             NOT NULL,
    customer_id     VARCHAR(255)             NOT NULL,
    amount          BIGINT                   NOT NULL,
    currency        VARCHAR(3)               NOT NULL,
    status          VARCHAR(16)              NOT NULL,
    attempts        INTEGER                  NOT NULL,
    created_at      DATETIME(6)              NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT gateway_charge_key_uk UNIQUE (idempotency_key),
    CONSTRAINT gateway_charge_status_ck CHECK (status IN ('SUCCEEDED', 'DECLINED'))
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
