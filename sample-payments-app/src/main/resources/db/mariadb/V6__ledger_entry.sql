-- Ledger postings of succeeded payments. Deliberately not unique on payment_id: the
-- ledger:{paymentId} idempotency key is what keeps a redelivered event to one entry, and a second
-- entry would show here.
CREATE TABLE ledger_entry (
    id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    payment_id        BIGINT                   NOT NULL,
    customer_id       VARCHAR(255)             NOT NULL,
    amount            BIGINT                   NOT NULL,
    currency          VARCHAR(3)               NOT NULL,
    gateway_charge_id VARCHAR(64),
    posted_at         DATETIME(6)              NOT NULL
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX ledger_entry_payment_idx ON ledger_entry (payment_id);
CREATE INDEX ledger_entry_customer_idx ON ledger_entry (customer_id);
