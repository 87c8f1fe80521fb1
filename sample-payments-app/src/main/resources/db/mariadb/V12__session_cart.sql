-- The carts of sessions, changed by PATCH /sessions/{id}/cart. Every applied update is a row of
-- session_cart_update, in the order applied (id); its number is unique per session, so an update
-- is never applied twice, and the last one applied is the highest. Updates of one session take the
-- lock of its user_session row, so they apply one at a time.
CREATE TABLE session_cart_update (
    id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    session_id      VARCHAR(64)              NOT NULL,
    sequence_number BIGINT                   NOT NULL,
    applied_at      DATETIME(6)              NOT NULL,
    CONSTRAINT session_cart_update_session_fk FOREIGN KEY (session_id) REFERENCES user_session (id),
    CONSTRAINT session_cart_update_number_uk UNIQUE (session_id, sequence_number),
    CONSTRAINT session_cart_update_number_ck CHECK (sequence_number > 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE TABLE session_cart_item (
    session_id VARCHAR(64) NOT NULL,
    sku        VARCHAR(64) NOT NULL,
    quantity   INTEGER     NOT NULL,
    CONSTRAINT session_cart_item_pk PRIMARY KEY (session_id, sku),
    CONSTRAINT session_cart_item_session_fk FOREIGN KEY (session_id) REFERENCES user_session (id),
    CONSTRAINT session_cart_item_quantity_ck CHECK (quantity > 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
