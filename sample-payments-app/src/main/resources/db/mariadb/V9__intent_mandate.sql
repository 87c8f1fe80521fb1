-- Intent mandates: what a user allows an agent to buy on their behalf. Unique on
-- (user_id, intent_hash): the hash covers every term of the intent, its expiry included, so the
-- same intent is the same mandate even after its idempotency record is gone.
CREATE TABLE intent_mandate (
    id                              VARCHAR(64)              NOT NULL PRIMARY KEY,
    user_id                         VARCHAR(64)              NOT NULL,
    intent_hash                     VARCHAR(64)              NOT NULL,
    description                     VARCHAR(500)             NOT NULL,
    max_amount                      BIGINT                   NOT NULL,
    currency                        VARCHAR(3)               NOT NULL,
    requires_refundability          BOOLEAN                  NOT NULL,
    user_cart_confirmation_required BOOLEAN                  NOT NULL,
    created_at                      DATETIME(6)              NOT NULL,
    expires_at                      DATETIME(6)              NOT NULL,
    CONSTRAINT intent_mandate_user_hash_uk UNIQUE (user_id, intent_hash),
    CONSTRAINT intent_mandate_amount_ck CHECK (max_amount > 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE TABLE intent_mandate_merchant (
    mandate_id VARCHAR(64) NOT NULL,
    merchant   VARCHAR(64) NOT NULL,
    CONSTRAINT intent_mandate_merchant_pk PRIMARY KEY (mandate_id, merchant),
    CONSTRAINT intent_mandate_merchant_fk FOREIGN KEY (mandate_id) REFERENCES intent_mandate (id)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE TABLE intent_mandate_sku (
    mandate_id VARCHAR(64) NOT NULL,
    sku        VARCHAR(64) NOT NULL,
    CONSTRAINT intent_mandate_sku_pk PRIMARY KEY (mandate_id, sku),
    CONSTRAINT intent_mandate_sku_fk FOREIGN KEY (mandate_id) REFERENCES intent_mandate (id)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
