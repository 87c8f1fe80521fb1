CREATE TABLE payment (
    id              VARCHAR(36) PRIMARY KEY,
    customer_id     VARCHAR(64) NOT NULL,
    amount          BIGINT NOT NULL,
    currency        VARCHAR(3) NOT NULL,
    token           VARCHAR(36),
    -- The idempotency key the payment was taken under (tenant and key), unique: a retry that takes
    -- over a key after a crash finds the payment its first attempt took instead of taking another.
    idempotency_key VARCHAR(400) UNIQUE
);
