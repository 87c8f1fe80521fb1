CREATE TABLE payment (
    id          VARCHAR(36) PRIMARY KEY,
    customer_id VARCHAR(64) NOT NULL,
    amount      BIGINT NOT NULL,
    currency    VARCHAR(3) NOT NULL,
    token       VARCHAR(36)
);
