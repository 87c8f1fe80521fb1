-- Cart mandates: a customer's commitment to a cart at its prices until expires_at. Not unique on
-- (customer_id, cart_hash): once a mandate expires, the same cart may get a new one.
CREATE TABLE cart_mandate (
    id          VARCHAR(64)              NOT NULL PRIMARY KEY,
    customer_id VARCHAR(255)             NOT NULL,
    currency    VARCHAR(3)               NOT NULL,
    total       BIGINT                   NOT NULL,
    cart_hash   VARCHAR(64)              NOT NULL,
    created_at  DATETIME(6)              NOT NULL,
    expires_at  DATETIME(6)              NOT NULL
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX cart_mandate_customer_idx ON cart_mandate (customer_id, cart_hash);

CREATE TABLE cart_mandate_item (
    mandate_id VARCHAR(64) NOT NULL,
    sku        VARCHAR(64) NOT NULL,
    quantity   INTEGER     NOT NULL,
    unit_price BIGINT      NOT NULL,
    CONSTRAINT cart_mandate_item_pk PRIMARY KEY (mandate_id, sku),
    CONSTRAINT cart_mandate_item_mandate_fk FOREIGN KEY (mandate_id) REFERENCES cart_mandate (id),
    CONSTRAINT cart_mandate_item_quantity_ck CHECK (quantity > 0),
    CONSTRAINT cart_mandate_item_price_ck CHECK (unit_price >= 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
