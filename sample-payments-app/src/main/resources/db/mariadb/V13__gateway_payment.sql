-- The state of each accepted charge by the payment gateway's webhooks: PENDING (no row yet) ->
-- SUCCEEDED -> REFUNDED, or PENDING -> FAILED. A charge is a payment's gateway_charge_id; like
-- ledger_entry, these tables name the payment without a foreign key, so the payment tables stay
-- the payments flow's own.
CREATE TABLE gateway_payment (
    transaction_id VARCHAR(64)              NOT NULL PRIMARY KEY,
    payment_id     BIGINT                   NOT NULL,
    state          VARCHAR(16)              NOT NULL,
    updated_at     DATETIME(6)              NOT NULL,
    CONSTRAINT gateway_payment_state_ck CHECK (state IN ('PENDING', 'SUCCEEDED', 'FAILED', 'REFUNDED'))
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

-- Every event applied to a charge, in the order applied (id). An event type applies at most once
-- per charge, which the state machine allows anyway and this constraint holds whatever runs.
CREATE TABLE gateway_payment_event (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    transaction_id VARCHAR(64)              NOT NULL,
    event_type     VARCHAR(32)              NOT NULL,
    from_state     VARCHAR(16)              NOT NULL,
    to_state       VARCHAR(16)              NOT NULL,
    applied_at     DATETIME(6)              NOT NULL,
    CONSTRAINT gateway_payment_event_charge_fk FOREIGN KEY (transaction_id) REFERENCES gateway_payment (transaction_id),
    CONSTRAINT gateway_payment_event_type_uk UNIQUE (transaction_id, event_type)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

-- Webhooks find a payment by its gateway charge.
CREATE INDEX payment_gateway_charge_idx ON payment (gateway_charge_id);
