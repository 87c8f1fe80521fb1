-- Orders, at most one per cart mandate: the unique constraint backs up the order:{cartMandateId}
-- idempotency key.
CREATE TABLE orders (
    id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    cart_mandate_id VARCHAR(64)              NOT NULL,
    customer_id     VARCHAR(255)             NOT NULL,
    currency        VARCHAR(3)               NOT NULL,
    total           BIGINT                   NOT NULL,
    created_at      DATETIME(6)              NOT NULL,
    CONSTRAINT orders_cart_mandate_uk UNIQUE (cart_mandate_id),
    CONSTRAINT orders_cart_mandate_fk FOREIGN KEY (cart_mandate_id) REFERENCES cart_mandate (id)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX orders_customer_idx ON orders (customer_id);
